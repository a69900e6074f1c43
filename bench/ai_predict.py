"""How well hard's models of the other seats predict a player's real choices.

Run from the repository root: ``.venv/bin/python bench/ai_predict.py``.

Hard reads the other seats' plays (docs/ai.md, "Reading the partner"): a deal weighs
more when each seat's real play was likely under the tips model (``games.ai.model``) at
a sharpness (``temper``), and inside its tree every other seat answers with the model's
favourite. Both are only as good as the model is at predicting the players hard meets.
This script plays games (``--player`` on the seats of one side, medium on the others),
and at every choice of ``--player`` (a level, or a reference player of
``bench/ai_ceiling.py``) between two tiles or more, knowing the hand it really held,
scores:

- how often the tips model's favourite is the tile played (and the playouts' fast
  policy's, ``sim.playout``, and a player choosing at random);
- the mean log-likelihood of the tile played under the tips model at each sharpness of
  ``--tempers`` (0: every tile alike), so the sharpness that fits the player best is the
  one with the highest mean: the reading a perfect search of the deals would want;
- the same for a player who follows the tips at hard's sharpness (``--tremble-temper``)
  but picks a tile at random with probability ``--trembles`` (each ``λ``: the probability
  of the tile played is (1 - λ) · tips + λ / tiles), a reading that admits players who
  are not tips players without giving up on those who are.

The tile, not the end, is scored (the reading scores tiles). ``--set name=value`` changes
hard's options (``HardOptions`` fields) for the player measured.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ai import SETUPS  # noqa: E402
from bench.ai_ceiling import CHEATS, PLAYERS, act  # noqa: E402
from games.ai.knowledge import public_voids, read_view, tile_index  # noqa: E402
from games.ai.model import placement_scores  # noqa: E402
from games.ai.sim import NO_END, NUM, OTHER_ROWS, make_policy  # noqa: E402
from games.engine import apply_action, new_game, rules_for, view_for  # noqa: E402

TEMPERS = (0.0, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0)
TREMBLES = (0.0, 0.05, 0.1, 0.2, 0.4)
FAST_POLICY = make_policy(1, 6, 2)  # sim.playout's default (HardOptions.playout_policy)


def fast_choice(hand: int, options: int, left: int, right: int) -> int:
    """The tile ``sim.playout``'s policy lays among ``options`` (no random move)."""
    base, expose = FAST_POLICY
    best, tile = -math.inf, -1
    m = options
    while m:
        low = m & -m
        i = low.bit_length() - 1
        m ^= low
        v = float(base[i])
        if left != NO_END:
            x = OTHER_ROWS[left][i]
            if x < 0:
                x = OTHER_ROWS[right][i]
            v += (hand & NUM[x]).bit_count() * expose
        if v > best:
            best, tile = v, i
    return tile


def score_choice(view: Any, played: int, tempers: tuple[float, ...],
                 trembles: tuple[tuple[float, float], ...] = ()) -> dict[str, Any]:
    """One choice: whether each predictor's favourite is ``played``, the log-likelihood of
    ``played`` under the tips model at each of ``tempers``, and under each (sharpness,
    tremble) of ``trembles``."""
    know = read_view(view)
    options = 0
    for action in view.legal:
        tile = getattr(action, "tile", None)
        if tile is not None:
            options |= 1 << tile_index(tile)
    scores = {t: s for s, t, _on_left in placement_scores(
        know.table, know.me, know.hand, options, know.left, know.right, know.board, public_voids(know))}
    top = max(scores.values())
    favourite = min(t for t, s in scores.items() if s == top)
    logs = []
    for temper in tempers:
        total = sum(math.exp(temper * (s - top)) for s in scores.values())
        logs.append(temper * (scores[played] - top) - math.log(total))
    mixed = []
    for temper, tremble in trembles:
        total = sum(math.exp(temper * (s - top)) for s in scores.values())
        tips = math.exp(temper * (scores[played] - top)) / total
        mixed.append(math.log((1 - tremble) * tips + tremble / len(scores)))
    return {
        "tips": favourite == played,
        "fast": fast_choice(know.hand, options, know.left, know.right) == played,
        "random": 1.0 / len(scores),
        "log": logs,
        "mixed": mixed,
    }


Job = tuple[str, int, str, float | None, list[str], tuple[float, ...], tuple[tuple[float, float], ...]]


