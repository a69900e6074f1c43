"""``python -m games.engine.verify``: a published game checks out, a tampered one does not.

Most tests here are about the play (deal, legality, scores): their files are
sealed as the site seals them (numbered, chained, signed: ``seal``) just
before the check, so that what is checked is the play. The tests of the
chain and the signature themselves call ``verify_replay_as_is``."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from games.engine import (
    PRESETS,
    Draw,
    Rules,
    actions_to_json,
    commit_seed,
    legal_actions,
    new_game,
    next_round,
    resign,
    rules_for,
)
from games.engine.chain import chain_actions
from games.engine.verify import Disagreement, computer_seed, main, salted_seed, sign_replay
from games.engine.verify import verify_replay as verify_replay_as_is

ROOT = Path(__file__).resolve().parents[3]
SITE_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def seal(data: dict, key: Ed25519PrivateKey = SITE_KEY) -> dict:
    """``data`` as the site would publish it: format 2, actions numbered and
    chained from the commitment, signed with ``key``."""
    sealed = copy.deepcopy(data)
    sealed["format"] = 2
    sealed["chain_head"] = chain_actions(sealed["commitment"], sealed["actions"])
    return sign_replay(sealed, key)


def verify_replay(data: dict, **kwargs: object):
    return verify_replay_as_is(seal(data), **kwargs)


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


def test_the_command_prints_the_scores_or_the_disagreement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = played_game()
    good = tmp_path / "replay.json"
    good.write_text(json.dumps(seal(data)))
    assert main([str(good)]) == 0
    out = capsys.readouterr().out
    assert "commitment OK" in out
    assert f"final scores: {data['final_scores']}" in out
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(seal(dict(data, seed="verify-9"))))
    assert main([str(bad)]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    unreadable = tmp_path / "broken.json"
    unreadable.write_text("{not json")
    assert main([str(unreadable)]) == 2


def test_the_module_runs_as_a_command_without_django(tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(seal(played_game())))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", "import sys, runpy; sys.argv = ['verify', sys.argv[1]]; "
         "runpy.run_module('games.engine.verify', run_name='__main__'); ", str(path)],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "final scores" in done.stdout
    probe = subprocess.run(
        [sys.executable, "-c", "import games.engine.verify, sys; print('django' in sys.modules)"],
        capture_output=True, text=True, env=env, cwd=tmp_path,
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
        frames.append({**actions_to_json([action])[0], "seq": seq, "computer": {"level": "medium", "budget_ms": None}})
        state = apply_action(state, action)
    data = {
        "format": 1, "rules": rules.to_dict(), "commitment": commit_seed(seed), "seed": seed,
        "actions": frames, "final_scores": list(state.scores),
    }
    report = verify_replay(data, computer=True)
    assert report.computer_checked == sum(1 for frame in frames if "computer" in frame)
    # A legal move that the computer's view does not give is caught where it stands.
    index, others = choices[0]
    tampered = copy.deepcopy(data)
    tampered["actions"][index] = {
        **actions_to_json([others[0]])[0], "seq": frames[index]["seq"], "computer": frames[index]["computer"]
    }
    with pytest.raises(Disagreement, match=f"action {index + 1}: the computer"):
        verify_replay(tampered, computer=True)


def computer_game(record: dict, *, deviate: bool = False, seed: str = "versions", rules: Rules | None = None,
                  played_as: str | None = None) -> tuple[dict, int]:
    """A duel-block game (or one of ``rules``) where seat 0 is the computer ``record``
    describes ({"level", "budget_ms", maybe "version"}) and the other seats play at random.
    Seat 0 decides as the version recorded (or ``played_as``) when this code runs it, else
    as the current one. With ``deviate``, seat 0's first real choice is another move than
    this code's (as an older version of the computer may have chosen). Returns the file and
    the action's number (1-based) of that first choice."""
    from games.ai import choose_action, versions
    from games.engine import apply_action, view_for

    rules = rules or PRESETS["duel-block"]
    version = played_as or record.get("version")
    if version is not None and not versions.implements(record["level"], str(version)):
        version = None
    state = new_game(rules, seed)
    rng = Random(5)
    frames: list[dict] = []
    first_choice = 0
    while not state.game_over:
        if state.round_over:
            state = next_round(state)
            frames.append({"type": "next_round", "seq": len(frames) + 1})
            continue
        seq = len(frames) + 1
        if state.to_move == 0:
            view = view_for(state, 0)
            action = choose_action(view, record["level"], seed=computer_seed(seed, seq - 1),
                                   budget_ms=record.get("budget_ms"), version=version)
            if len(set(view.legal)) > 1 and not first_choice:
                first_choice = seq
                if deviate:
                    action = next(other for other in view.legal if other != action)
            frames.append({**actions_to_json([action])[0], "seq": seq, "computer": dict(record)})
        else:
            action = rng.choice(legal_actions(state))
            frames.append({**actions_to_json([action])[0], "seq": seq})
        state = apply_action(state, action)
    assert first_choice
    data = {
        "format": 1, "rules": rules.to_dict(), "commitment": commit_seed(seed), "seed": seed,
        "actions": frames, "final_scores": list(state.scores),
    }
    return data, first_choice


