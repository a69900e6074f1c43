"""The ceiling of any player against medium in duel-block (players that cheat), and how
the levels fare against players of other kinds.

Run from the repository root: ``.venv/bin/python bench/ai_ceiling.py``.

Duel-block (2 players, block game, 7 tiles each, 14 set aside) is a game of
luck as much as of skill: with a bad deal nobody wins. To know how far an
honest player (one that sees only its own hand) can get against medium, this
script measures two players that see everything:

- ``oracle``: sees the other hand and plays perfect-information minimax
  (``games.ai.solver.Solver``, exact, for the win: +1 / 0 / -1; ties go to
  medium's favourite). It assumes the opponent plays perfectly too.
- ``exploit``: sees the other hand *and* knows the opponent is medium (whose
  choices are deterministic): it searches its own moves against medium's actual
  replies, so it wins every deal that can be won against medium at all. No
  player can do better against medium.

and, for comparison, the honest levels (``hard``, ``medium``, ``easy``) and ``heavy``,
the simplest program outside the project one meets: it lays its heaviest tile that fits
(a double first among equals), on the first end it fits; and ``light``, its opposite (the
lightest tile first), a player whose plays say the reverse of what the usual tips suggest.
``pimc`` is hard's general path played in the block duel (``HardPlayer(duel_search=False)``:
perfect-information Monte Carlo over consistent deals, playouts, a pips-only reading of
the other seat's plays, exact endgames), the usual design of a strong dominoes program.
Two more follow what open-source dominoes programs commonly do: ``frequent`` lays the
tile that shares a number with the most tiles of its hand (ties at random), and ``mcts``
is the naive search: a few deals of the unseen tiles that respect the counts only (no
reading of passes or plays), a UCT search over each with random rollouts, the play with
the best summed win rate.
``--set name=value`` (repeatable; fields of ``games.ai.HardOptions``, as in
``bench/ai_regret.py``) adds ``hard+``, hard with those options, as a player: with
``--players hard hard+`` both play the same deals and the paired change of net wins
(rounds won minus lost) per deal is printed with its 95 % interval. ``--per-deal FILE``
appends every row's games per deal to a file, and ``--pool FILE`` pools the runs kept
there (runs over successive ranges of deals, ``--first``, measured one after another).
With ``--against`` any honest player can be the opponent, to see how each reads a player
that is not medium; with ``--setup pairs`` the same in four-player pairs, with
``classic-block`` three players alone and ``quick`` four alone (one seat A, the others
B: A wins a round when its seat does; the cheating players are for duel-block only).
Duplicate deals as in ``bench/ai.py`` (each deal played again under every seating,
same seeds ``bench-<n>``), so the rows are paired with its numbers.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from dataclasses import replace
from functools import cache
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import ai as bench_ai  # noqa: E402
from bench.ai import SETUPS, seatings, wilson  # noqa: E402
from bench.ai_regret import options_with  # noqa: E402
from games.ai import HardPlayer, choose_action  # noqa: E402
from games.ai.base import Candidate, candidates  # noqa: E402
from games.ai.knowledge import Knowledge, read_view, tile_index  # noqa: E402
from games.ai.medium import score_play  # noqa: E402
from games.ai.sim import (  # noqa: E402
    ALL_TILES,
    ENDS_MASK,
    NO_END,
    NO_WINNER,
    NUM,
    OTHER,
    Table,
    bits,
    play_tile,
    round_result,
)
from games.ai.solver import Solver  # noqa: E402
from games.engine import Play, Rules, State, apply_action, rules_for, view_for  # noqa: E402

PLAYERS = ("oracle", "exploit", "hard", "hard+", "medium", "easy", "heavy", "light", "frequent", "mcts", "pimc")
CHEATS = ("oracle", "exploit")
# The naive search: deals of the unseen tiles, UCT iterations on each, exploration constant.
MCTS_DEALS = 10
MCTS_ITERATIONS = 1000
MCTS_EXPLORE = 1.4


def _choice(state: State, seat: int) -> tuple[Any, Knowledge | None, list[Candidate]]:
    """(None, what the seat knows, its distinct plays) when it has a real choice; else
    (the only sensible action, None, [])."""
    view = view_for(state, seat)
    legal = list(view.legal)
    if len(legal) == 1:
        return legal[0], None, []
    know = read_view(view)
    cands = candidates(legal, know)
    if len(cands) <= 1:
        return (cands[0].action if cands else legal[0]), None, []
    return None, know, cands


def oracle(state: State, seat: int) -> Any:
    """Perfect-information minimax for the win (sees every hand)."""
    forced, know, cands = _choice(state, seat)
    if know is None:
        return forced
    hands = [sum(1 << tile_index(t) for t in h) for h in state.hands]
    me_side = know.table.side(seat)

    def utility(side: int, points: int) -> float:
        return 0.0 if side == NO_WINNER else (1.0 if side == me_side else -1.0)

    solver = Solver(know.table, me_side, utility, 10**9)
    values = solver.values(hands, (), know, cands)
    best = max(range(len(cands)), key=lambda k: (values[k], score_play(know, cands[k])))
    return cands[best].action


def exploit(state: State, seat: int) -> Any:
    """Best response to medium with every hand seen: search own moves against medium's replies."""
    legal = list(view_for(state, seat).legal)
    if len(legal) == 1:
        return legal[0]

    @cache
    def value(s: State) -> float:
        if s.round_over:
            r = s.round_result
            assert r is not None
            return 0.0 if r.winner is None else (1.0 if r.winner == seat else -1.0)
        v = view_for(s, s.to_move)
        if s.to_move != seat:
            return value(apply_action(s, choose_action(v, "medium", seed=0)))
        return max(value(apply_action(s, a)) for a in v.legal)

    scored = [(value(apply_action(state, a)), -k) for k, a in enumerate(legal)]
    return legal[-max(scored)[1]]


