"""Legal actions, applying an action, and replaying a game.

The hot path of the server and of the computer players' simulations: kept
to bit operations on the state's fields and interned action objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import DRAWS, PASSES, PLAYS, Action, Draw, End, Pass, Play
from .deal import Seed
from .errors import IllegalAction
from .rules import Rules
from .state import DRAW, PASS, PLAY, State, blocked_winner, finish_round, make_state, new_game, next_round
from .tiles import HIGHS, LOWS, NUMBER_MASKS, TILES, Tile

__all__ = ["apply_action", "legal_actions", "play_tile", "replay"]

_RIGHT = End.RIGHT
# NEED[left * 7 + right]: the tiles that fit one end or the other
_NEED = tuple(NUMBER_MASKS[left] | NUMBER_MASKS[right] for left in range(7) for right in range(7))
_LEGAL_CACHE: dict[int, tuple[Action, ...]] = {}
_CACHE_LIMIT = 500_000


def legal_actions(state: State) -> tuple[Action, ...]:
    """The legal actions of the seat to move, in a stable order.

    Plays by tile (increasing), the left end before the right (a tile that fits
    both ends is offered on both); else Draw when the boneyard has tiles (draw
    game); else Pass. Empty when the round or game is over.
    """
    seat = state.to_move
    if seat is None:
        return ()
    hand = state.hand_bits[seat]
    left = state.left_end
    if left < 0:
        key = hand << 9 | 7 << 5 | seat  # opening: any tile, on the left (left code 7)
    else:
        right = state.right_end
        fit = hand & _NEED[left * 7 + right]
        if not fit:
            if state.rules.draw and state.drawn < len(state.pile):
                return (DRAWS[seat],)
            return (PASSES[seat],)
        key = fit << 9 | left << 5 | right << 2 | seat
    cached = _LEGAL_CACHE.get(key)
    if cached is None:
        cached = _compute_plays(seat, hand if left < 0 else fit, left, state.right_end)
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


def apply_action(state: State, action: Action) -> State:
    """The state after ``action``; the given state is unchanged.

    Raises IllegalAction (with a reason and a code) for anything not legal:
    out of turn, after the round, a tile not in hand or not matching its end,
    a draw or pass while a tile fits, a draw from an empty boneyard or in the
    block game, a pass while the boneyard has tiles.
    """
    seat = state.to_move
    if seat is None:
        if state.game_over:
            raise IllegalAction("the game is over", code="game_over")
        raise IllegalAction("the round is over", code="round_over")
    cls = action.__class__
    if cls is Play:
        if action.seat != seat:
            raise IllegalAction(f"it is seat {seat}'s turn, not seat {action.seat}'s", code="not_your_turn")
        tile = action.tile  # type: ignore[union-attr]
        return play_tile(state, seat, tile.index, action.end is _RIGHT)  # type: ignore[union-attr]
    if cls is Draw or cls is Pass:
        if action.seat != seat:
            raise IllegalAction(f"it is seat {seat}'s turn, not seat {action.seat}'s", code="not_your_turn")
        if cls is Draw:
            return _draw(state, seat)
        return _pass(state, seat)
    raise IllegalAction(f"not an action: {action!r}")


def play_tile(state: State, seat: int, index: int, on_right: bool) -> State:
    """Lay tile ``index`` from ``seat``'s hand (engine internal; checks the rules)."""
    (rules, seed, round_no, hands, pile, drawn, left, right, table, log, _to_move, opener, scores,
     _result, _round_over, _game_over, _winner, _reason, _resigned) = state  # fmt: skip
    bit = 1 << index
    hand = hands[seat]
    if not hand & bit:
        raise IllegalAction(f"{TILES[index]} is not in seat {seat}'s hand")
    low = LOWS[index]
    high = HIGHS[index]
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
    new_hands = list(hands)
    new_hands[seat] = hand
    hand_tuple = tuple(new_hands)
    table |= bit
    log = (seat, PLAY, index, 1 if on_right else 0, left, right, log)
    after = make_state(
        rules, seed, round_no, hand_tuple, pile, drawn, new_left, new_right, table, log,
        None, opener, scores, None, False, False, None, None, None,
    )  # fmt: skip
    if not hand:
        return finish_round(after, seat, False)  # domino!
    if new_left == new_right and rules.closed_board:
        mask = NUMBER_MASKS[new_left]
        if table & mask == mask:
            return finish_round(after, blocked_winner(rules, hand_tuple, opener), True)
    if not rules.draw or drawn == len(pile):
        need = _NEED[new_left * 7 + new_right]
        for bits in hand_tuple:
            if bits & need:
                break
        else:
            return finish_round(after, blocked_winner(rules, hand_tuple, opener), True)
    seat += 1
    if seat == rules.players:
        seat = 0
    return make_state(
        rules, seed, round_no, hand_tuple, pile, drawn, new_left, new_right, table, log,
        seat, opener, scores, None, False, False, None, None, None,
    )  # fmt: skip


def _draw(state: State, seat: int) -> State:
    (rules, seed, round_no, hands, pile, drawn, left, right, table, log, _to_move, opener, scores,
     _result, _round_over, _game_over, _winner, _reason, _resigned) = state  # fmt: skip
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
    new_hands = list(hands)
    new_hands[seat] = hand | 1 << index
    hand_tuple = tuple(new_hands)
    log = (seat, DRAW, index, -1, left, right, log)
    after = make_state(
        rules, seed, round_no, hand_tuple, pile, drawn, left, right, table, log,
        seat, opener, scores, None, False, False, None, None, None,
    )  # fmt: skip
    if drawn == len(pile):
        for bits in hand_tuple:
            if bits & need:
                return after
        return finish_round(after, blocked_winner(rules, hand_tuple, opener), True)
    return after


def _pass(state: State, seat: int) -> State:
    (rules, seed, round_no, hands, pile, drawn, left, right, table, log, _to_move, opener, scores,
     _result, _round_over, _game_over, _winner, _reason, _resigned) = state  # fmt: skip
    if left < 0:
        raise IllegalAction("the opener must lay a tile: no passing")
    if hands[seat] & _NEED[left * 7 + right]:
        raise IllegalAction("a tile of the hand fits: it must be played, no passing")
    if rules.draw and drawn < len(pile):
        raise IllegalAction("the boneyard has tiles: draw instead of passing")
    log = (seat, PASS, -1, -1, left, right, log)
    seat += 1
    if seat == rules.players:
        seat = 0
    # a pass changes no hand, end or boneyard: the round cannot become blocked here
    return make_state(
        rules, seed, round_no, hands, pile, drawn, left, right, table, log,
        seat, opener, scores, None, False, False, None, None, None,
    )  # fmt: skip


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
