"""The post-game review: queued when a game ends, computed once, shown on the replay page."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.test.testcases import TestCase

from games import jobs, tasks
from games.coach import analysis, review, review_page
from games.coach import services as coach
from games.engine import PRESETS, Play, Tile, new_game, view_for
from games.models import Game, GameReview, Move, Table
from games.play import services
from games.tests.factories import make_table
from games.tests.test_fairness import finish, new_session_key

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


@pytest.fixture(autouse=True)
def _quiet(sent) -> None:
    jobs.PENDING_REVIEWS.clear()


def finished_computer_game(level: str = "medium", seed: int = 1, key: str | None = None) -> Game:
    with TestCase.captureOnCommitCallbacks(execute=True):
        table = make_table(
            preset="classic-block",
            target=50,
            kind=Table.Kind.COMPUTER,
            seats=[services.SeatSpec(guest_key=key or new_session_key()), services.SeatSpec(level=level)],
        )
    game = Game.objects.get(table=table)
    finish(game, rng=random.Random(seed))
    return game


def test_a_finished_game_queues_its_review_once_and_the_task_is_idempotent() -> None:
    game = finished_computer_game()
    assert list(jobs.PENDING_REVIEWS) == [game.pk]  # on game_finished, after the commit
    assert tasks.review_game(game.pk) == "reviewed"
    first = GameReview.objects.get(game=game)
    assert first.status == GameReview.Status.READY
    assert tasks.review_game(game.pk) == "exists"
    assert jobs.run_pending_reviews() == 1  # the queued one finds it done
    assert GameReview.objects.filter(game=game).count() == 1
    again = GameReview.objects.get(game=game)
    assert again.data == first.data
    assert again.finished_at == first.finished_at


def test_recomputing_gives_the_same_review() -> None:
    game = finished_computer_game(seed=3)
    one = review.build_review(game)
    two = review.build_review(game)
    assert one == two


def test_an_unfinished_game_has_no_review() -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        table = make_table(preset="duel-block", kind=Table.Kind.COMPUTER,
                           seats=[services.SeatSpec(guest_key=new_session_key()), services.SeatSpec(level="easy")])
    assert coach.review_game(game_id=table.game.pk) == "not_finished"
    assert coach.review_game(game_id=999_999) == "no_game"
    assert not GameReview.objects.exists()


def test_every_person_move_with_a_choice_is_reviewed_and_computer_moves_are_recomputed() -> None:
    game = finished_computer_game(seed=5)
    data = review.build_review(game)
    person_moves = Move.objects.filter(game=game, seat=0, kind="play")
    assert 0 < len(data["moves"]) <= person_moves.count()
    for item in data["moves"]:
        assert item["seat"] == 0
        assert item["cost"] >= 0
        assert item["agrees"] == (item["played"] == item["best"])
        assert item["mistake"] == (item["cost"] >= review.MISTAKE_POINTS)
        assert len(item["options"]) >= 2
        if item["agrees"]:
            assert item["cost"] == 0
    computer_moves = Move.objects.filter(game=game, seat=1, kind__in=["play", "draw", "pass"]).count()
    assert len(data["computer"]) == computer_moves
    assert all(check["same"] for check in data["computer"])
    assert data["computer_same"] == computer_moves
    costs = {item["seq"]: item["cost"] for item in data["moves"]}
    assert [costs[seq] for seq in data["biggest"]] == sorted((costs[seq] for seq in data["biggest"]), reverse=True)
    assert all(costs[seq] >= review.MISTAKE_POINTS for seq in data["biggest"])
    summary = data["summary"]["0"]
    assert summary["decisions"] == len(data["moves"])
    assert summary["agreed"] == sum(item["agrees"] for item in data["moves"])


def test_a_computer_move_that_its_view_does_not_give_is_flagged() -> None:
    from games.play import selectors

    game = finished_computer_game(seed=6)
    for move in Move.objects.filter(game=game, seat=1, kind="play").order_by("seq"):
        before = selectors.rebuild_state(game, upto=move.seq - 1)
        view = view_for(before, 1)
        plays = analysis.distinct_plays(view)
        if len(plays) < 2:
            continue
        assert review.check_computer_move(game, move, before, "medium")["same"]
        played = analysis.canonical(view, Play(1, Tile(*move.payload["tile"]), move.payload["end"]))
        other = next(play for play in plays if play != played)
        forged = Move(game=game, seq=move.seq, seat=1, kind="play",
                      payload={**move.payload, "tile": other.tile.to_list(), "end": str(other.end)})
        check = review.check_computer_move(game, forged, before, "medium")
        assert not check["same"]
        assert check["recomputed"] == review.action_to_json(Play(1, Tile(*move.payload["tile"]), move.payload["end"]))
        return
    pytest.skip("the computer never had a choice in this game")  # pragma: no cover


def test_the_replay_page_names_the_version_a_computer_move_needs_instead_of_a_mismatch() -> None:
    """Rows of the review: "needs" (a version this code does not run) is shown as such, and
    rows stored before versions were (no status) are read as recorded without a version:
    a hard move this code gives otherwise needs hard version 1; a medium one differs."""
    from django.utils import translation

    key = new_session_key()
    game = finished_computer_game(seed=12, key=key)
    assert coach.review_game(game_id=game.pk) == "reviewed"
    stored = GameReview.objects.get(game=game)
    rows = stored.data["computer"]
    assert len(rows) >= 3
    assert all(row["status"] == "same" and row["version"] == "1" for row in rows)
    first, second, third = rows[0], rows[1], rows[2]
    other = {"type": "pass"}
    # A move recorded as hard version 1 (checked by this code: not recomputed).
    first.update(level="hard", version="1", status="needs", needed=["1"], recomputed=None, same=False)
    # Stored before versions were: no status, no version.
    for row, level in ((second, "hard"), (third, "medium")):
        for field in ("status", "needed", "version"):
            row.pop(field)
        row.update(level=level, same=False, recomputed=other)
    GameReview.objects.filter(pk=stored.pk).update(data=stored.data)
    context = review_page.panel_context(game)
    by_seq = {row["seq"]: row for row in context["computer"]}
    assert (by_seq[first["seq"]]["status"], by_seq[first["seq"]]["needed"]) == ("needs", ["1"])
    assert (by_seq[second["seq"]]["status"], by_seq[second["seq"]]["needed"]) == ("needs", ["1"])
    assert by_seq[third["seq"]]["status"] == "differs"
    assert len(context["computer_unchecked"]) == 2
    assert context["computer_same"] == len(rows) - 3
    assert not context["computer_all_same"]
    client = Client()
    client.cookies["sessionid"] = key
    fragment = client.get(f"/table/{game.table_id}/review/").content.decode()
    assert 'data-computer-unchecked="2"' in fragment
    assert f'data-computer-move="{second["seq"]}" data-same="false" data-status="needs"' in fragment
    assert "not recomputed: needs Hard version 1" in fragment
    assert 'data-computer-check="differs"' in fragment
    assert f"{len(rows) - 3} of {len(rows) - 2} computer moves recomputed" in fragment
    with translation.override("fr"):
        french = client.get(f"/table/{game.table_id}/review/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "non recalculé" in french


def test_the_analysis_reads_the_view_and_costs_each_play() -> None:
    from games.engine import apply_action
    from games.tests.engine.helpers import ts

    rules = PRESETS["duel-block"]
    hands = [ts("6-6 5-5 6-5 4-1 1-1 0-0 2-2"), ts("6-4 4-4 3-3 2-3 1-3 0-3 2-4")]
    state = new_game(rules, 0, hands=hands)  # seat 0 opens with 6-6
    state = apply_action(state, Play(1, Tile(6, 4), "right"))
    view = view_for(state, 0)
    found = analysis.analyse(view, seed=1, budget_ms=30, deals=80)
    assert not found.forced
    assert {option.action.tile for option in found.options} == {Tile(6, 5), Tile(4, 1)}
    best = found.option_of(found.best)
    assert best is not None
    assert found.cost_of(found.best) == 0
    for option in found.options:
        assert found.cost_of(option.action) == pytest.approx(max(0.0, best.points - option.points))
    # The same view with other hidden tiles behind it gives the same analysis.
    other = new_game(rules, 0, hands=[hands[0], ts("6-4 4-4 3-3 2-3 1-3 0-3 0-2")])
    other = apply_action(other, Play(1, Tile(6, 4), "right"))
    assert view_for(other, 0) == view
    assert analysis.analyse(view_for(other, 0), seed=1, budget_ms=30, deals=80) == found


def test_a_missing_review_is_queued_by_the_sweep_not_by_the_page() -> None:
    game = finished_computer_game(seed=9)
    jobs.PENDING_REVIEWS.clear()
    client = Client()
    assert client.get(f"/table/{game.table_id}/review/").status_code == 200
    assert client.get(f"/table/{game.table_id}/replay/").status_code == 200
    assert list(jobs.PENDING_REVIEWS) == []  # rendering a page queues nothing
    assert coach.requeue_missing_reviews() == 1
    assert list(jobs.PENDING_REVIEWS) == [game.pk]
    assert jobs.run_pending_reviews() == 1
    assert coach.requeue_missing_reviews() == 0
    assert "data-review-ready" in client.get(f"/table/{game.table_id}/review/").content.decode()


def test_a_review_being_computed_is_not_computed_twice_until_its_lease_ends(settings) -> None:
    from datetime import timedelta

    from django.utils import timezone

    game = finished_computer_game(seed=11)
    GameReview.objects.create(game=game, started_at=timezone.now())  # another task is on it
    assert coach.review_game(game_id=game.pk) == "running"
    assert GameReview.objects.get(game=game).status == GameReview.Status.PENDING
    GameReview.objects.filter(game=game).update(started_at=timezone.now() - timedelta(hours=1))
    assert coach.review_game(game_id=game.pk) == "reviewed"  # its worker died: taken over
    assert coach.review_game(game_id=game.pk) == "exists"
    GameReview.objects.filter(game=game).update(status=GameReview.Status.FAILED)
    assert coach.review_game(game_id=game.pk) == "reviewed"
    assert GameReview.objects.filter(game=game).count() == 1
