"""The own-move search tree of hard's block duels (``games.ai.tree``)."""
from __future__ import annotations

from dataclasses import replace
from random import Random

from games.ai.knowledge import public_voids, read_view, tile_index
from games.ai.model import model_play, with_void
from games.ai.sim import ENDS_MASK, INDEX, NUM, Table, play_tile, round_result
from games.ai.tree import OWN_DRAW, PASS, OwnNode, backup, descend, draw_key, own_moves, reply_key
from games.engine import PRESETS, apply_action, new_game, view_for

DUEL = replace(PRESETS["duel-block"], target=0)


def _win(me: int, side: int) -> float:
    return 0.0 if side < 0 else (1.0 if side == me else -1.0)


def _best_response(table: Table, hands: list[int], left: int, right: int, board: int, seat: int, me: int,
                   voids: tuple[int, ...], passes: int = 0) -> float:
    """Exact value (+1 win, -1 loss, 0 no winner) for ``me`` seeing both hands, the other seat
    laying the model's tile: the most any own strategy can get in this deal."""
    if passes >= 2:
        return _win(me, round_result(table, hands, -1)[0])
    hand = hands[seat]
    fit = hand & ENDS_MASK[left * 8 + right]
    if not fit:
        return _best_response(table, hands, left, right, board, 1 - seat, me, voids, passes + 1)
    if seat == me:
        plays = [(m.tile, m.on_left) for m in own_moves(table, me, hand, left, right, board, voids)]
    else:
        plays = [model_play(table, seat, hand, fit, left, right, board, voids)]
    values = []
    for tile, on_left in plays:
        hs = hands[:]
        hs[seat] ^= 1 << tile
        new_board = board | 1 << tile
        new_left, new_right = play_tile(left, right, tile, on_left)
        if not hs[seat]:
            values.append(_win(me, round_result(table, hs, seat)[0]))
        elif new_left == new_right and new_board & NUM[new_left] == NUM[new_left]:
            values.append(_win(me, round_result(table, hs, -1)[0]))
        else:
            values.append(_best_response(table, hs, new_left, new_right, new_board, 1 - seat, me, voids))
    return max(values) if seat == me else values[0]


def _positions(count: int):
    """Positions of real duel-block games where seat 0 has just played and seat 1 is to move."""
    rng = Random(5)
    found = 0
    deal = 0
    while found < count:
        state = new_game(DUEL, seed=f"tree-{deal}")
        deal += 1
        while not state.round_over:
            view = view_for(state, state.to_move)
            state = apply_action(state, view.legal[rng.randrange(len(view.legal))])
            if not state.round_over and state.to_move == 1 and len(state.hands[0]) >= 3:
                found += 1
                yield state
                break


def test_own_moves_lists_each_distinct_play_once_with_the_model_favourite_first():
    table = Table(2, False, True, "nobody", False, "all_others", 0)
    hand = sum(1 << tile_index(x) for x in [(3, 3), (3, 5), (5, 6), (0, 1)])
    moves = own_moves(table, 0, hand, 3, 5, 0, (0, 0))
    # 3-3 on the 3; 3-5 on either end (two different lines); 5-6 on the 5; 0-1 fits nothing.
    assert sorted((m.tile, m.on_left) for m in moves) == sorted(
        [(tile_index((3, 3)), True), (tile_index((3, 5)), True), (tile_index((3, 5)), False),
         (tile_index((5, 6)), False)])
    fit = hand & ENDS_MASK[3 * 8 + 5]
    assert (moves[0].tile, moves[0].on_left) == model_play(table, 0, hand, fit, 3, 5, 0, (0, 0))
    nothing = own_moves(table, 0, 1 << tile_index((0, 1)), 3, 5, 0, (0, 0))
    assert [(m.tile) for m in nothing] == [PASS]


