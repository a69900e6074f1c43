"""Block games: the computer's own later moves, searched over what it will see.

``hard`` values a candidate play in a block duel by playing the round on from
it in many consistent deals. The other seat lays the model's favourite tile
(``model.model_play``: what it would do with the hand the deal gives it). The
computer's own later moves must not depend on the deal (it will not see the
other hand), but they need not follow the model either: they are searched.

Every own decision point is keyed by what the computer will have seen when it
gets there: the other seat's replies since the candidate (its own hand and
the line follow from them). Each such point is an ``OwnNode`` whose moves keep
a (deal-weighted) mean outcome; a move is picked by UCB1 among them, so that
over the deals the tree learns the best move *for that information*, not for
one deal (information-set Monte Carlo tree search, one observer). One new
point is added per descent; beyond the tree the round is finished by
``model.rollout``, or (``Finish``: ``HardOptions.tree_playout``) by the fast
playout policy of ``sim.playout``, which costs a fifth of the model's rollout
with four seats.

The same holds with three or four seats where nothing can be drawn
(``HardOptions.block_tree``: a block game, or a draw game whose boneyard is
empty, pairs included): every other seat, partner included, replies by the
model, and a decision point is keyed by the replies of all of them since the
computer's last move (``reply_key``).

And in the draw game with a boneyard (``HardOptions.draw_tree``): a seat that cannot
play draws from the deal's boneyard until a tile fits and lays it. How many tiles each
other seat drew is public and part of its reply (``reply_key``'s ``drew``); the tiles the
computer draws are part of what it sees, so they are part of the key of its next decision
point (``draw_key``): over the deals, the tree's points after a draw are chance nodes,
one per set of tiles drawn.
"""
from __future__ import annotations

import math
from random import Random

from .model import model_move, model_play, rollout, with_void
from .sim import ENDS_MASK, NO_END, NUM, OTHER, Table, draw_until_fit, play_tile, playout, round_result

# Exploration constant of UCB1, for outcomes scaled to about [-1, 1] (the default of
# ``HardOptions.explore``).
EXPLORE = 0.6
PASS = -1
# ``draw_key``: the tiles the computer drew, one bit a tile, below the replies before them.
OWN_DRAW = 1 << 28


class Move:
    """One own move at a decision point: tile (``PASS`` for a pass) and end,
    with the statistics of the descents that took it."""

    __slots__ = ("on_left", "replies", "tile", "total", "visits", "weight")

    def __init__(self, tile: int, on_left: bool):
        self.tile = tile
        self.on_left = on_left
        self.visits = 0
        self.weight = 0.0
        self.total = 0.0
        # The other seats' replies (``reply_key``) -> the next own decision point.
        self.replies: dict[int, OwnNode] = {}


class OwnNode:
    """An own decision point: the moves open there, the model's favourite first."""

    __slots__ = ("moves", "visits")

    def __init__(self, moves: list[Move]):
        self.visits = 0
        self.moves = moves

    def select(self, explore: float = EXPLORE) -> Move:
        """UCB1 over the moves; moves never tried go first, in their order."""
        moves = self.moves
        if len(moves) == 1:
            return moves[0]
        best = moves[0]
        best_score = -math.inf
        log_n = math.log(self.visits + 1)
        for move in moves:
            if move.visits == 0:
                return move
            mean = move.total / move.weight if move.weight > 0 else 0.0
            score = mean + explore * math.sqrt(log_n / move.visits)
            if score > best_score:
                best, best_score = move, score
        return best


def own_moves(table: Table, me: int, hand: int, left: int, right: int, board: int, voids: tuple[int, ...]) -> list[Move]:
    """Every distinct way to lay a tile of ``hand`` on the ends (a pass when there is none),
    the model's favourite first."""
    fit = hand & ENDS_MASK[left * 8 + right]
    if not fit:
        return [Move(PASS, True)]
    moves = []
    m = fit
    while m:
        low = m & -m
        t = low.bit_length() - 1
        m ^= low
        if left == NO_END:
            moves.append(Move(t, True))
            continue
        x = OTHER[t * 7 + left]
        y = OTHER[t * 7 + right]
        if x >= 0:
            moves.append(Move(t, True))
        if y >= 0 and (left != right or x < 0):
            moves.append(Move(t, False))
    if len(moves) > 1:
        tile, on_left = model_play(table, me, hand, fit, left, right, board, voids)
        moves.sort(key=lambda mv: mv.tile != tile or mv.on_left != on_left)
    return moves


# Beyond the tree, the playouts of ``sim.playout`` instead of the model's rollout: (the
# decision's random numbers, the share of random moves, the policy, the deal's stream of
# numbers shared by its descents: common random numbers as in the playouts' search).
Finish = tuple[Random, float, tuple[list[int], int], list[float]]