def test_computer_moves_of_the_version_this_code_runs_are_recomputed() -> None:
    from games.ai import SEARCH_VERSIONS

    record = {"level": "hard", "budget_ms": 0.2, "version": SEARCH_VERSIONS["hard"]}
    data, _ = computer_game(record)
    report = verify_replay(data, computer=True)
    assert report.computer_checked == sum(1 for frame in data["actions"] if "computer" in frame) > 3
    assert report.computer_unchecked == []
    forged, at = computer_game(record, deviate=True)
    with pytest.raises(Disagreement, match=f"action {at}: the computer \\(hard version {SEARCH_VERSIONS['hard']}\\)"):
        verify_replay(forged, computer=True)


@pytest.mark.parametrize("version", ["1", "7"])
def test_a_computer_move_of_a_version_this_code_does_not_run_names_that_version(
    version: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, at = computer_game({"level": "hard", "budget_ms": 0.2, "version": version}, deviate=True)
    report = verify_replay(data, computer=True)
    computer_moves = sum(1 for frame in data["actions"] if "computer" in frame)
    # Forced moves are the same for every version; the others are named, not recomputed.
    assert report.computer_unchecked
    assert report.computer_checked + len(report.computer_unchecked) == computer_moves
    assert report.computer_unchecked[0].startswith(f"action {at}: seat 0 plays")
    assert all(f"it needs hard version {version}: " in line for line in report.computer_unchecked)
    expected = "games/ai at commit 5789a79" if version == "1" else "a version this code does not know"
    assert expected in report.computer_unchecked[0]
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(seal(data)))
    assert main(["--computer", str(path)]) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out
    assert f"computer moves not recomputed, chosen by a version of the computer this code does not run: " \
           f"{len(report.computer_unchecked)}" in out
    assert f"  action {at}: seat 0 plays" in out


def test_a_hard_move_recorded_without_a_version_is_recomputed_or_names_the_search_before_the_core() -> None:
    record = {"level": "hard", "budget_ms": 0.2}  # as recorded before versions were
    data, _ = computer_game(record)
    report = verify_replay(data, computer=True)
    assert report.computer_checked == sum(1 for frame in data["actions"] if "computer" in frame)
    assert report.computer_unchecked == []
    older, at = computer_game(record, deviate=True)
    report = verify_replay(older, computer=True)
    assert len(report.computer_unchecked) == 1
    note = report.computer_unchecked[0]
    assert note.startswith(f"action {at}: ")
    assert "recorded without a version" in note
    # Unversioned hard moves are of version 1 or 2: this code still runs 2.
    assert "this code's hard version 2 gives another move" in note
    assert "it needs hard version 1: the pure-Python search before the compiled core: games/ai at commit 5789a79" in note


