"""Fair play costs, measured: a hint (games.coach.hints budget), the review of a game
(games.coach.review: each person's decision analysed, each computer move
recomputed), and the verifier on a published game. Prints numbers; asserts
nothing. ``python bench/fair_play.py [--games N]``."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

import django

django.setup()

from games.ai import DEFAULT_BUDGET_MS, choose_action  # noqa: E402
from games.coach import analysis, hints, review  # noqa: E402
from games.engine import (  # noqa: E402
    PRESETS,
    Draw,
    actions_to_json,
    apply_action,
    commit_seed,
    new_game,
    next_round,
    view_for,
)
from games.engine.verify import computer_seed, verify_replay  # noqa: E402


def play(seed: str, rng: Random):
    """A classic-draw game to 100: seat 0 plays medium (a person), seat 1 hard.
    Returns (person decisions as views, computer decisions as (view, seq, action)), the replay."""
    rules = PRESETS["classic-draw"]
    state = new_game(rules, seed)
    people, computers, frames = [], [], []
    seq = 0
    while not state.game_over:
        if state.round_over:
            state = next_round(state)
            seq += 1
            frames.append({"type": "next_round", "seq": seq})
            continue
        seat = state.to_move
        view = view_for(state, seat)
        if seat == 0:
            action = choose_action(view, "medium", seed=rng.getrandbits(32))
            if len(analysis.distinct_plays(view)) >= 2:
                people.append((view, seq))
        else:
            action = choose_action(view, "hard", seed=computer_seed(seed, seq), budget_ms=DEFAULT_BUDGET_MS)
            computers.append((view, seq, action))
        frame = {**actions_to_json([action])[0], "seq": seq + 1}
        if isinstance(action, Draw):
            frame["tile"] = state.boneyard[0].to_list()
        frames.append(frame)
        state = apply_action(state, action)
        seq += 1
    replay = {"format": 1, "rules": rules.to_dict(), "commitment": commit_seed(seed), "seed": seed,
              "actions": frames, "final_scores": list(state.scores)}
    return people, computers, replay


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    rng = Random(7)
    hint_times, decision_times, recompute_times, verify_times, review_times = [], [], [], [], []
    decisions = recomputed = 0
    for number in range(args.games):
        people, computers, replay = play(f"bench-fair-{number}", rng)
        total = 0.0
        for view, seq in people:
            start = time.perf_counter()
            hints.compute_hint(view, seq)
            hint_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            analysis.analyse(view, seed=computer_seed("x", seq), budget_ms=review.review_budget_ms(),
                           deals=review.review_deals())
            spent = time.perf_counter() - start
            decision_times.append(spent)
            total += spent
        decisions += len(people)
        for view, seq, action in computers:
            start = time.perf_counter()
            again = choose_action(view, "hard", seed=computer_seed(replay["seed"], seq), budget_ms=DEFAULT_BUDGET_MS)
            spent = time.perf_counter() - start
            recompute_times.append(spent)
            total += spent
            recomputed += again == action
        review_times.append(total)
        start = time.perf_counter()
        verify_replay(replay)
        verify_times.append(time.perf_counter() - start)
    print(f"games: {args.games} (classic-draw to 100, a medium 'person' against the hard computer)")
    print(f"hint (HINT_BUDGET_MS={hints.hint_budget_ms():.0f}, {hints.hint_deals()} deals): "
          f"p50 {ms(statistics.median(hint_times))}, max {ms(max(hint_times))} over {len(hint_times)} hints")
    print(f"review, one person's decision (REVIEW_BUDGET_MS={review.review_budget_ms():.0f}, "
          f"{review.review_deals()} deals): p50 {ms(statistics.median(decision_times))}, "
          f"max {ms(max(decision_times))} over {decisions}")
    print(f"review, one hard computer move recomputed: p50 {ms(statistics.median(recompute_times))}, "
          f"same move {recomputed}/{len(recompute_times)}")
    print(f"review of a whole game (worker CPU): mean {statistics.mean(review_times):.1f} s, "
          f"max {max(review_times):.1f} s")
    print(f"verifier on a whole game: mean {ms(statistics.mean(verify_times))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