def greedy(state: State, seat: int, sign: int) -> Any:
    """The heaviest (``sign`` 1) or lightest (-1) tile that fits, a double first among equals."""
    legal = list(view_for(state, seat).legal)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return legal[0]
    return max(plays, key=lambda a: (sign * a.tile.pips, a.tile.is_double))


def frequent(state: State, seat: int, seed: int) -> Any:
    """The tile sharing a number with the most tiles of the hand (itself included), ties at random."""
    view = view_for(state, seat)
    plays = [a for a in view.legal if isinstance(a, Play)]
    if not plays:
        return view.legal[0]

    def links(action: Any) -> int:
        a, b = action.tile.low, action.tile.high
        return sum(1 for t in view.hand if a in (t.low, t.high) or b in (t.low, t.high))

    most = max(links(a) for a in plays)
    return Random(seed).choice([a for a in plays if links(a) == most])


# A position of the naive search: hands, left end, right end, tiles on the table, seat to move,
# passes in a row. A move: (tile, new left end, new right end), or PASS_MOVE.
Position = tuple[tuple[int, ...], int, int, int, int, int]
PASS_MOVE = (-1, -1, -1)


def _moves(hand: int, left: int, right: int) -> list[tuple[int, int, int]]:
    """The distinct plays of ``hand`` on the ends (a pass when none fits)."""
    if left == NO_END:
        return [(t, *play_tile(left, right, t, True)) for t in bits(hand)]
    out: list[tuple[int, int, int]] = []
    for t in bits(hand & ENDS_MASK[left * 8 + right]):
        for on_left in (True, False):
            if not on_left and left == right:
                break
            if OTHER[t * 7 + (left if on_left else right)] >= 0:
                out.append((t, *play_tile(left, right, t, on_left)))
    return out or [PASS_MOVE]


def _step(table: Table, pos: Position, move: tuple[int, int, int]) -> tuple[Position, int | None]:
    """The position after ``move``, and the winning side once the round is over (NO_WINNER
    for a tie), else None."""
    hands, left, right, board, seat, passes = pos
    nxt = (seat + 1) % table.players
    t, new_left, new_right = move
    if t < 0:
        if passes + 1 >= table.players:
            return pos, round_result(table, list(hands), -1)[0]
        return (hands, left, right, board, nxt, passes + 1), None
    hs = list(hands)
    hs[seat] ^= 1 << t
    board |= 1 << t
    if not hs[seat]:
        return pos, round_result(table, hs, seat)[0]
    if new_left == new_right and board & NUM[new_left] == NUM[new_left]:
        return pos, round_result(table, hs, -1)[0]
    return (tuple(hs), new_left, new_right, board, nxt, 0), None


def _uct(table: Table, start: Position, rng: Random, iterations: int) -> dict[tuple[int, int, int], float]:
    """UCT over one fully known deal with random rollouts: the win rate of each first move."""
    nodes: dict[Position, tuple[list[tuple[int, int, int]], list[int], list[float]]] = {}
    for _ in range(iterations):
        pos, path, over = start, [], None
        while over is None:
            node = nodes.get(pos)
            fresh = node is None
            if node is None:
                moves = _moves(pos[0][pos[4]], pos[1], pos[2])
                node = (moves, [0] * len(moves), [0.0] * len(moves))
                nodes[pos] = node
            moves, visits, wins = node
            total = sum(visits)
            untried = [k for k, v in enumerate(visits) if v == 0]
            if untried:
                k = rng.choice(untried)
            else:
                k = max(range(len(moves)), key=lambda i: wins[i] / visits[i]
                        + MCTS_EXPLORE * math.sqrt(math.log(total) / visits[i]))
            path.append((node, k, table.side(pos[4])))
            pos, over = _step(table, pos, moves[k])
            if fresh:
                break
        while over is None:
            pos, over = _step(table, pos, rng.choice(_moves(pos[0][pos[4]], pos[1], pos[2])))
        for (_, visits, wins), k, side in path:
            visits[k] += 1
            wins[k] += 0.5 if over == NO_WINNER else float(over == side)
    moves, visits, wins = nodes[start]
    return {m: wins[k] / visits[k] for k, m in enumerate(moves) if visits[k]}


