"""The decisions pinned to each level's search version (``games.ai.versions``), read by
``test_versions.py``.

``search_pins.json`` holds fixed positions (views of every setup, stored as
``PlayerView.to_dict``, so that they do not depend on any player) and, per level and per
version, the decision of each case (a position, a seed, a budget): the action, and for
hard the deals and playouts its search spent (integers, the same on every machine and on
both paths), so that a change of the search shows even where the action stays; and the
digest of each level's decisions on many more positions of random rounds (``generated``).

``python -m games.tests.ai.search_pins`` adds the decisions of every version this code
runs (``versions.IMPLEMENTED``) that are not pinned yet, and never rewrites a pinned version: a change that alters
the decisions of a pinned version fails ``test_versions.py`` until ``SEARCH_VERSIONS`` is
bumped (docs/ai.md, "Search versions").
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from random import Random
from typing import Any

from games.ai import HardPlayer, choose_action
from games.ai.base import candidates
from games.ai.hard import options_for
from games.ai.knowledge import read_view
from games.ai.versions import IMPLEMENTED
from games.engine import PlayerView, action_to_json, apply_action, new_game, rules_for, view_for

PINS = Path(__file__).with_name("search_pins.json")

# (preset, players, pairs): the block duel (the tree), pairs, the draw game, three and four alone.
SETUPS = (("duel-block", 2, False), ("arena", 4, True), ("classic-draw", 2, False), ("classic-block", 3, False),
          ("quick", 4, False))
# Steps of a round (moves played at random first) at which positions are taken: early, middle, endgame.
STEPS = (1, 2, 4, 6, 8, 10, 13)
# A position offers at least this many distinct plays when one is found within TRIES rounds.
WIDE = 3
TRIES = 20
SEEDS = (0, 1)
BUDGET_MS = 2.0  # small: 60 ms of reference work per decision (the whole search, every path)


def make_positions() -> list[dict[str, Any]]:
    """Views with a choice between distinct plays (three or more when found), from rounds
    played at random."""
    out: list[dict[str, Any]] = []
    for preset, players, teams in SETUPS:
        rules = rules_for(preset, players=players, teams=teams)
        for step in STEPS:
            game = 0
            while True:
                state = new_game(rules, seed=f"pins-{preset}-{step}-{game}")
                rng = Random(f"pins-{game}")
                game += 1
                moves = 0
                found = None
                wide = WIDE if game <= TRIES else 2
                while not state.round_over:
                    view = view_for(state, state.to_move)
                    if moves >= step and len(candidates(list(view.legal), read_view(view))) >= wide:
                        found = view
                        break
                    state = apply_action(state, rng.choice(list(view.legal)))
                    moves += 1
                if found is not None:
                    out.append({"label": f"{preset}-{players}{'-pairs' if teams else ''}-step{step}",
                                "view": json.loads(json.dumps(found.to_dict()))})
                    break
    return out


# Besides the stored positions, each level's decisions on many positions of random rounds
# are pinned by their digest (cheap: a change shows even where the few stored positions
# would not show it).
GENERATED = {"easy": 2000, "medium": 2000, "hard": 150}
GENERATED_BUDGET_MS = 0.2


def generated_views(count: int) -> list[PlayerView]:
    """``count`` views with a choice between distinct plays, from rounds of every setup played
    at random (they depend on the rules engine only)."""
    out: list[PlayerView] = []
    game = 0
    while len(out) < count:
        preset, players, teams = SETUPS[game % len(SETUPS)]
        state = new_game(rules_for(preset, players=players, teams=teams), seed=f"pins-generated-{game}")
        rng = Random(game)
        game += 1
        while not state.round_over and len(out) < count:
            view = view_for(state, state.to_move)
            if len(candidates(list(view.legal), read_view(view))) > 1:
                out.append(view)
            state = apply_action(state, rng.choice(list(view.legal)))
    return out


def generated_digest(level: str, version: str | None = None) -> str:
    """SHA-256 of the decisions (as pinned: actions, and hard's deals and playouts) of
    ``level`` (as ``version``; None: the current one) on ``GENERATED[level]`` generated
    views, seed = the view's index."""
    budget = GENERATED_BUDGET_MS if level == "hard" else None
    made = [decide(level, view, n, budget, version) for n, view in enumerate(generated_views(GENERATED[level]))]
    return hashlib.sha256(json.dumps(made, sort_keys=True).encode()).hexdigest()


def cases(level: str, positions: list[dict[str, Any]]) -> list[tuple[int, int, float | None]]:
    """(position, seed, budget) of each pinned decision of ``level``: every position with two
    seeds, and for hard also one position of each setup at the default budget."""
    out: list[tuple[int, int, float | None]] = [
        (index, seed, BUDGET_MS if level == "hard" else None) for index in range(len(positions)) for seed in SEEDS
    ]
    if level == "hard":
        out += [(index, 0, None) for index in range(1, len(positions), len(STEPS))]
    return out


def decide(level: str, view: PlayerView, seed: int, budget_ms: float | None, version: str | None = None
           ) -> dict[str, Any]:
    """One decision as it is pinned (as ``version``; None: the current one)."""
    if level != "hard":
        return {"action": action_to_json(choose_action(view, level, seed=seed, budget_ms=budget_ms, version=version))}
    player = HardPlayer(budget_ms, options=options_for(version))
    action = player.choose(view, Random(seed))
    return {"action": action_to_json(action), "deals": player.stats.deals, "playouts": player.stats.playouts}


def decisions(level: str, positions: list[dict[str, Any]], version: str | None = None) -> list[dict[str, Any]]:
    views = [PlayerView.from_dict(position["view"]) for position in positions]
    return [
        {"position": index, "seed": seed, "budget_ms": budget, **decide(level, views[index], seed, budget, version)}
        for index, seed, budget in cases(level, positions)
    ]


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PINS.read_text(encoding="utf-8"))
    return data


