"""Starting games and rounds: dealing, the automatic opening, and replays."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import PLAYS, Action
from .deal import Seed, check_seed, deal_hands, shuffled_order
from .errors import IllegalAction
from .moves import apply_action
from .rules import Rules
from .state import State
from .tiles import DOUBLES_MASK, HIGHS, PIPS, Tile

__all__ = ["new_game", "next_round", "opening_tile", "replay"]

_new_object = object.__new__
# starting scores by number of sides
_ZEROS: tuple[tuple[int, ...], ...] = ((), (), (0, 0), (0, 0, 0), (0, 0, 0, 0))


def new_game(
    rules: Rules,
    seed: Seed = 0,
    *,
    hands: Sequence[Sequence[Tile]] | None = None,
    boneyard: Sequence[Tile] | None = None,
) -> State:
    """Start a game: deal round 1 from ``seed`` (or use the explicit ``hands``).

    With ``hands`` (by seat), ``boneyard`` is the drawing order (``boneyard[0]``
    is drawn first); without it the remaining tiles form the boneyard in the
    seed's order. Tiles in neither are out of play. Later rounds are dealt from
    the seed. The first round's opening is played automatically: the highest
    double, else the heaviest tile (the higher number breaks equal weights).
    """
    check_seed(seed)
    if rules.__class__ is not Rules:
        raise TypeError("rules must be a Rules")
    if hands is None:
        if boneyard is not None:
            raise ValueError("an explicit boneyard needs explicit hands")
        hand_bits, pile = deal_hands(rules, seed, 1)
    else:
        hand_bits, pile = _explicit_deal(rules, seed, hands, boneyard)
    seat, index = opening_tile(hand_bits)
    start = _start_round(rules, seed, 1, hand_bits, pile, seat, _ZEROS[2 if rules.teams else rules.players])
    return apply_action(start, PLAYS[seat][index][0])


def _explicit_deal(
    rules: Rules, seed: Seed, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile] | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if len(hands) != rules.players:
        raise ValueError(f"{rules.players} hands expected, got {len(hands)}")
    seen = 0
    hand_bits = []
    for seat, hand in enumerate(hands):
        if not hand:
            raise ValueError(f"seat {seat}'s hand is empty")
        bits = 0
        for tile in hand:
            if not isinstance(tile, Tile):
                raise TypeError(f"hands hold Tile objects, got {tile!r}")
            bit = 1 << tile.index
            if seen & bit:
                raise ValueError(f"{tile} is dealt twice")
            seen |= bit
            bits |= bit
        hand_bits.append(bits)
    if boneyard is None:
        pile = tuple(i for i in shuffled_order(seed, 1, 0) if not seen >> i & 1)
    else:
        pile_list = []
        for tile in boneyard:
            if not isinstance(tile, Tile):
                raise TypeError(f"the boneyard holds Tile objects, got {tile!r}")
            bit = 1 << tile.index
            if seen & bit:
                raise ValueError(f"{tile} is dealt twice")
            seen |= bit
            pile_list.append(tile.index)
        pile = tuple(pile_list)
    return tuple(hand_bits), pile


def _start_round(
    rules: Rules,
    seed: Seed,
    round_no: int,
    hand_bits: tuple[int, ...],
    pile: tuple[int, ...],
    opener: int,
    scores: tuple[int, ...],
) -> State:
    state = _new_object(State)
    state._d = ((rules, seed, round_no, pile, opener, scores), hand_bits, 0, -1, -1, 0, None, opener, None)
    return state


def opening_tile(hand_bits: Sequence[int]) -> tuple[int, int]:
    """(seat, tile index) of the first round's automatic opening."""
    dealt = 0
    for bits in hand_bits:
        dealt |= bits
    doubles = dealt & DOUBLES_MASK
    if doubles:
        index = doubles.bit_length() - 1  # doubles are in increasing order of index
    else:
        index = max(
            (i for i in range(28) if dealt >> i & 1),
            key=lambda i: (PIPS[i], HIGHS[i]),
        )
    for seat, bits in enumerate(hand_bits):
        if bits >> index & 1:
            return seat, index
    raise AssertionError("the opening tile is in a hand")


def next_round(state: State) -> State:
    """Deal the next round from the game's seed (after a round, before the game ends).

    The opener is the seat after the previous opener ("next"), or the previous
    round's winner ("winner"; the seat after the previous opener when nobody
    won). The opener lays any tile of their choice on the left.
    """
    if not state.round_over:
        raise IllegalAction("the round is not over yet", code="illegal")
    if state.game_over:
        raise IllegalAction("the game is over", code="game_over")
    rules = state.rules
    result = state.round_result
    if rules.next_opener == "winner" and result is not None and result.winner is not None:
        opener = result.winner
    else:
        opener = (state.opener + 1) % rules.players
    round_no = state.round + 1
    hand_bits, pile = deal_hands(rules, state.seed, round_no)
    return _start_round(rules, state.seed, round_no, hand_bits, pile, opener, state.scores)


def replay(
    rules: Rules,
    seed: Seed,
    actions: Iterable[Action],
    *,
    hands: Sequence[Sequence[Tile]] | None = None,
    boneyard: Sequence[Tile] | None = None,
) -> State:
    """Replay a game from ``new_game`` through ``actions``.

    When a round is over (and the game is not) and another action follows,
    ``next_round`` is applied first. Raises IllegalAction on the first bad
    action, with its position in ``index``.
    """
    state = new_game(rules, seed, hands=hands, boneyard=boneyard)
    for position, action in enumerate(actions):
        if state.round_over and not state.game_over:
            state = next_round(state)
        try:
            state = apply_action(state, action)
        except IllegalAction as error:
            raise IllegalAction(error.reason, code=error.code, index=position) from None
    return state