def test_on_one_known_deal_the_tree_finds_the_best_response_to_the_model():
    """Descents over the same deal: the tree's most visited first move reaches the value of
    the best own strategy against the model's replies, found by exhaustive search."""
    improved = 0
    for state in _positions(25):
        know = read_view(view_for(state, 1))
        voids = public_voids(know)
        hands = [sum(1 << tile_index(x) for x in h) for h in state.hands]
        table = know.table
        best = _best_response(table, hands, know.left, know.right, know.board, 1, 0, voids)
        replies: dict[int, OwnNode] = {}
        for _ in range(3000):
            path: list = []
            side, _points, _work, _turns = descend(table, hands[:], know.left, know.right, know.board, 0, voids,
                                           replies, path)
            backup(path, 1.0, _win(0, side))
        (node,) = replies.values()  # the model's reply is fixed by the deal
        top = max(node.moves, key=lambda m: m.visits)
        assert top.total / top.weight > best - 0.05, state
        first = node.moves[0]  # the model's own favourite
        improved += top is not first and first.total / max(first.weight, 1e-9) < best - 0.5
    assert improved > 0  # somewhere the tree beat following the model


PAIRS = replace(PRESETS["arena"], players=4, teams=True, target=0)


def _best_response_crowd(table: Table, hands: list[int], left: int, right: int, board: int, seat: int, me: int,
                         voids: tuple[int, ...], passes: int = 0) -> float:
    """``_best_response`` with any number of seats (every other seat, partner included, laying
    the model's tile; passes adding to the voids the model reads, as ``descend`` does)."""
    n = table.players
    if passes >= n:
        return _win(table.side(me), round_result(table, hands, -1)[0])
    hand = hands[seat]
    fit = hand & ENDS_MASK[left * 8 + right]
    nxt = (seat + 1) % n
    if not fit:
        return _best_response_crowd(table, hands, left, right, board, nxt, me, with_void(voids, seat, left, right),
                                    passes + 1)
    if seat == me:
        plays = [(m.tile, m.on_left) for m in own_moves(table, me, hand, left, right, board, voids)]
    else:
        plays = [model_play(table, seat, hand, fit, left, right, board, voids)]
    values = []
    for tile, on_left in plays:
        hs = hands[:]
        hs[seat] ^= 1 << tile
        new_board = board | 1 << tile
        new_left, new_right = play_tile(left, right, tile, on_left)
        if not hs[seat]:
            values.append(_win(table.side(me), round_result(table, hs, seat)[0]))
        elif new_left == new_right and new_board & NUM[new_left] == NUM[new_left]:
            values.append(_win(table.side(me), round_result(table, hs, -1)[0]))
        else:
            values.append(_best_response_crowd(table, hs, new_left, new_right, new_board, nxt, me, voids))
    return max(values) if seat == me else values[0]


def test_in_pairs_the_tree_finds_the_best_response_to_the_model_of_the_three_other_seats():
    """Four seats in pairs, one known deal: the partner and both opponents reply by the model,
    the tree keys the computer's decision points by the three replies since its last move,
    and its most visited first move reaches the value of the best own strategy."""
    rng = Random(7)
    checked = 0
    improved = 0
    deal = 0
    while checked < 20:
        state = new_game(PAIRS, seed=f"tree-pairs-{deal}")
        deal += 1
        while not state.round_over:
            view = view_for(state, state.to_move)
            state = apply_action(state, view.legal[rng.randrange(len(view.legal))])
            if not state.round_over and state.to_move == 1 and 3 <= len(state.hands[0]) <= 5:
                break
        if state.round_over:
            continue
        know = read_view(view_for(state, 1))
        voids = public_voids(know)
        hands = [sum(1 << tile_index(x) for x in h) for h in state.hands]
        table = know.table
        best = _best_response_crowd(table, hands, know.left, know.right, know.board, 1, 0, voids)
        replies: dict[int, OwnNode] = {}
        for _ in range(2000):
            path: list = []
            side, _points, _work, _turns = descend(table, hands[:], know.left, know.right, know.board, 0, voids,
                                           replies, path)
            backup(path, 1.0, _win(table.side(0), side))
        if not replies:
            continue  # the round ends before the computer moves again
        (node,) = replies.values()  # the three replies are fixed by the deal
        top = max(node.moves, key=lambda m: m.visits)
        assert top.total / top.weight > best - 0.05, state
        first = node.moves[0]
        improved += top is not first and first.total / max(first.weight, 1e-9) < best - 0.5
        checked += 1
    assert improved > 0


