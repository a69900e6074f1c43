"""``python -m games.engine.verify``: a published game checks out, a tampered one does not."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from games.engine import (
    PRESETS,
    Draw,
    actions_to_json,
    commit_seed,
    legal_actions,
    new_game,
    next_round,
    resign,
)
from games.engine.verify import Disagreement, computer_seed, main, salted_seed, verify_replay

ROOT = Path(__file__).resolve().parents[3]


def played_game(preset: str = "classic-draw", seed: str = "verify-1", rng_seed: int = 3) -> dict:
    """A whole game played at random, as the site publishes it."""
    rules = PRESETS[preset]
    rng = Random(rng_seed)
    state = new_game(rules, seed)
    frames: list[dict] = []
    while not state.game_over:
        if state.round_over:
            state = next_round(state)
            frames.append({"type": "next_round"})
            continue
        action = rng.choice(legal_actions(state))
        frame = actions_to_json([action])[0]
        if isinstance(action, Draw):
            frame["tile"] = state.boneyard[0].to_list()
        frames.append(frame)
        from games.engine import apply_action

        state = apply_action(state, action)
    return {
        "format": 1,
        "rules": rules.to_dict(),
        "commitment": commit_seed(seed),
        "seed": seed,
        "actions": frames,
        "final_scores": list(state.scores),
        "winner": state.winner,
        "end_reason": state.end_reason,
    }


def test_a_published_game_verifies_and_reports_its_final_state() -> None:
    data = played_game()
    report = verify_replay(data)
    assert report.state.game_over
    assert list(report.state.scores) == data["final_scores"]
    assert report.actions == len(data["actions"])
    assert not report.salted


def test_the_implicit_next_round_is_accepted() -> None:
    data = played_game()
    data["actions"] = [frame for frame in data["actions"] if frame["type"] != "next_round"]
    assert verify_replay(data).state.game_over


def test_a_seed_that_does_not_match_the_commitment_is_caught() -> None:
    data = played_game()
    data["seed"] = "verify-2"
    with pytest.raises(Disagreement, match="commitment"):
        verify_replay(data)


def test_a_changed_tile_is_caught_at_its_action() -> None:
    data = played_game()
    tampered = copy.deepcopy(data)
    index = next(i for i, frame in enumerate(tampered["actions"]) if frame["type"] == "play" and i > 3)
    frame = tampered["actions"][index]
    hand_tile = frame["tile"]
    # Another tile: either illegal at that point, or it changes what follows.
    frame["tile"] = [hand_tile[1], (hand_tile[0] + 1) % 7] if hand_tile[0] != hand_tile[1] else [0, 0]
    with pytest.raises(Disagreement):
        verify_replay(tampered)


def test_a_changed_drawn_tile_is_caught() -> None:
    data = played_game()
    index, frame = next((i, f) for i, f in enumerate(data["actions"]) if f["type"] == "draw")
    frame["tile"] = [6, 6] if frame["tile"] != [6, 6] else [0, 0]
    with pytest.raises(Disagreement, match=f"action {index + 1}: seat .* drew"):
        verify_replay(data)


def test_changed_final_scores_are_caught() -> None:
    data = played_game()
    data["final_scores"] = [score + 1 for score in data["final_scores"]]
    with pytest.raises(Disagreement, match="final scores"):
        verify_replay(data)


def test_a_missing_action_is_caught() -> None:
    data = played_game()
    data["actions"] = data["actions"][:-1]
    with pytest.raises(Disagreement):
        verify_replay(data)


def test_a_resignation_is_replayed() -> None:
    rules = PRESETS["classic-draw"]
    state = new_game(rules, "resigned")
    action = legal_actions(state)[0]
    from games.engine import apply_action

    after = resign(apply_action(state, action), 1)
    data = {
        "format": 1,
        "rules": rules.to_dict(),
        "commitment": commit_seed("resigned"),
        "seed": "resigned",
        "actions": [*actions_to_json([action]), {"type": "resign", "seat": 1}],
        "final_scores": list(after.scores),
        "winner": after.winner,
        "end_reason": "resigned",
    }
    assert verify_replay(data).state.end_reason == "resigned"
    data["winner"] = 1
    with pytest.raises(Disagreement, match="winner"):
        verify_replay(data)


def test_a_salted_seed_is_checked_against_the_server_commitment() -> None:
    server_seed, salt = "server-secret", "my lucky words"
    seed = salted_seed(server_seed, salt)
    data = played_game(seed=seed)
    data.update(server_seed=server_seed, salt=salt, commitment=commit_seed(server_seed))
    report = verify_replay(data)
    assert report.salted
    assert report.seed == seed
    other = dict(data, salt="other words")
    with pytest.raises(Disagreement, match="server_seed:salt"):
        verify_replay(other)
    with pytest.raises(Disagreement, match="server seed does not match"):
        verify_replay(dict(data, server_seed="another-secret"))


def test_salt_changes_the_deal() -> None:
    rules = PRESETS["classic-draw"]
    a = new_game(rules, salted_seed("server-secret", "one"))
    b = new_game(rules, salted_seed("server-secret", "two"))
    assert a.hands != b.hands


def test_the_computer_seed_is_a_plain_hash_of_seed_and_event() -> None:
    assert computer_seed("abc", 4) == computer_seed("abc", 4)
    assert computer_seed("abc", 4) != computer_seed("abc", 5)
    assert 0 <= computer_seed("abc", 4) < 2**64


def test_the_command_prints_the_scores_or_the_disagreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = played_game()
    good = tmp_path / "replay.json"
    good.write_text(json.dumps(data))
    assert main([str(good)]) == 0
    out = capsys.readouterr().out
    assert "commitment OK" in out
    assert f"final scores: {data['final_scores']}" in out
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(dict(data, seed="verify-9")))
    assert main([str(bad)]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    unreadable = tmp_path / "broken.json"
    unreadable.write_text("{not json")
    assert main([str(unreadable)]) == 2


def test_the_module_runs_as_a_command_without_django(tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(played_game()))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, runpy; sys.argv = ['verify', sys.argv[1]]; "
            "runpy.run_module('games.engine.verify', run_name='__main__'); ",
            str(path),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "final scores" in done.stdout
    probe = subprocess.run(
        [sys.executable, "-c", "import games.engine.verify, sys; print('django' in sys.modules)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert probe.stdout.strip() == "False"


def test_computer_moves_are_recomputed_from_their_view() -> None:
    from games.ai import choose_action
    from games.engine import apply_action, view_for

    rules = PRESETS["duel-block"]
    seed = "computer-check"
    state = new_game(rules, seed)
    frames = []
    choices = []  # (frame index, the other legal actions) where the computer had a choice
    seq = 0
    while not state.game_over:
        if state.round_over:
            state = next_round(state)
            seq += 1
            frames.append({"type": "next_round", "seq": seq})
            continue
        action = choose_action(view_for(state, state.to_move), "medium", seed=computer_seed(seed, seq))
        others = [other for other in legal_actions(state) if other != action]
        if others:
            choices.append((len(frames), others))
        seq += 1
        frames.append(
            {**actions_to_json([action])[0], "seq": seq, "computer": {"level": "medium", "budget_ms": None}}
        )
        state = apply_action(state, action)
    data = {
        "format": 1,
        "rules": rules.to_dict(),
        "commitment": commit_seed(seed),
        "seed": seed,
        "actions": frames,
        "final_scores": list(state.scores),
    }
    report = verify_replay(data, computer=True)
    assert report.computer_checked == sum(1 for frame in frames if "computer" in frame)
    # A legal move that the computer's view does not give is caught where it stands.
    index, others = choices[0]
    tampered = copy.deepcopy(data)
    tampered["actions"][index] = {
        **actions_to_json([others[0]])[0],
        "seq": frames[index]["seq"],
        "computer": frames[index]["computer"],
    }
    with pytest.raises(Disagreement, match=f"action {index + 1}: the computer"):
        verify_replay(tampered, computer=True)
