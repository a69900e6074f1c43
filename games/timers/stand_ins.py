"""A computer playing for a person: their whole turn when their time ran out
(``by="server"``), or every turn while it stands in for a player who left
(``by="computer"``, a ``StandIn`` row until they come back or the game ends).
Its moves go through the move services, recomputable from the seat's view."""

from __future__ import annotations

import logging

from games.ai import choose_action, decision_record
from games.engine import Action, State, legal_actions, view_for
from games.models import Game, StandIn
from games.play import selectors
from games.play.services.errors import StaleSeq
from games.play.services.moves import play_move

logger = logging.getLogger(__name__)

STAND_IN_LEVEL = "medium"
# Enough for a whole turn of the draw game (draws until a tile fits, then the play).
MAX_ACTIONS_PER_TURN = 30


def stand_in_for(*, game: Game, seat: int, user_id: int | None) -> int:
    """A computer takes ``seat`` (whose player left) and plays its turn;
    returns the number of actions."""
    StandIn.objects.get_or_create(table=game.table, seat=seat, defaults={"user_id": user_id})
    logger.info("a computer takes seat %s of table %s", seat, game.table.pk)
    return play_for(game_id=game.pk, seat=seat, by="computer")


def choose_for(game: Game, state: State, seat: int) -> Action:
    """The forced draw or pass, or the only play; else the computer's choice."""
    legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    action: Action = choose_action(view_for(state, seat), STAND_IN_LEVEL, seed=selectors.ai_seed(game, game.seq))
    return action


def play_for(*, game_id: int, seat: int, by: str) -> int:
    """Play ``seat``'s whole turn for them (through play_move); returns the
    number of actions. Stops at once if anyone else moved meanwhile."""
    done = 0
    for _attempt in range(MAX_ACTIONS_PER_TURN):
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.finished or game.to_move != seat:
            break
        state = selectors.game_state(game)
        if state is None or state.to_move != seat:
            break
        action = choose_for(game, state, seat)
        try:
            play_move(
                game_id=game_id,
                seat=seat,
                action=action,
                expected_seq=game.seq,
                by=by,
                # How it was chosen: recomputable from the seat's view (games.fairplay.fairness).
                computer=decision_record(STAND_IN_LEVEL, None),
            )
        except StaleSeq:
            break
        done += 1
    return done


def close_stand_ins(*, table_id: int) -> list[tuple[int, int]]:
    """At the end of a game, forget the computers standing in for people who
    left; returns (seat, member) for each member they stood in for (the
    members' app counts an abandoned game against each)."""
    stand_ins = list(StandIn.objects.filter(table_id=table_id))
    StandIn.objects.filter(pk__in=[s.pk for s in stand_ins]).delete()
    return [(stand_in.seat, stand_in.user_id) for stand_in in stand_ins if stand_in.user_id is not None]