def dump(data: dict[str, Any]) -> str:
    """The file's text: one line per position and per decision (readable diffs)."""
    lines = ["{", f' "about": {json.dumps(data.get("about", ""))},', ' "positions": [']
    lines += [f"  {json.dumps(p, sort_keys=True)}," for p in data["positions"]]
    lines[-1] = lines[-1].rstrip(",")
    lines += [" ],", ' "decisions": {']
    levels = sorted(data["decisions"])
    for n, level in enumerate(levels):
        lines.append(f"  {json.dumps(level)}: {{")
        pinned = sorted(data["decisions"][level], key=lambda v: (len(v), v))
        for m, version in enumerate(pinned):
            lines.append(f"   {json.dumps(version)}: [")
            lines += [f"    {json.dumps(d, sort_keys=True)}," for d in data["decisions"][level][version]]
            lines[-1] = lines[-1].rstrip(",")
            lines.append("   ]" + ("," if m < len(pinned) - 1 else ""))
        lines.append("  }" + ("," if n < len(levels) - 1 else ""))
    lines += [" },", f' "generated": {json.dumps(data.get("generated", {}), sort_keys=True)}', "}"]
    return "\n".join(lines) + "\n"


def main() -> int:
    data = load() if PINS.exists() else {"positions": make_positions(), "decisions": {}}
    added = []
    for level, runs in IMPLEMENTED.items():
        pinned = data["decisions"].setdefault(level, {})
        for version in runs:
            if version not in pinned:
                pinned[version] = decisions(level, data["positions"], version)
                data.setdefault("generated", {}).setdefault(level, {})[version] = generated_digest(level, version)
                added.append(f"{level} {version}")
    PINS.write_text(dump(data), encoding="utf-8")
    print(f"pinned: {', '.join(added) or 'nothing new (a pinned version is never rewritten)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