def test_reply_keys_tell_apart_every_sequence_of_replies():
    seen = {}
    replies = [PASS, *range(56)]
    for a in replies:
        for b in replies:
            for c in replies[::5]:
                key = reply_key(reply_key(reply_key(0, a), b), c)
                assert key not in seen, (a, b, c, seen.get(key))
                seen[key] = (a, b, c)


def test_reply_keys_with_draws_tell_apart_every_sequence_and_fit_in_64_bits():
    """The draw game: each other seat's reply with the tiles it drew (0 to 14), then the tiles
    the computer drew; three other seats' worst case stays under 2**63 (the compiled tree's keys)."""
    seen = {}
    replies = [PASS, *range(0, 56, 3)]
    for a in replies:
        for da in (0, 1, 14):
            for b in replies[::2]:
                for db in (0, 2, 13):
                    for drawn in (0, 1 << 3, (1 << 3) | (1 << 27)):
                        key = draw_key(reply_key(reply_key(0, a, da), b, db), drawn)
                        assert key not in seen, (a, da, b, db, drawn, seen.get(key))
                        seen[key] = (a, da, b, db, drawn)
    worst = draw_key(reply_key(reply_key(reply_key(0, 55, 14), 55, 14), 55, 14), OWN_DRAW - 1)
    assert worst < 2**63


DRAW_DUEL = Table(players=2, draw=True, closed_board=False, blocked_tie="opener", teams=False,
                  team_scoring="all_others", opener=0)


def _tiles(*pairs: tuple[int, int]) -> list[int]:
    return [INDEX[a][b] for a, b in pairs]


def _mask(*pairs: tuple[int, int]) -> int:
    return sum(1 << t for t in _tiles(*pairs))


def test_in_the_draw_game_the_computers_own_draws_are_chance_nodes_of_its_tree():
    """The computer (seat 0) has just laid [6|6]; the other seat lays [5|6], and the computer,
    holding nothing with a 5 or a 6, draws until [0|5] comes. What it drew is what it sees:
    each set of tiles drawn is its own decision point, the same set the same point, and there
    the only move is the tile drawn."""
    hands0 = [_mask((0, 0), (0, 1)), _mask((5, 6), (1, 1), (2, 3))]
    left = right = 6
    board = _mask((6, 6))
    voids = (0, 0)
    tree: dict[int, OwnNode] = {}
    orders = {
        "first tile fits": _tiles((2, 2), (4, 4), (0, 5)),
        "one miss first": _tiles((2, 2), (0, 5), (4, 4)),
    }
    nodes = {}
    for name, bone in [*orders.items(), ("first tile fits again", orders["first tile fits"])]:
        path: list = []
        descend(DRAW_DUEL, hands0[:], left, right, board, 0, voids, tree, path, bone=bone[:])
        backup(path, 1.0, 0.0)
        nodes[name] = path[0][0]
        assert [move.tile for move in nodes[name].moves] == _tiles((0, 5)), name
    assert len(tree) == 2
    assert nodes["first tile fits again"] is nodes["first tile fits"]
    assert nodes["one miss first"] is not nodes["first tile fits"]
    assert nodes["first tile fits"].visits == 2
    assert nodes["one miss first"].visits == 1
    # Keyed by the other seat's reply and the tiles drawn: [0|5] alone, then [4|4] and [0|5].
    reply = next(r for r in (INDEX[5][6] * 2, INDEX[5][6] * 2 + 1)
                 if draw_key(reply_key(0, r, 0), _mask((0, 5))) in tree)
    assert tree[draw_key(reply_key(0, reply, 0), _mask((0, 5)))] is nodes["first tile fits"]
    assert tree[draw_key(reply_key(0, reply, 0), _mask((0, 5), (4, 4)))] is nodes["one miss first"]