def mcts(state: State, seat: int, seed: int) -> Any:
    """The naive determinized search (see the module docstring)."""
    forced, know, cands = _choice(state, seat)
    if know is None:
        return forced
    rng = Random(seed)
    unseen = bits(ALL_TILES & ~know.hand & ~know.board)
    summed = [0.0] * len(cands)
    for _ in range(MCTS_DEALS):
        rng.shuffle(unseen)
        hands, taken = [], 0
        for s, count in enumerate(know.counts):
            if s == seat:
                hands.append(know.hand)
                continue
            hands.append(sum(1 << t for t in unseen[taken:taken + count]))
            taken += count
        start = (tuple(hands), know.left, know.right, know.board, seat, 0)
        rates = _uct(know.table, start, rng, MCTS_ITERATIONS)
        for k, c in enumerate(cands):
            if know.left == NO_END:
                summed[k] += rates.get((c.tile, c.left, c.right), 0.0)
            else:
                summed[k] += max(rates.get((c.tile, c.left, c.right), 0.0), rates.get((c.tile, c.right, c.left), 0.0))
    return cands[max(range(len(cands)), key=lambda k: summed[k])].action


def pimc(state: State, seat: int, seed: int, budget: float | None) -> Any:
    """Hard without its block-duel search (see the module docstring); seeded as ``choose_action``."""
    return HardPlayer(budget, duel_search=False).choose(view_for(state, seat), Random(seed))


def hard_plus(level: str) -> tuple[str, ...]:
    """The ``--set`` items carried in a player's name: ``hard+|name=value|...``."""
    return tuple(level.split("|")[1:]) if level.startswith("hard+") else ()


def act(level: str, state: State, seat: int, seed: int, budget: float | None) -> Any:
    if level.startswith("hard+"):
        options = options_with(list(hard_plus(level)))
        if budget is not None:
            options = replace(options, budget_ms=budget)
        return HardPlayer(options=options).choose(view_for(state, seat), Random(seed))
    if level == "oracle":
        return oracle(state, seat)
    if level == "exploit":
        return exploit(state, seat)
    if level == "pimc":
        return pimc(state, seat, seed, budget)
    if level in ("heavy", "light"):
        return greedy(state, seat, 1 if level == "heavy" else -1)
    if level == "frequent":
        return frequent(state, seat, seed)
    if level == "mcts":
        return mcts(state, seat, seed)
    return choose_action(view_for(state, seat), level, seed=seed, budget_ms=budget)


def play_deal(job: tuple[Rules, str, str, int, float | None]) -> list[tuple[int, int, int]]:
    """One deal under every seating, as in ``bench/ai.py``, the players reading the whole state."""
    return bench_ai.play_deal(job, act)


