"""Replays of finished games: every step rebuilt from the seed and the move
log with the engine, all hands shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from accounts.hooks import replay_panels
from games.engine import Event, EventKind, Rules, State
from games.models import Game, Move, Table
from games.play import selectors
from games.play.modes import RANKED_MODES
from games.play.selectors import seat_names


@dataclass(frozen=True)
class Step:
    label: str
    seat: int | None
    state: State

    def to_dict(self) -> dict[str, Any]:
        state = self.state
        return {
            "label": self.label,
            "seat": self.seat,
            "round": state.round,
            "line": [list(pair) for _tile, pair in state.line],
            # Where the round's opening tile sits in the line (tiles laid on its left), so that
            # the replay lays the line out as the table does (games/js/line_layout.js).
            "opener": sum(1 for e in state.history if e.action == "play" and e.ends is not None and str(e.end) == "left"),
            "hands": [[tile.to_list() for tile in hand] for hand in state.hands],
            "to_move": state.to_move,
            "scores": list(state.scores),
            "boneyard": state.boneyard_count,
        }


def _tile_text(pair: list[int] | tuple[int, int]) -> str:
    return f"{pair[0]}-{pair[1]}"


def replay_steps(game: Game, names: list[str]) -> list[Step]:
    """The game's states, one per event, from the deal to the end (the
    engine replays the seed and the move log)."""
    steps = []
    for move, state in selectors.iter_states(game):
        if move is None:
            steps.append(Step(_opening_label(state, names), None, state))
        else:
            steps.append(Step(_label(state, move, names), move.seat, state))
    return steps


def _opening_label(state: State, names: list[str]) -> str:
    if state.line and state.history:
        return _("Round 1: %(name)s opens with %(tile)s.") % {
            "name": names[state.history[0].seat],
            "tile": _tile_text(list(state.line[0][1])),
        }
    return _("Round 1: the tiles are dealt.")


def _label(state: State, move: Move, names: list[str]) -> str:
    """What ``move`` did, in words; ``state`` is the state after it."""
    seat = move.seat
    name = names[seat] if seat is not None else ""
    event = Event.from_row(move.kind, move.seat, move.payload)
    if event.kind is EventKind.PLAY:
        assert event.tile is not None
        label = _("%(name)s plays %(tile)s %(end)s.") % {
            "name": name,
            "tile": _tile_text(event.tile),
            "end": _("on the left") if event.end == "left" else _("on the right"),
        }
    elif event.kind is EventKind.DRAW:
        assert event.tile is not None  # the site stores every drawn tile
        label = _("%(name)s draws %(tile)s.") % {"name": name, "tile": _tile_text(event.tile)}
    elif event.kind is EventKind.PASS:
        label = _("%(name)s passes.") % {"name": name}
    elif event.kind is EventKind.NEXT_ROUND:
        label = _("Round %(round)s: new deal.") % {"round": state.round}
    elif event.kind is EventKind.AGREE_DRAW:
        label = _("The players agree to a draw.")
    else:
        label = _("%(name)s resigns.") % {"name": name}
    if event.by == "server":
        label += " " + _("(the time ran out)")
    if state.round_over and state.round_result is not None and event.is_turn:
        label += " " + _round_summary(state, names)
    return label


def _round_summary(state: State, names: list[str]) -> str:
    result = state.round_result
    assert result is not None
    if result.winner is None:
        return _("The round is blocked: nobody scores.") if result.blocked else _("Nobody wins the round.")
    values = {"name": names[result.winner], "points": result.points}
    if result.blocked:
        return _("Blocked: %(name)s has the lightest hand and scores %(points)s.") % values
    return _("Domino! %(name)s scores %(points)s.") % values


def _may_view(request: HttpRequest, table: Table) -> bool:
    if table.public:
        return True
    user = request.user
    return user.is_authenticated and table.seats.filter(user=user).exists()


def replay(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    game = Game.objects.filter(table=table).first()
    if game is None or table.status != Table.Status.FINISHED or not _may_view(request, table):
        raise Http404(_("No finished game to replay here."))
    seats = list(table.seats.order_by("number"))
    names = list(seat_names(seats).values())
    steps = replay_steps(game, names)
    final = steps[-1].state
    rules = Rules.from_dict(game.rules)
    return render(
        request,
        "accounts/replay.html",
        {
            "table": table,
            "game": game,
            "rules": rules,
            "seats": list(zip(seats, names, strict=True)),
            "steps": steps,
            "steps_data": [step.to_dict() for step in steps],
            "mode_label": RANKED_MODES[table.mode].label if table.mode in RANKED_MODES else "",
            "final": final,
            "final_hands": [
                (names[i], seats[i].bot, [tile.to_list() for tile in hand]) for i, hand in enumerate(final.hands)
            ],
            "final_line": [list(pair) for _tile, pair in final.line],
            "tiles": [(a, b) for a in range(7) for b in range(a, 7)],
            "panels": [
                html for _receiver, html in replay_panels.send(None, request=request, table=table, game=game) if html
            ],
        },
    )
