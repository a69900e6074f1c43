"""Hints at the table: ``{"type": "hint"}`` answered with the hard level's
choice for the asking player's own view (docs/fair-play.md).

- Only in unranked games (``error`` ``not_allowed`` in ranked ones), only for
  a seated player whose turn it is.
- Computed from ``view_for(state, seat)`` alone, like a computer move: the
  answer cannot hold another seat's tile.
- Off the event loop (a small thread pool), with a bounded budget
  (``HINT_BUDGET_MS``, ``HINT_DEALS``) and a cooldown per player, across
  all their tables (``HINT_COOLDOWN_SECONDS``: ``error`` ``rate_limited``
  meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.coach import analysis, wording
from games.engine import Draw, Pass, PlayerView, action_to_json, view_for
from games.live.cache import cache
from games.models import Game
from games.play import services

logger = logging.getLogger(__name__)
_pool: ThreadPoolExecutor | None = None


def hint_budget_ms() -> float:
    return float(getattr(settings, "HINT_BUDGET_MS", 150))


def hint_deals() -> int:
    return int(getattr(settings, "HINT_DEALS", 200))


def hint_cooldown() -> float:
    return float(getattr(settings, "HINT_COOLDOWN_SECONDS", 3))


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=int(getattr(settings, "HINT_WORKERS", 2)), thread_name_prefix="hint")
    return _pool


def seat_view(*, game_id: int, seat: int) -> tuple[PlayerView, int]:
    """The asking seat's view and the game's event number, if a hint is
    allowed now; else a ``GameError`` (``not_allowed`` in ranked games)."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is not None and game.table.staked:
        raise services.NotAllowed(_("Hints are not available in ranked games or rooms."), reason="ranked")
    state = services.playing_state(game)  # the move's own check: the game exists and is being played
    assert game is not None  # else playing_state refused it
    if not 0 <= seat < state.rules.players:
        raise services.NotSeated(_("You have no seat at this table."))
    if state.to_move != seat:
        raise services.NotYourTurn(_("A hint is for your own turn."), reason="not_your_turn")
    return view_for(state, seat), game.seq


def why_text(view: PlayerView, found: analysis.Analysis) -> str:
    """Why the hard level plays this, in words (from the view's facts only)."""
    best = found.best
    if isinstance(best, Draw):
        return _("No tile of your hand fits either end: draw from the boneyard.")
    if isinstance(best, Pass):
        return _("No tile of your hand fits and nothing is left to draw: pass.")
    if found.forced:
        return _("It is the only move you can make.")
    # The figures come from the search that chose the move; the other move named is the
    # next one in that search's ranking (hard weighs a round won above its points).
    chosen = found.option_of(best)
    other = next(option for option in found.options if option is not chosen)
    return _(
        "Over %(deals)s possible deals of the tiles you cannot see, %(move)s wins the round in "
        "%(wins)s of them and gives your side %(points)s points on average by the end of the round; "
        "the next best move, %(other)s, wins %(other_wins)s with %(other_points)s points."
    ) % {
        "deals": found.deals,
        "move": wording.action_text(best),
        "wins": percent_text(chosen.wins if chosen else 0.0),
        "points": wording.points_text(chosen.points if chosen else 0.0),
        "other": wording.action_text(other.action),
        "other_wins": percent_text(other.wins),
        "other_points": wording.points_text(other.points),
    }


def percent_text(share: float) -> str:
    """A share of the deals as a percentage ("62 %")."""
    return f"{share * 100:.0f} %"


def compute_hint(view: PlayerView, seq: int) -> dict[str, Any]:
    """The ``hint`` frame for a view (pure: reads the view only)."""
    found = analysis.analyse(view, seed=_hint_seed(view, seq), budget_ms=hint_budget_ms(), deals=hint_deals())
    return {
        "type": "hint",
        "seq": seq,
        "action": action_to_json(found.best),
        "why": why_text(view, found),
        "options": [
            {"action": action_to_json(option.action), "points": option.points, "wins": option.wins}
            for option in found.options
        ],
    }


def _hint_seed(view: PlayerView, seq: int) -> int:
    # From public facts and the seat's own hand only (never the game's secret seed).
    from games.ai import view_seed

    return view_seed(view) ^ seq


def _cooldown_key(player: str) -> str:
    # Per player, not per table: more tables must not mean more search.
    return f"games:hint:{player}"


async def hint_reply(*, game_id: int, seat: int, player: str, language: str) -> dict[str, Any]:
    """The frame answering a ``hint`` request: a ``hint``, or an ``error``.
    ``player`` names the person (``games.play.limits.visitor_id``): one
    hint per cooldown for them, whatever the number of their tables."""
    with translation.override(language):
        try:
            view, seq = await database_sync_to_async(seat_view)(game_id=game_id, seat=seat)
        except services.GameError as error:
            return {"type": "error", "code": error.code, "message": error.message, "reason": error.reason}
        if not await cache.aadd(_cooldown_key(player), 1, timeout=hint_cooldown()):
            return {"type": "error", "code": "rate_limited", "message": _("One hint at a time: wait a moment.")}

    def run() -> dict[str, Any]:
        with translation.override(language):
            # ``cooldown``: seconds before the next hint is answered.
            return {**compute_hint(view, seq), "cooldown": hint_cooldown()}

    try:
        return await asyncio.get_running_loop().run_in_executor(_executor(), run)
    except Exception:  # a bug must not close the player's socket
        logger.exception("the hint at game %s for seat %s failed", game_id, seat)
        with translation.override(language):
            return {"type": "error", "code": "unavailable", "message": _("No hint is available right now.")}


def hint_for(*, game_id: int, seat: int) -> dict[str, Any]:
    """The same from sync code (tests, scripts): the frame, or ``GameError``."""
    view, seq = seat_view(game_id=game_id, seat=seat)
    return compute_hint(view, seq)
