"""How a finished game counts (docs/members.md, "Games that count").

A game resigned or agreed drawn before any tile beyond the opening (in its
first round, with at most the opening tile on the line) was not played: it
is an *abort*. Nothing is rated, no experience is given and the stakes of a
room table return, whatever the receiver of ``games.signals.game_finished``
(the ratings, the room settlement): each reads ``Game.result["aborted"]``,
written here once, when the game ends.

Experience counts the rounds played to their end (a domino or a block), not
the games nor the points of the game's length: the round in progress when
the game ends by resignation or agreement does not count (one that had
just ended, before the next deal, does).

Plain functions of the engine's state.
"""

from __future__ import annotations

from games.engine import State

# The game-level endings that are not decided by play.
BY_AGREEMENT = ("resigned", "agreed_draw")


def ended_at_opening(state: State) -> bool:
    """The game ended by resignation or agreement before any tile beyond the
    opening was laid: an abort."""
    return (
        state.game_over
        and state.end_reason in BY_AGREEMENT
        and state.round == 1
        and state.round_result is None
        and state.table_bits.bit_count() <= 1
    )


def rounds_played(state: State) -> int:
    """The rounds of a finished game that were played to their end."""
    if not state.game_over:
        raise ValueError("the game is not over")
    if state.end_reason in BY_AGREEMENT and state.round_result is None:
        return state.round - 1  # ended during a round: that round does not count
    return state.round