# Setups measured here beyond ``bench/ai.py``'s (label, preset, players, pairs).
MORE_SETUPS = [("classic-draw-3 (three players alone)", "classic-draw", 3, False)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals (each played twice, seats swapped)")
    parser.add_argument("--first", type=int, default=0, help="first deal number (default 0)")
    parser.add_argument("--players", nargs="*", default=["oracle", "exploit"], choices=PLAYERS,
                        help="players to measure against --against (default: oracle exploit)")
    parser.add_argument("--against", default="medium", choices=[p for p in PLAYERS if p not in CHEATS],
                        help="opponent (default medium)")
    parser.add_argument("--budget-ms", type=float, default=None, help="hard's budget (default: its own)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--setup", default="duel-block",
                        choices=("duel-block", "pairs", "classic-draw", "classic-draw-3", "classic-block", "quick"),
                        help="duel-block (default), pairs (arena, four players in two pairs), classic-draw "
                             "(the draw game, two players), classic-draw-3 (the draw game, three players alone), "
                             "classic-block (three players alone) or quick (four alone, a draw game)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of hard+ (a HardOptions field; repeatable)")
    parser.add_argument("--per-deal", type=Path, default=None, metavar="FILE",
                        help="append each row's games per deal to FILE (JSON lines), to pool runs")
    parser.add_argument("--pool", type=Path, default=None, metavar="FILE",
                        help="play nothing: pool the runs of a --per-deal FILE (each row over all its deals, "
                             "the paired change of each row against the first on the deals they share)")
    args = parser.parse_args(argv)
    if args.pool is not None:
        pool_runs(args.pool)
        return 0
    options_with(args.set)  # fails early on a wrong name
    if "hard+" in args.players and not args.set:
        parser.error("hard+ is hard with the --set options: give at least one")
    if "exploit" in args.players and args.against != "medium":
        parser.error("exploit plays against medium's replies: use it with --against medium")
    if args.setup != "duel-block" and set(args.players) & set(CHEATS):
        parser.error("oracle and exploit are for duel-block only")
    label, preset, players, teams = next(s for s in [*SETUPS, *MORE_SETUPS] if s[0].startswith(args.setup))
    rules = replace(rules_for(preset, players=players, teams=teams), target=0)
    rounds = len(seatings(rules)) * args.deals
    print(f"{label}, {args.deals} duplicate deals (bench-{args.first}..), {rounds} rounds per row")
    if args.set:
        print(f"hard+: hard with {', '.join(args.set)}")
    print(f"{'A vs B':20} {'A wins decided':>15} {'95% CI':>15} {'W-L-D':>12} {'A pts share':>11}")
    first_net: list[int] = []
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for level in args.players:
            name = "|".join(["hard+", *args.set]) if level == "hard+" else level
            work = [(rules, name, args.against, d, args.budget_ms)
                    for d in range(args.first, args.first + args.deals)]
            start = time.perf_counter()
            per_deal = pool.map(play_deal, work)
            games = [g for deal in per_deal for g in deal]
            net = [sum(g[0] for g in deal) for deal in per_deal]
            if args.per_deal is not None:
                with args.per_deal.open("a") as out:
                    out.write(json.dumps({"player": name, "against": args.against, "setup": args.setup,
                                          "budget_ms": args.budget_ms, "first": args.first,
                                          "games": per_deal}) + "\n")
            won = sum(1 for g in games if g[0] == 1)
            lost = sum(1 for g in games if g[0] == -1)
            drawn = len(games) - won - lost
            low, high = wilson(won, won + lost)
            pts_a, pts_b = sum(g[1] for g in games), sum(g[2] for g in games)
            share = pts_a / (pts_a + pts_b) if pts_a + pts_b else 0.0
            rate = won / (won + lost) if won + lost else 0.0
            print(f"{level + ' vs ' + args.against:20} {rate:>14.1%} {f'[{low:.1%}, {high:.1%}]':>15} "
                  f"{f'{won}-{lost}-{drawn}':>12} {share:>10.1%}  ({time.perf_counter() - start:.0f} s)",
                  flush=True)
            if not first_net:
                first_net = net
            else:
                mean, half = paired(net, first_net)
                print(f"  paired change vs {args.players[0]}: {mean:+.3f} ± {half:.3f} net wins per deal "
                      f"({len(net)} deals)", flush=True)
    return 0


def pool_runs(path: Path) -> None:
    """Print the runs of a ``--per-deal`` file pooled: per row (player, opponent, setup,
    budget) its rounds over every deal played, then the paired change of every other row
    against the first one, on the deals both played (a deal played twice keeps its last run)."""
    rows: dict[tuple[Any, ...], dict[int, list[list[int]]]] = {}
    for line in path.read_text().splitlines():
        run = json.loads(line)
        key = (run["player"], run["against"], run["setup"], run["budget_ms"])
        for i, deal in enumerate(run["games"]):
            rows.setdefault(key, {})[run["first"] + i] = deal
    print(f"{'player vs opponent, setup, budget':50} {'deals':>6} {'A wins decided':>15} {'95% CI':>15} {'W-L-D':>12}")
    for key, deals in rows.items():
        games = [g for d in sorted(deals) for g in deals[d]]
        won = sum(1 for g in games if g[0] == 1)
        lost = sum(1 for g in games if g[0] == -1)
        low, high = wilson(won, won + lost)
        rate = won / (won + lost) if won + lost else 0.0
        label = f"{key[0]} vs {key[1]}, {key[2]}, {key[3]} ms"
        print(f"{label:50} {len(deals):>6} {rate:>14.1%} {f'[{low:.1%}, {high:.1%}]':>15} "
              f"{f'{won}-{lost}-{len(games) - won - lost}':>12}")
    keys = list(rows)
    for key in keys[1:]:
        shared = sorted(set(rows[keys[0]]) & set(rows[key]))
        if len(shared) < 2:
            continue
        mean, half = paired([sum(g[0] for g in rows[key][d]) for d in shared],
                            [sum(g[0] for g in rows[keys[0]][d]) for d in shared])
        print(f"  {key[0]} vs {keys[0][0]}: paired change {mean:+.3f} ± {half:.3f} net wins per deal "
              f"({len(shared)} deals)")


def paired(a: list[int], b: list[int]) -> tuple[float, float]:
    """Mean of the per-deal differences ``a - b`` and the half-width of its 95 % interval."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


if __name__ == "__main__":
    sys.exit(main())
