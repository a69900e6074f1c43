"""Legal actions, applying an action, and replaying a game.

The hot path of the server and of the computer players' simulations: kept
to bit operations on the state's fields and interned action objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from .actions import DRAWS, PASSES, PLAYS, Action, Draw, End, Pass, Play
from .errors import IllegalAction
from .state import DRAW, PASS, PLAY, State, finish_round
from .tiles import HIGHS, LOWS, NUMBER_MASKS, TILES

__all__ = ["apply_action", "legal_actions"]


def _no_seat(hands: tuple[int, ...], hand: int) -> tuple[int, ...]:
    raise AssertionError("no such seat")


_RIGHT = End.RIGHT
_BITS = tuple(1 << i for i in range(28))
_new_object = object.__new__
# NEED[left * 7 + right]: the tiles that fit one end or the other
_NEED = tuple(NUMBER_MASKS[left] | NUMBER_MASKS[right] for left in range(7) for right in range(7))
Hands = tuple[int, ...]
# _WITH_HAND[players * 4 + seat](hands, hand): the hands with that seat's hand replaced
_WITH_HAND: tuple[Callable[[Hands, int], Hands], ...] = (
    *([_no_seat] * 8),
    lambda h, x: (x, h[1]),
    lambda h, x: (h[0], x),
    _no_seat,
    _no_seat,
    lambda h, x: (x, h[1], h[2]),
    lambda h, x: (h[0], x, h[2]),
    lambda h, x: (h[0], h[1], x),
    _no_seat,
    lambda h, x: (x, h[1], h[2], h[3]),
    lambda h, x: (h[0], x, h[2], h[3]),
    lambda h, x: (h[0], h[1], x, h[3]),
    lambda h, x: (h[0], h[1], h[2], x),
)
_LEGAL_CACHE: dict[int, tuple[Action, ...]] = {}
_CACHE_LIMIT = 500_000


def legal_actions(state: State) -> tuple[Action, ...]:
    """The legal actions of the seat to move, in a stable order.

    Plays by tile (increasing), the left end before the right (a tile that fits
    both ends is offered on both); else Draw when the boneyard has tiles (draw
    game); else Pass. Empty when the round or game is over.
    """
    data = state._d
    seat = data[7]
    if seat is None:
        return ()
    hand = data[1][seat]
    left = data[3]
    right = data[4]
    if left < 0:
        key = hand << 9 | 7 << 5 | seat  # opening: any tile, on the left (left code 7)
        bits = hand
    else:
        bits = hand & _NEED[left * 7 + right]
        if not bits:
            core = data[0]
            if core[0].draw and data[2] < len(core[3]):
                return (DRAWS[seat],)
            return (PASSES[seat],)
        key = bits << 9 | left << 5 | right << 2 | seat
    cached = _LEGAL_CACHE.get(key)
    if cached is None:
        cached = _compute_plays(seat, bits, left, right)
        if len(_LEGAL_CACHE) >= _CACHE_LIMIT:
            _LEGAL_CACHE.clear()
        _LEGAL_CACHE[key] = cached
    return cached


def _compute_plays(seat: int, bits: int, left: int, right: int) -> tuple[Action, ...]:
    plays = PLAYS[seat]
    out: list[Action] = []
    while bits:
        low_bit = bits & -bits
        index = low_bit.bit_length() - 1
        bits ^= low_bit
        if left < 0:
            out.append(plays[index][0])
            continue
        low, high = LOWS[index], HIGHS[index]
        if low == left or high == left:
            out.append(plays[index][0])
        if low == right or high == right:
            out.append(plays[index][1])
    return tuple(out)


def _refuse_finished(state: State) -> NoReturn:
    if state.game_over:
        raise IllegalAction("the game is over", code="game_over")
    raise IllegalAction("the round is over", code="round_over")


def apply_action(state: State, action: Action) -> State:
    """The state after ``action``; the given state is unchanged.

    Raises IllegalAction (with a reason and a code) for anything not legal:
    out of turn, after the round, a tile not in hand or not matching its end,
    a draw or pass while a tile fits, a draw from an empty boneyard or in the
    block game, a pass while the boneyard has tiles.
    """
    core, hands, drawn, left, right, table, log, seat, _ending = state._d
    if seat is None:
        _refuse_finished(state)
    cls = type(action)
    if cls is not Play:
        if cls is not Draw and cls is not Pass:
            raise IllegalAction(f"not an action: {action!r}")
        if action.seat != seat:
            raise IllegalAction(f"it is seat {seat}'s turn, not seat {action.seat}'s", code="not_your_turn")
        if cls is Draw:
            return _draw(state, seat)
        return _pass(state, seat)
    if action.seat != seat:
        raise IllegalAction(f"it is seat {seat}'s turn, not seat {action.seat}'s", code="not_your_turn")
    index = action.tile.index  # type: ignore[union-attr]
    bit = _BITS[index]
    hand = hands[seat]
    if not hand & bit:
        raise IllegalAction(f"{TILES[index]} is not in seat {seat}'s hand")
    low = LOWS[index]
    high = HIGHS[index]
    on_right = action.end is _RIGHT  # type: ignore[union-attr]
    if left < 0:
        if on_right:
            raise IllegalAction('the first tile of a round is laid on the "left" end')
        new_left, new_right = low, high
    elif on_right:
        new_left = left
        if low == right:
            new_right = high
        elif high == right:
            new_right = low
        else:
            raise IllegalAction(f"{TILES[index]} does not match the right end ({right})")
    else:
        new_right = right
        if low == left:
            new_left = high
        elif high == left:
            new_left = low
        else:
            raise IllegalAction(f"{TILES[index]} does not match the left end ({left})")
    hand ^= bit
    hands = _WITH_HAND[len(hands) * 4 + seat](hands, hand)
    table |= bit
    log = (seat, PLAY, index, 1 if on_right else 0, left, right, log)
    if not hand:  # domino!
        return finish_round(core, hands, drawn, new_left, new_right, table, log, seat)
    rules = core[0]
    if new_left == new_right and rules.closed_board:
        mask = NUMBER_MASKS[new_left]
        if table & mask == mask:
            return finish_round(core, hands, drawn, new_left, new_right, table, log, None)
    if drawn == len(core[3]) or not rules.draw:
        need = _NEED[new_left * 7 + new_right]
        for bits in hands:
            if bits & need:
                break
        else:
            return finish_round(core, hands, drawn, new_left, new_right, table, log, None)
    seat += 1
    if seat == rules.players:
        seat = 0
    state = _new_object(State)
    state._d = (core, hands, drawn, new_left, new_right, table, log, seat, None)
    return state


def _draw(state: State, seat: int) -> State:
    core, hands, drawn, left, right, table, log, _to_move, _ending = state._d
    rules = core[0]
    pile = core[3]
    if not rules.draw:
        raise IllegalAction("there is no drawing in the block game")
    if drawn >= len(pile):
        raise IllegalAction("the boneyard is empty")
    hand = hands[seat]
    if left < 0:
        raise IllegalAction("the opener may lay any tile: no drawing")
    need = _NEED[left * 7 + right]
    if hand & need:
        raise IllegalAction("a tile of the hand fits: it must be played, no drawing")
    index = pile[drawn]
    drawn += 1
    hands = _WITH_HAND[len(hands) * 4 + seat](hands, hand | _BITS[index])
    log = (seat, DRAW, index, -1, left, right, log)
    if drawn == len(pile):
        for bits in hands:
            if bits & need:
                break
        else:
            return finish_round(core, hands, drawn, left, right, table, log, None)
    state = _new_object(State)
    state._d = (core, hands, drawn, left, right, table, log, seat, None)
    return state


def _pass(state: State, seat: int) -> State:
    core, hands, drawn, left, right, table, log, _to_move, _ending = state._d
    rules = core[0]
    if left < 0:
        raise IllegalAction("the opener must lay a tile: no passing")
    if hands[seat] & _NEED[left * 7 + right]:
        raise IllegalAction("a tile of the hand fits: it must be played, no passing")
    if rules.draw and drawn < len(core[3]):
        raise IllegalAction("the boneyard has tiles: draw instead of passing")
    log = (seat, PASS, -1, -1, left, right, log)
    seat += 1
    if seat == rules.players:
        seat = 0
    # a pass changes no hand, end or boneyard: the round cannot become blocked here
    state = _new_object(State)
    state._d = (core, hands, drawn, left, right, table, log, seat, None)
    return state