def descend(
    table: Table,
    hands: list[int],
    left: int,
    right: int,
    board: int,
    me: int,
    voids: tuple[int, ...],
    replies: dict[int, OwnNode],
    path: list[tuple[OwnNode, Move]],
    explore: float = EXPLORE,
    track_voids: bool = True,
    finish: Finish | None = None,
    bone: list[int] | None = None,
) -> tuple[int, int, int, int]:
    """Play the round on from a position where the seat after the computer is to move: the
    other seats' replies by the model, the computer's moves through the tree under
    ``replies`` (adding one decision point), then ``model.rollout`` (or ``sim.playout`` with
    ``finish``). Returns (winning side, points, model work, playout turns); the (point, move)
    pairs taken are appended to ``path``. ``hands`` is consumed. Any block game: a decision
    point is keyed by the replies of all the other seats (partner included) since the
    computer's last move (``reply_key``). In the draw game, ``bone`` is the deal's boneyard
    (consumed, drawn from its end): the draws are keyed as the module says."""
    n = table.players
    nxt = me + 1 if me + 1 < n else 0
    passes = 0
    work = 0
    if bone is None:
        bone = []
    # The draw game with tiles to draw: keys carry the draws (a constant for the evaluation).
    drawing = table.draw and bool(bone)
    # A number whose seven tiles are all out ends a block game; in the draw game, once the
    # boneyard is empty (or with ``closed_board``).
    closed = not drawing or table.closed_board
    while True:
        key = 0
        seat = nxt
        while seat != me:
            h = hands[seat]
            fit = ENDS_MASK[left * 8 + right]
            m = h & fit
            drew = 0
            if not m and drawing and bone:
                h, drawn = draw_until_fit(h, bone, fit)
                hands[seat] = h
                m = drawn & fit
                drew = drawn.bit_count()
                closed = closed or not bone
            if m:
                passes = 0
                t, on_left, cost = model_move(table, seat, h, m, left, right, board, voids)
                work += cost
                h ^= 1 << t
                hands[seat] = h
                board |= 1 << t
                left, right = play_tile(left, right, t, on_left)
                if not h:
                    return (*round_result(table, hands, seat), work, 0)
                if closed and left == right and board & NUM[left] == NUM[left]:
                    return (*round_result(table, hands, -1), work, 0)
                reply = t * 2 + on_left
            else:
                passes += 1
                if passes >= n:
                    return (*round_result(table, hands, -1), work, 0)
                if track_voids:
                    voids = with_void(voids, seat, left, right)
                reply = PASS
            key = reply_key(key, reply, drew if drawing else None)
            seat = seat + 1 if seat + 1 < n else 0
        if drawing:
            drawn = 0
            if not hands[me] & ENDS_MASK[left * 8 + right] and bone:
                hands[me], drawn = draw_until_fit(hands[me], bone, ENDS_MASK[left * 8 + right])
                closed = closed or not bone
            key = draw_key(key, drawn)
        node = replies.get(key)
        fresh = node is None
        if node is None:
            node = OwnNode(own_moves(table, me, hands[me], left, right, board, voids))
            replies[key] = node
        move = node.select(explore)
        path.append((node, move))
        if move.tile == PASS:
            passes += 1
            if passes >= n:
                return (*round_result(table, hands, -1), work, 0)
            if track_voids:
                voids = with_void(voids, me, left, right)
        else:
            passes = 0
            h = hands[me] ^ 1 << move.tile
            hands[me] = h
            board |= 1 << move.tile
            left, right = play_tile(left, right, move.tile, move.on_left)
            if not h:
                return (*round_result(table, hands, me), work, 0)
            if closed and left == right and board & NUM[left] == NUM[left]:
                return (*round_result(table, hands, -1), work, 0)
        if fresh:
            if finish is not None:
                rng, eps, policy, stream = finish
                side, points, turns = playout(table, hands, bone, left, right, board, nxt, rng, eps, policy, stream)
                return side, points, work, turns
            side, points, more = rollout(table, hands, bone, left, right, board, nxt, voids, track_voids)
            return side, points, work + more, 0
        replies = move.replies


def reply_key(key: int, reply: int, drew: int | None = None) -> int:
    """``key`` followed by one more seat's reply (``tile * 2 + on_left`` or ``PASS``): the
    replies of the other seats in turn order, six bits each, so each sequence has its own key.
    In the draw game with a boneyard (``drew`` not None), ten bits each: the reply and how
    many tiles the seat drew before it (at most 14, four bits)."""
    if drew is None:
        return key * 64 + reply + 1
    return key * 1024 + drew * 64 + reply + 1


def draw_key(key: int, drawn: int) -> int:
    """``key`` (the replies since the computer's last move, ``reply_key``) followed by the
    tiles the computer drew at its turn (a mask of 28 bits, 0 when it drew none). With three
    other seats the key stays under 2**58: the compiled tree keeps it in 64 bits."""
    return key * OWN_DRAW + drawn


def backup(path: list[tuple[OwnNode, Move]], weight: float, reward: float) -> None:
    """Add one descent's outcome (``reward`` scaled to about [-1, 1], for the deal's ``weight``)."""
    for node, move in path:
        node.visits += 1
        move.visits += 1
        move.weight += weight
        move.total += weight * reward