def play_game(job: Job) -> list[dict[str, Any]]:
    """The choices of ``player`` in one game of ``setup`` (seed ``predict-<game>``; the
    player's side alternates with the game's number)."""
    setup, game, player, budget_ms, sets, tempers, trembles = job
    _label, preset, players, teams = next(s for s in SETUPS if s[0].startswith(setup))
    rules = dataclasses.replace(rules_for(preset, players=players, teams=teams), target=0)
    level = "|".join(["hard+", *sets]) if player == "hard" and sets else player
    state = new_game(rules, seed=f"predict-{game}")
    out: list[dict[str, Any]] = []
    step = 0
    while not state.round_over:
        seat = state.to_move
        view = view_for(state, seat)
        mine = seat % 2 == game % 2
        action = act(level if mine else "medium", state, seat, step, budget_ms)
        tile = getattr(action, "tile", None)
        if mine and tile is not None and len({getattr(a, "tile", None) for a in view.legal} - {None}) > 1:
            out.append(score_choice(view, tile_index(tile), tempers, trembles))
        state = apply_action(state, action)
        step += 1
    return out


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1))
    return mean, 1.96 * sd / math.sqrt(len(xs))


def summary(choices: list[dict[str, Any]], tempers: tuple[float, ...],
            trembles: tuple[tuple[float, float], ...] = ()) -> list[str]:
    n = len(choices)
    lines = [f"{n} choices between two tiles or more"]
    for name in ("tips", "fast"):
        hits = sum(c[name] for c in choices)
        p = hits / n
        lines.append(f"  {name:<6} favourite is the tile played: {p:.3f} ± {1.96 * math.sqrt(p * (1 - p) / n):.3f}")
    lines.append(f"  random choice would be right:          {sum(c['random'] for c in choices) / n:.3f}")
    lines.append("  mean log-likelihood of the tile played under the tips model:")
    means = []
    for k, temper in enumerate(tempers):
        mean, ci = _mean_ci([c["log"][k] for c in choices])
        means.append(mean)
        lines.append(f"    temper {temper:<4} {mean:+.4f} ± {ci:.4f}")
    best = tempers[max(range(len(tempers)), key=means.__getitem__)]
    lines.append(f"  best fitting temper of those: {best}")
    if trembles:
        lines.append(f"  the same, the tips at temper {trembles[0][0]} with a tile at random with probability λ:")
        for k, (_temper, tremble) in enumerate(trembles):
            mean, ci = _mean_ci([c["mixed"][k] for c in choices])
            lines.append(f"    λ {tremble:<4} {mean:+.4f} ± {ci:.4f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", default="pairs", choices=[s[0].split()[0].rstrip(",") for s in SETUPS],
                        help="setup of the games (default pairs)")
    parser.add_argument("--player", default="hard", choices=[p for p in PLAYERS if p not in CHEATS and p != "hard+"],
                        help="the player whose choices are predicted (default hard; the reference "
                             "players of bench/ai_ceiling.py too: heavy, frequent, mcts, ...)")
    parser.add_argument("--games", type=int, default=100, help="games (default 100)")
    parser.add_argument("--first", type=int, default=0, help="first game number (default 0)")
    parser.add_argument("--budget-ms", type=float, default=None, help="hard's budget (default: its own)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of hard (a HardOptions field; repeatable)")
    parser.add_argument("--tempers", type=float, nargs="+", default=list(TEMPERS),
                        help="sharpnesses of the tips model to score")
    parser.add_argument("--trembles", type=float, nargs="+", default=list(TREMBLES),
                        help="probabilities of a tile at random beside the tips to score")
    parser.add_argument("--tremble-temper", type=float, default=0.5,
                        help="the tips' sharpness beside the trembles (default 0.5, hard's)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    tempers = tuple(args.tempers)
    trembles = tuple((args.tremble_temper, t) for t in args.trembles)
    jobs: list[Job] = [(args.setup, g, args.player, args.budget_ms, args.set, tempers, trembles)
                       for g in range(args.first, args.first + args.games)]
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        choices = [c for game in pool.map(play_game, jobs) for c in game]
    sets = f" with {', '.join(args.set)}" if args.set else ""
    print(f"{args.setup}: the choices of {args.player}{sets} (against medium), games predict-{args.first}.."
          f"{args.first + args.games - 1}")
    if not choices:
        print("no choice between two tiles or more")
        return 0
    for line in summary(choices, tempers, trembles):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
