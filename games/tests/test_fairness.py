"""Provably fair deals: the commitment, the published replay.json, the
verifier on it, a member's salt, and computer moves recomputed from views."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.test.testcases import TestCase

from games import jobs
from games.engine import PRESETS, commit_seed, legal_actions, new_game, rules_for
from games.engine.verify import Disagreement, computer_seed, salted_seed, verify_replay
from games.fairplay import fairness, signing
from games.live import broadcast
from games.models import Game, Move, Table
from games.play import selectors, services
from games.tests.factories import (
    ComputerSeatFactory,
    GuestSeatFactory,
    MemberSeatFactory,
    make_table,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def new_session_key() -> str:
    """A saved guest session (what a browser gets from its first page)."""
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session.create()
    return str(session.session_key)


def finish(game: Game, *, rng: random.Random | None = None) -> list[str]:
    """Play a game to its end: people at random, computers through their
    queued turns (after-commit work runs at once). Returns the commitment
    seen after every move."""
    rng = rng or random.Random(0)
    seen = []
    for _ in range(3000):
        with TestCase.captureOnCommitCallbacks(execute=True):
            jobs.run_pending()
        game.refresh_from_db()
        seen.append(game.commitment)
        state = selectors.game_state(game)
        if state.game_over:
            return seen
        info = selectors.table_seat_info(game.table_id)
        with TestCase.captureOnCommitCallbacks(execute=True):
            if state.to_move is None:
                seat = min(info.humans) if info.humans else None
                services.start_next_round(game_id=game.pk, seat=seat, expected_seq=game.seq)
            elif state.to_move not in info.computers:
                action = rng.choice(legal_actions(state))
                services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=game.seq)
    raise AssertionError("the game did not end")


@pytest.fixture(autouse=True)
def _quiet(sent, settings) -> None:
    """Broadcasts are collected (``sent``), reviews wait in their queue."""
    jobs.PENDING_REVIEWS.clear()


def guest_client(key: str) -> Client:
    client = Client()
    client.cookies["sessionid"] = key
    return client


def computer_game(
    level: str = "easy", preset: str = "duel-block", guest: str | None = None, target: int | None = 50
) -> Game:
    with TestCase.captureOnCommitCallbacks(execute=True):  # the computer may open
        table = make_table(
            preset=preset,
            target=target,
            kind=Table.Kind.COMPUTER,
            seats=[services.SeatSpec(guest_key=guest or new_session_key()), services.SeatSpec(level=level)],
        )
    return Game.objects.get(table=table)


# -- the commitment ---------------------------------------------------------------------


def test_the_commitment_never_changes_and_matches_the_published_seed() -> None:
    game = computer_game(preset="classic-draw")
    before = game.commitment
    seen = finish(game)
    assert set(seen) == {before}
    data = fairness.build_replay(game)
    assert data["commitment"] == before == commit_seed(data["seed"])
    assert data["seed"] == game.seed


def test_the_replay_verifies_with_the_engine_and_every_computer_move_with_its_view() -> None:
    game = computer_game(level="medium", preset="classic-draw")
    finish(game, rng=random.Random(4))
    data = json.loads(json.dumps(fairness.build_replay(game)))
    report = verify_replay(data, computer=True)
    assert list(report.state.scores) == game.result["scores"] == data["final_scores"]
    computer_moves = Move.objects.filter(game=game, seat=1, kind__in=["play", "draw", "pass"]).count()
    assert report.computer_checked == computer_moves > 0
    kinds = [frame["type"] for frame in data["actions"]]
    assert kinds == list(Move.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))


def test_a_tampered_replay_file_is_caught() -> None:
    game = computer_game(preset="classic-draw")
    finish(game, rng=random.Random(2))
    data = fairness.build_replay(game)
    plays = [i for i, frame in enumerate(data["actions"]) if frame["type"] == "play"]
    tampered = json.loads(json.dumps(data))
    frame = tampered["actions"][plays[len(plays) // 2]]
    frame["tile"] = [0, 0] if frame["tile"] != [0, 0] else [6, 6]
    with pytest.raises(Disagreement, match="signature does not hold"):
        verify_replay(tampered)
    # Even signed again with the site's own key, the play itself is checked.
    with pytest.raises(Disagreement, match="chain does not hold"):
        verify_replay(signing.sign(tampered))
    with pytest.raises(Disagreement, match="commitment"):
        verify_replay(signing.sign(dict(data, seed=data["seed"] + "0")))
    with pytest.raises(Disagreement, match="final scores"):
        verify_replay(signing.sign(dict(data, final_scores=[s + 5 for s in data["final_scores"]])))


def test_computer_decision_seeds_are_the_published_formula_and_the_budget_is_recorded(settings) -> None:
    settings.AI_BUDGET_MS = 7
    game = computer_game()
    assert selectors.ai_seed(game, 12) == computer_seed(game.seed, 12)
    finish(game)
    computer_payloads = [m.payload for m in Move.objects.filter(game=game, seat=1, kind__in=["play", "draw", "pass"])]
    assert computer_payloads
    assert all(p["computer"] == {"level": "easy", "budget_ms": 7, "version": "1"} for p in computer_payloads)
    frames = [f for f in fairness.build_replay(game)["actions"] if f.get("computer")]
    assert len(frames) == len(computer_payloads)
    assert all(f["computer"] == {"level": "easy", "budget_ms": 7, "version": "1"} for f in frames)


def test_every_computer_move_is_published_with_its_version_and_recomputed_as_that_version(settings) -> None:
    """Moves recorded now carry the version of the computer (games.ai.versions); moves
    recorded before have none; a move of a version this code does not run is named,
    not reported as a mismatch, by the verifier and the review, and the file stays signed."""
    from games.ai import SEARCH_VERSIONS
    from games.coach import review

    settings.AI_BUDGET_MS = 0.2
    game = computer_game(level="hard", preset="duel-block")
    finish(game, rng=random.Random(3))
    moves = Move.objects.filter(game=game, seat=1, kind__in=["play", "draw", "pass"]).order_by("seq")
    total = moves.count()
    assert total > 3
    assert all(m.payload["computer"] == {"level": "hard", "budget_ms": 0.2, "version": SEARCH_VERSIONS["hard"]}
               for m in moves)
    data = json.loads(json.dumps(fairness.build_replay(game)))
    assert [f["computer"]["version"] for f in data["actions"] if "computer" in f] == [SEARCH_VERSIONS["hard"]] * total
    report = verify_replay(data, computer=True)
    assert (report.computer_checked, report.computer_unchecked) == (total, [])

    # Recorded before versions were: no version, still recomputed (this code's hard gives them).
    for move in moves:
        Move.objects.filter(pk=move.pk).update(payload={**move.payload, "computer": {"level": "hard", "budget_ms": 0.2}})
    data = json.loads(json.dumps(fairness.build_replay(game)))
    assert all("version" not in f["computer"] for f in data["actions"] if "computer" in f)
    assert verify_replay(data, computer=True).computer_checked == total
    assert all(row["status"] == "same" and row["version"] is None for row in review.build_review(game)["computer"])

    # Recorded by hard version 1 (the search before the compiled core): named, not recomputed.
    for move in moves:
        Move.objects.filter(pk=move.pk).update(
            payload={**move.payload, "computer": {"level": "hard", "budget_ms": 0.2, "version": "1"}}
        )
    data = json.loads(json.dumps(fairness.build_replay(game)))
    report = verify_replay(data, computer=True, key=signing.public_key_hex())
    assert report.computer_unchecked
    assert report.computer_checked + len(report.computer_unchecked) == total  # forced moves are the same
    assert all("it needs hard version 1: " in line for line in report.computer_unchecked)
    rows = review.build_review(game)["computer"]
    # A forced move (one legal action) is the same whatever the version; a random deal
    # may give the computer none.
    assert [row["status"] for row in rows].count("same") == report.computer_checked
    assert [row["status"] for row in rows].count("needs") == len(report.computer_unchecked)
    assert all(row["needed"] == ["1"] and row["recomputed"] is None for row in rows if row["status"] == "needs")


# -- replay.json ------------------------------------------------------------------------


def test_replay_json_is_refused_before_the_end_and_published_after() -> None:
    key = new_session_key()
    game = computer_game(guest=key, preset="classic-draw")
    url = f"/table/{game.table_id}/replay.json"
    response = guest_client(key).get(url)
    assert response.status_code == 403
    assert game.seed not in response.content.decode()
    assert Client().get(url).status_code == 403  # a spectator of a public table neither
    finish(game)
    response = guest_client(key).get(url + "?download=1")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert fairness.replay_filename(game.table) in response["Content-Disposition"]
    data = response.json()
    assert data["seed"] == game.seed
    key = signing.public_key_hex()
    assert data["verify"] == f"python -m games.engine.verify --key {key} dominoes-{game.table_id}-replay.json"
    assert verify_replay(data, key=key).state.game_over
    assert Client().get(url).status_code == 200  # public table: anyone may check it


def test_a_private_tables_replay_is_for_its_players_only() -> None:
    key = new_session_key()
    with TestCase.captureOnCommitCallbacks(execute=True):  # the computer may move first
        table = make_table(
            preset="duel-block",
            public=False,
            seats=[services.SeatSpec(guest_key=key), ComputerSeatFactory.build()],
        )
    game = Game.objects.get(table=table)
    finish(game)
    url = f"/table/{table.pk}/replay.json"
    assert Client().get(url).status_code == 404
    assert guest_client(key).get(url).status_code == 200
    assert Client().get("/table/999999/replay.json").status_code == 404


def test_an_unfinished_or_aborted_game_is_never_published() -> None:
    game = computer_game()
    services.abort_game(game_id=game.pk, reason="test")
    game.refresh_from_db()
    assert not fairness.is_published(game)
    with pytest.raises(ValueError):
        fairness.build_replay(game)


# -- a member's salt ----------------------------------------------------------------------


def test_salt_changes_the_deal_and_is_verified() -> None:
    rules = rules_for("classic-draw", players=2, teams=False, target=50)
    seats = lambda: [GuestSeatFactory.build(), ComputerSeatFactory.build()]  # noqa: E731
    plain = services.create_table(
        kind=Table.Kind.PRIVATE, rules=rules, preset="classic-draw", seats=seats(), public=True, server_seed="s" * 32
    )
    plain_game = plain.game
    # A server seed deals one game (a unique commitment): the plain one goes before the salted one comes.
    plain.delete()
    with TestCase.captureOnCommitCallbacks(execute=True):  # the computer may move first
        salted = services.create_table(
            kind=Table.Kind.PRIVATE,
            rules=rules,
            preset="classic-draw",
            seats=seats(),
            public=True,
            server_seed="s" * 32,
            salt="four words of mine",
        )
    salted_game = salted.game
    assert plain_game.seed == "s" * 32
    assert plain_game.salt == ""
    assert salted_game.server_seed == "s" * 32
    assert salted_game.seed == salted_seed("s" * 32, "four words of mine")
    # The commitment is the server's, made before the salt: the same for both.
    assert salted_game.commitment == plain_game.commitment == commit_seed("s" * 32)
    assert new_game(rules, plain_game.seed).hands != new_game(rules, salted_game.seed).hands
    assert selectors.game_state(salted_game).hands == new_game(rules, salted_game.seed).hands
    finish(salted_game)
    data = fairness.build_replay(salted_game)
    assert (data["server_seed"], data["salt"]) == ("s" * 32, "four words of mine")
    report = verify_replay(data)
    assert report.salted
    with pytest.raises(Disagreement):
        verify_replay(signing.sign(dict(data, salt="other words")))


def test_the_commitment_is_offered_before_the_salt_and_used_once() -> None:
    session: dict = {}
    commitment = fairness.offer_commitment(session)
    server_seed = session[fairness.SESSION_KEY][commitment]
    assert commit_seed(server_seed) == commitment
    assert fairness.claim_server_seed(session, commitment) == server_seed
    assert fairness.claim_server_seed(session, commitment) is None


def test_members_seats_do_not_matter_to_the_published_record() -> None:
    table = make_table(preset="duel-block", seats=[MemberSeatFactory.build(), MemberSeatFactory.build()])
    game = Game.objects.get(table=table)
    finish(game)
    data = fairness.build_replay(game)
    assert [p["kind"] for p in data["players"]] == ["human", "human"]
    assert not any("computer" in frame for frame in data["actions"])
    assert verify_replay(data).state.game_over
    assert PRESETS["duel-block"].to_dict() == data["rules"]


def test_moves_the_server_makes_for_a_person_are_published_and_recomputable() -> None:
    from games.coach import review
    from games.timers import stand_ins

    table = make_table(preset="duel-block", seats=[GuestSeatFactory.build(), GuestSeatFactory.build()])
    game = Game.objects.get(table=table)
    for _ in range(4):  # a timeout, then a stand-in, for whoever is to move
        game.refresh_from_db()
        if game.to_move is None:
            break
        stand_ins.play_for(game_id=game.pk, seat=game.to_move, by="server")
        game.refresh_from_db()
        if game.to_move is not None:
            stand_ins.play_for(game_id=game.pk, seat=game.to_move, by="computer")
    # A move of an older version: "by" without how it was chosen.
    game.refresh_from_db()
    if game.to_move is not None:
        state = selectors.game_state(game)
        services.play_move(
            game_id=game.pk, seat=game.to_move, action=legal_actions(state)[0], expected_seq=game.seq, by="computer"
        )
    finish(game)
    data = fairness.build_replay(game)
    marked = [frame for frame in data["actions"] if "computer" in frame]
    assert marked
    assert all(frame["computer"]["level"] == stand_ins.STAND_IN_LEVEL for frame in marked)
    assert verify_replay(data, computer=True).computer_checked == len(marked)
    checks = review.build_review(game)["computer"]
    assert len(checks) == len(marked)
    assert all(check["same"] for check in checks)


# -- the chained move log ------------------------------------------------------------------


def test_every_state_frame_shows_the_head_that_the_signed_replay_file_proves(sent) -> None:
    from games.fairplay import move_chain as chain

    game = computer_game(preset="classic-draw")
    finish(game, rng=random.Random(5))
    game.refresh_from_db()
    stored = dict(Move.objects.filter(game=game).values_list("seq", "chain"))
    assert len(stored) == game.seq
    assert game.chain == stored[game.seq]
    live_heads: dict[int, str] = {}
    for _group, message in sent:
        for frame in broadcast.decoded_frames(message) if "frames" in message else []:
            if frame["type"] == "state":
                expected = stored[frame["seq"]] if frame["seq"] else chain.genesis(game.commitment)
                assert frame["chain"] == expected
                live_heads[frame["seq"]] = frame["chain"]
    assert len(live_heads) > game.seq // 2
    # A sync answers with the same heads.
    state_frames = [f for f in selectors.sync_frames(game, after=game.seq - 3, viewer=0, humans=[0]) if f["type"] == "state"]
    assert {f["seq"] for f in state_frames} == {game.seq - 2, game.seq - 1, game.seq}
    assert all(f["chain"] == stored[f["seq"]] for f in state_frames)
    # Every head a player saw live is on the published, signed chain.
    data = fairness.build_replay(game)
    assert [frame["chain"] for frame in data["actions"]] == [stored[seq] for seq in range(1, game.seq + 1)]
    report = verify_replay(data, key=signing.public_key_hex(), heads=live_heads)
    assert report.heads_checked == len(live_heads)
    assert report.chain_head == game.chain


def test_the_chain_is_computed_once_per_move_from_the_stored_head() -> None:
    from games.engine.chain import chain_link
    from games.fairplay import move_chain as chain

    game = computer_game(preset="classic-draw")
    finish(game, rng=random.Random(6))
    head = chain.genesis(game.commitment)
    for move in Move.objects.filter(game=game).order_by("seq"):
        public = {"seq": move.seq, "type": move.kind, "seat": move.seat, **{k: v for k, v in move.payload.items() if k in ("tile", "end", "by")}}
        head = chain_link(head, public)
        assert move.chain == head
