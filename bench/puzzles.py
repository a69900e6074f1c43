"""Puzzle generator benchmark: puzzles made per CPU second from self-play
games, and the solver's nodes per puzzle.

Each game is dealt by ``new_game`` from its own seed and played to the end
of its first round by the computer (``games.ai.choose_action``, level
"easy", seeded); only the search (``puzzles.generator.find_puzzles`` over
the game's states) is timed, with ``time.process_time``. One process, one
core, plain Python (the generator uses the Python solver, not the compiled
core). Prints one line per variant.

Run from the repository root: ``.venv/bin/python bench/puzzles.py [GAMES]``.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.ai import choose_action  # noqa: E402
from games.engine import PRESETS, Rules, State, apply_action, new_game, view_for  # noqa: E402
from puzzles.generator import find_puzzles  # noqa: E402

VARIANTS = [
    ("duel-block", PRESETS["duel-block"]),
    ("classic-draw (2 players, boneyard known)", PRESETS["classic-draw"]),
    ("pairs block (4 players)", Rules(draw=False, players=4, teams=True, target=0)),
]


def self_play(rules, seed: int) -> list[tuple[int, State]]:
    state = new_game(rules, seed=seed)
    states = [(0, state)]
    while state.to_move is not None and not state.round_over:
        state = apply_action(state, choose_action(view_for(state, state.to_move), "easy", seed=len(states)))
        states.append((len(states), state))
    return states


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    for name, rules in VARIANTS:
        played = [self_play(rules, seed) for seed in range(games)]
        start = time.process_time()
        found = [puzzle for states in played for puzzle in find_puzzles(states)]
        cpu = time.process_time() - start
        nodes = sum(p.nodes for p in found)
        kinds = Counter(p.kind for p in found)
        print(
            f"{name}: {games} games, {len(found)} puzzles in {cpu:.2f} CPU s = "
            f"{len(found) / cpu if cpu else 0:.1f} puzzles/CPU s; "
            f"{nodes / len(found) if found else 0:.0f} solver nodes per puzzle; kinds {dict(sorted(kinds.items()))}",
            flush=True,
        )


if __name__ == "__main__":
    main()