def test_hard_moves_of_both_versions_this_code_runs_are_recomputed_in_pairs() -> None:
    """A pairs game of hard version 2 (before the tree with four seats), one of version 3 and
    one of version 4 (the partner read with a flatter model) each verify with --computer, as
    its recorded version, and so does one of version 6 (the endgames searched by the tree); a
    version-2 game recorded as 3 does not. (Version 5 decides pairs as 4: nothing is drawn
    there.)"""
    from games.ai import SEARCH_VERSIONS

    assert SEARCH_VERSIONS["hard"] == "6"
    rules = replace(rules_for("arena", players=4, teams=True), target=0)  # one round
    versions_verify(rules, "pairs-v", ("2", "3", "4", "6"), recorded="3", played_as="2")


def test_hard_moves_of_versions_4_and_5_are_recomputed_in_the_draw_game() -> None:
    """Version 5 searches the draw game with a tree while tiles can be drawn: a classic-draw
    game of version 4 and one of version 5 each verify with --computer as its recorded
    version; a version-4 game recorded as 5 does not."""
    rules = replace(rules_for("classic-draw", players=2), target=0)  # one round
    versions_verify(rules, "draw-v4", ("4", "5"), recorded="5", played_as="4")


def versions_verify(rules: Rules, seed: str, runs: tuple[str, ...], *, recorded: str, played_as: str) -> None:
    """A game of hard (2 ms) of each version in ``runs`` verifies with --computer as its recorded
    version; one played as ``played_as`` but recorded as ``recorded`` does not."""
    for version in runs:
        data, _ = computer_game({"level": "hard", "budget_ms": 2, "version": version}, rules=rules, seed=seed)
        report = verify_replay(data, computer=True)
        assert report.computer_checked == sum(1 for frame in data["actions"] if "computer" in frame) >= 5
        assert report.computer_unchecked == []
    relabelled, _ = computer_game({"level": "hard", "budget_ms": 2, "version": recorded}, rules=rules, seed=seed,
                                  played_as=played_as)
    with pytest.raises(Disagreement, match=rf"the computer \(hard version {recorded}\) would play"):
        verify_replay(relabelled, computer=True)


def test_an_unknown_computer_level_is_a_disagreement_not_a_crash() -> None:
    data, _ = computer_game({"level": "medium", "budget_ms": None})
    for frame in data["actions"]:
        if "computer" in frame:
            frame["computer"] = {"level": "expert"}
    with pytest.raises(Disagreement, match="unknown level 'expert'"):
        verify_replay(data, computer=True)


# -- the chained move log and the site's signature ------------------------------------


def cut_short_with_a_resignation(data: dict, keep: int = 10) -> dict:
    """The forgery of the issue: the real deal, the history cut after ``keep``
    actions, then a resignation, with the scores that follow from it."""
    from games.engine import actions_from_json, apply_action

    rules = PRESETS["classic-draw"]
    state = new_game(rules, data["seed"])
    kept = [{key: value for key, value in frame.items() if key not in ("seq", "chain")} for frame in data["actions"][:keep]]
    for frame in kept:
        if frame["type"] == "next_round":
            state = next_round(state)
        else:
            if state.round_over:
                state = next_round(state)
            state = apply_action(state, actions_from_json([frame])[0])
    loser = 0 if state.to_move is None else state.to_move
    state = resign(state, loser)
    return {
        **{key: value for key, value in data.items() if key not in ("signature", "chain_head")},
        "actions": [*kept, {"type": "resign", "seat": loser}],
        "final_scores": list(state.scores),
        "winner": state.winner,
        "end_reason": state.end_reason,
    }


