"""Helpers of the tests of every app: ranked tables played through the services."""

from __future__ import annotations

import random
from typing import Any

from games.engine import Play, legal_actions
from games.models import Game, Table
from games.play import selectors, services
from games.play.modes import RANKED_MODES
from games.tests.factories import seed_in_play


def ranked_table(users: list[Any], mode: str = "duel-block") -> Table:
    """A started ranked table of ``users``, on a random deal whose first round is in play
    (``seed_in_play``: the tests want a live game)."""
    spec = RANKED_MODES[mode]
    return services.create_table(
        kind=Table.Kind.RANKED,
        rules=spec.rules,
        preset=spec.preset,
        seats=[services.SeatSpec(user=user) for user in users],
        public=True,
        mode=mode,
        server_seed=seed_in_play(spec.rules),
    )


def play_out(table: Table, *, seed: int = 0, max_moves: int = 3000) -> Game:
    """Play every seat at random until the game ends (rounds dealt by the server)."""
    rng = random.Random(seed)
    game = Game.objects.get(table=table)
    for _ in range(max_moves):
        game.refresh_from_db()
        state = selectors.game_state(game)
        if state.game_over:
            return game
        if state.to_move is None:
            services.start_next_round(game_id=game.pk, seat=None, expected_seq=game.seq)
            continue
        action = rng.choice(legal_actions(state))
        services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=game.seq)
    raise AssertionError("the game did not end")


def play_past_the_opening(table: Table, *, tiles: int = 2, seed: int = 0) -> Game:
    """Play at random (a tile whenever one can be laid) until ``tiles`` tiles are on the
    line of the first round: the game is then really being played, and ending it by a
    resignation or an agreed draw is no longer an abort (docs/members.md)."""
    rng = random.Random(seed)
    game = Game.objects.get(table=table)
    for _ in range(200):
        game.refresh_from_db()
        state = selectors.game_state(game)
        if state.game_over or state.round > 1 or state.table_bits.bit_count() >= tiles:
            return game
        actions = legal_actions(state)
        plays = [action for action in actions if isinstance(action, Play)]
        action = rng.choice(plays or list(actions))
        services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=game.seq)
    raise AssertionError("no tile beyond the opening was laid")
