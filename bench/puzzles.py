"""Puzzle generator benchmark: puzzles made per CPU second from self-play
games, the solver's nodes per puzzle, and the inference puzzles the same
games give.

Each game is dealt by ``new_game`` from its own seed and played by the
computer (``games.ai.choose_action``, level "easy", seeded) to the end of its
first round, or with ``--whole-game`` to the end of the game (the next round
dealt by ``next_round`` until the target is reached). Only the searches are
timed, with ``time.process_time``: the double-dummy one
(``puzzles.generator.find_puzzles``) and, apart, the inference one
(``puzzles.inference.find_inferences``) over the game's states. One process,
one core, plain Python (the generator uses the Python solver, not the
compiled core). Prints one line per variant.

Run from the repository root:
``.venv/bin/python bench/puzzles.py [GAMES] [--whole-game]`` (40 games by default).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.ai import choose_action  # noqa: E402
from games.engine import PRESETS, Rules, State, apply_action, new_game, next_round, view_for  # noqa: E402
from puzzles.generator import find_puzzles  # noqa: E402
from puzzles.inference import find_inferences  # noqa: E402

VARIANTS = [
    ("duel-block", PRESETS["duel-block"]),
    ("classic-draw (2 players, boneyard known)", PRESETS["classic-draw"]),
    ("pairs block (4 players)", Rules(draw=False, players=4, teams=True, target=0)),
]


def self_play(rules: Rules, seed: int, *, whole_game: bool = False) -> list[tuple[int, State]]:
    """The states of one game (``(seq, state)``, 0 the deal): its first round,
    or every round with ``whole_game``."""
    state = new_game(rules, seed=seed)
    states = [(0, state)]
    while True:
        while state.to_move is not None and not state.round_over:
            state = apply_action(state, choose_action(view_for(state, state.to_move), "easy", seed=len(states)))
            states.append((len(states), state))
        if not whole_game or state.game_over or not state.round_over:
            return states
        state = next_round(state)
        states.append((len(states), state))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Puzzles per CPU second from self-play games.")
    parser.add_argument("games", nargs="?", type=int, default=40, help="games per variant (40)")
    parser.add_argument("--whole-game", action="store_true", help="play every round, not only the first")
    args = parser.parse_args(argv)
    for name, rules in VARIANTS:
        played = [self_play(rules, seed, whole_game=args.whole_game) for seed in range(args.games)]
        rounds = sum(len({state.round for _seq, state in states}) for states in played)
        start = time.process_time()
        found = [puzzle for states in played for puzzle in find_puzzles(states)]
        cpu = time.process_time() - start
        start = time.process_time()
        inferred = [question for states in played for question in find_inferences(states)]
        infer_cpu = time.process_time() - start
        nodes = sum(p.nodes for p in found)
        kinds = Counter(p.kind for p in found)
        print(
            f"{name}: {args.games} games, {rounds} rounds, {len(found)} puzzles in {cpu:.2f} CPU s = "
            f"{len(found) / cpu if cpu else 0:.1f} puzzles/CPU s; "
            f"{nodes / len(found) if found else 0:.0f} solver nodes per puzzle; kinds {dict(sorted(kinds.items()))}; "
            f"{len(inferred)} inference puzzles in {infer_cpu:.2f} CPU s",
            flush=True,
        )


if __name__ == "__main__":
    main()