def public_hex(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def test_the_honest_file_verifies_with_the_sites_key_and_its_live_heads() -> None:
    published = seal(played_game())
    heads = {frame["seq"]: frame["chain"] for frame in published["actions"][::7]}
    report = verify_replay_as_is(published, key=public_hex(SITE_KEY), heads=heads)
    assert report.chain_head == published["chain_head"] == published["actions"][-1]["chain"]
    assert report.heads_checked == len(heads)


def test_a_history_cut_short_with_a_resignation_no_longer_verifies() -> None:
    published = seal(played_game())
    forged = cut_short_with_a_resignation(published)
    # The play of the forgery is legal: only the chain and the signature tell.
    assert verify_replay(forged).state.end_reason == "resigned"
    # 1. Edited by hand: the site's signature no longer holds.
    hand_edited = {**forged, "signature": published["signature"], "chain_head": published["chain_head"]}
    hand_edited["actions"] = [*published["actions"][:10], {"type": "resign", "seat": forged["actions"][-1]["seat"]}]
    with pytest.raises(Disagreement, match="signature does not hold"):
        verify_replay_as_is(hand_edited)
    # 2. Chained and signed again by the forger: not the site's key.
    forger = Ed25519PrivateKey.from_private_bytes(b"\x07" * 32)
    with pytest.raises(Disagreement, match="not with the site's key"):
        verify_replay_as_is(seal(forged, forger), key=public_hex(SITE_KEY))
    # 3. Signed by the site itself: a player who kept a live state frame
    # after the cut holds it to what was played.
    site_forgery = seal(forged)
    live = published["actions"][11]
    with pytest.raises(Disagreement, match="action 11: the live state frame of event 11"):
        verify_replay_as_is(site_forgery, heads={11: published["actions"][10]["chain"]})
    with pytest.raises(Disagreement, match=f"showed event {live['seq']}, the file stops at 11"):
        verify_replay_as_is(site_forgery, heads={live["seq"]: live["chain"]})


def test_a_file_without_chain_or_signature_is_refused() -> None:
    published = seal(played_game())
    unsigned = {key: value for key, value in published.items() if key != "signature"}
    with pytest.raises(Disagreement, match="not signed"):
        verify_replay_as_is(unsigned)
    unchained = copy.deepcopy(published)
    for frame in unchained["actions"]:
        del frame["chain"]
    with pytest.raises(Disagreement, match="no chained move log"):
        verify_replay_as_is(sign_replay(unchained, SITE_KEY))
    with pytest.raises(Disagreement, match="format 1"):
        verify_replay_as_is(dict(played_game(), format=1))


def test_a_broken_link_or_a_skipped_number_is_refused_where_it_is() -> None:
    published = seal(played_game())
    broken = copy.deepcopy(published)
    broken["actions"][4]["chain"] = "0" * 64
    with pytest.raises(Disagreement, match="action 5: the chain does not hold"):
        verify_replay_as_is(sign_replay(broken, SITE_KEY))
    renumbered = copy.deepcopy(published)
    renumbered["actions"][6]["seq"] = 99
    with pytest.raises(Disagreement, match="action 7: event number 99"):
        verify_replay_as_is(sign_replay(renumbered, SITE_KEY))


def test_the_chain_never_covers_a_drawn_tile() -> None:
    # The head is shown live to everyone: a hash over the drawn tile would
    # give it away to whoever tries the 28 tiles.
    from games.engine.chain import chain_link

    one = chain_link("a" * 64, {"type": "draw", "seat": 1, "tile": [2, 3], "seq": 5})
    other = chain_link("a" * 64, {"type": "draw", "seat": 1, "tile": [6, 6], "seq": 5})
    assert one == other
    assert one != chain_link("a" * 64, {"type": "draw", "seat": 0, "tile": [2, 3], "seq": 5})


def test_the_command_takes_the_sites_key_and_live_heads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    published = seal(played_game())
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(published))
    frame = published["actions"][12]
    assert main(["--key", public_hex(SITE_KEY), "--head", f"{frame['seq']}:{frame['chain']}", str(path)]) == 0
    out = capsys.readouterr().out
    assert "signature OK: signed with the site's key" in out
    assert "chain OK" in out
    assert "live heads OK" in out
    other_key = public_hex(Ed25519PrivateKey.from_private_bytes(b"\x09" * 32))
    assert main(["--key", other_key, str(path)]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    assert main(["--head", f"{frame['seq']}:{'f' * 64}", str(path)]) == 1
