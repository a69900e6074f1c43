"""The puzzles app end to end through its services and pages: puzzles made
from computer games played through the table services, their positions
rebuilt from the published log, solving (guests and members), the ratings,
the next puzzle, the daily puzzle on the home page, the JSON and the CSV."""

from __future__ import annotations

import csv
import datetime as dt
import importlib
import io
import json

import pytest
from celery import current_app
from django.apps import apps as django_apps
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import Play, Rules, legal_actions, new_game, rules_for
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.signals import periodic_tick
from games.verifier import replay as replay_module
from games.verifier.replay import verify_replay
from puzzles import jobs, selectors, services
from puzzles.models import Attempt, Puzzle, PuzzleRating, SearchedGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def puzzles() -> list[Puzzle]:
    games = services.play_computer_games(6, seed="test")
    made = []
    for game in games:
        made.extend(services.search_game(game))
    # The double-dummy ones (test_inference.py has the inference puzzles).
    made = [puzzle for puzzle in made if puzzle.kind != Puzzle.Kind.INFER]
    assert made, "six duels gave no puzzle"
    return made


def _wrong(puzzle: Puzzle) -> tuple[str, str]:
    alt = next(
        a
        for a in puzzle.alternatives
        if a["tile"] != puzzle.solution_tile or a["ends"] != puzzle.solution_ends
    )
    return f"{alt['tile'][0]}-{alt['tile'][1]}", alt["ends"][0]


def _right(puzzle: Puzzle) -> tuple[str, str]:
    low, high = puzzle.solution_tile
    return f"{low}-{high}", puzzle.solution_ends[0]


def test_each_puzzle_stands_after_its_seq_in_the_published_log(puzzles):
    for puzzle in puzzles:
        game = puzzle.table.game
        state = game_selectors.rebuild_state(game, upto=puzzle.seq)
        assert state.to_move == puzzle.to_move
        assert services.position_of(state) == puzzle.position
        assert sorted(puzzle.solution_tile) in [[t.low, t.high] for t in state.hands[puzzle.to_move]]
        winners = [a for a in puzzle.alternatives if a["result"] == "win"]
        assert len(winners) == 1 or puzzle.kind == "count"


def test_a_game_is_searched_once(puzzles):
    game = puzzles[0].table.game
    count = Puzzle.objects.count()
    assert services.search_game(game) == []
    assert Puzzle.objects.count() == count
    assert SearchedGame.objects.get(game=game).found == Puzzle.objects.filter(table=game.table).count()


def test_the_periodic_hook_queues_the_search_and_searches_nothing_itself():
    games = services.play_computer_games(3, seed="tick")
    assert not SearchedGame.objects.exists()
    reports = [result for _receiver, result in periodic_tick.send_robust(sender=None)]
    assert {"puzzle_search_queued": 1} in reports
    assert not SearchedGame.objects.exists()  # the tick searched nothing
    assert list(jobs.PENDING_SEARCHES) == [2]  # PUZZLES_GAMES_PER_TICK
    # One search waits at a time: the next tick queues none.
    reports = [result for _receiver, result in periodic_tick.send_robust(sender=None)]
    assert {"puzzle_search_queued": 0} in reports
    assert jobs.run_pending_searches() == 1
    assert SearchedGame.objects.count() == 2
    periodic_tick.send_robust(sender=None)
    jobs.run_pending_searches()
    assert set(SearchedGame.objects.values_list("game_id", flat=True)) == {g.pk for g in games}
    # Nothing left to search: nothing queued.
    assert [r for _receiver, r in periodic_tick.send_robust(sender=None) if r and "puzzle_search_queued" in r] == []


def test_the_search_is_a_task_on_the_reviews_queue():
    assert settings.CELERY_TASK_ROUTES[jobs.SEARCH] == {"queue": "reviews"}
    services.play_computer_games(2, seed="task")
    assert current_app.tasks[jobs.SEARCH](5) == Puzzle.objects.count()
    assert SearchedGame.objects.count() == 2


def test_a_search_begins_no_game_after_its_time_cap():
    services.play_computer_games(3, seed="cap")
    services.search_finished_games(limit=10, seconds=0)
    assert SearchedGame.objects.count() == 1  # the first game is always searched
    services.search_finished_games(limit=10)
    assert SearchedGame.objects.count() == 3


def test_one_search_at_a_time():
    services.play_computer_games(1, seed="lock")
    cache.add(services.SEARCH_LOCK, 1)  # another process searches
    assert services.search_finished_games(limit=10) == 0
    assert not SearchedGame.objects.exists()
    cache.delete(services.SEARCH_LOCK)
    services.search_finished_games(limit=10)
    assert SearchedGame.objects.count() == 1


def test_the_embedded_mode_searches_on_a_pool_thread(settings, monkeypatch):
    from games import jobs as game_jobs

    services.play_computer_games(1, seed="thread")
    settings.GAMES_DISPATCH = "thread"
    later: list[object] = []
    monkeypatch.setattr(game_jobs, "run_later", lambda seconds, work, *args: later.append(work))
    assert jobs.queue_search(2)
    assert not SearchedGame.objects.exists()  # not in the caller's thread
    (work,) = later
    work()  # what the pool thread runs
    assert SearchedGame.objects.count() == 1


def test_a_sealed_game_waits_until_it_is_unsealed():
    # A duplicate round's game: other tables still play its deal, so its hands
    # are secret (games.fairplay.fairness.is_published) until it is unsealed.
    (game,) = services.play_computer_games(1, seed="sealed")
    Game.objects.filter(pk=game.pk).update(sealed=True)
    game.refresh_from_db()
    assert services.games_to_search(10) == []
    assert services.search_game(game) == []
    services.search_finished_games(limit=10)
    assert not SearchedGame.objects.exists()
    assert not Puzzle.objects.exists()
    Game.objects.filter(pk=game.pk).update(sealed=False)
    assert [g.pk for g in services.games_to_search(10)] == [game.pk]
    services.search_finished_games(limit=10)
    searched = SearchedGame.objects.get(game=game)
    assert searched.found == Puzzle.objects.filter(table=game.table).count()


def test_a_game_whose_table_is_still_playing_waits():
    (game,) = services.play_computer_games(1, seed="unfinished-table")
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.PLAYING)
    game.refresh_from_db()
    assert services.search_game(game) == []
    assert not SearchedGame.objects.exists()


def test_a_private_game_never_gives_puzzles():
    (game,) = services.play_computer_games(1, seed="private")
    Table.objects.filter(pk=game.table_id).update(public=False)
    game.refresh_from_db()
    assert services.search_game(game) == []
    searched = SearchedGame.objects.get(game=game)
    assert searched.found == 0
    assert not Puzzle.objects.exists()
    # And the periodic search marks one searched with none.
    (other,) = services.play_computer_games(1, seed="private-2")
    Table.objects.filter(pk=other.table_id).update(public=False)
    services.search_finished_games(limit=10)
    assert SearchedGame.objects.get(game=other).found == 0
    assert not Puzzle.objects.exists()
    assert services.games_to_search(10) == []


def test_the_migration_forgets_the_puzzles_of_private_and_sealed_games(puzzles):
    forget = importlib.import_module("puzzles.migrations.0004_forget_unpublished").forget_unpublished
    tables = sorted({puzzle.table_id for puzzle in puzzles})
    assert len(tables) >= 2, "the fixture's games gave puzzles at fewer than two tables"
    private, sealed, *kept = tables
    Table.objects.filter(pk=private).update(public=False)
    Game.objects.filter(table_id=sealed).update(sealed=True)
    before = Puzzle.objects.filter(table_id__in=kept).count()
    forget(django_apps, None)
    assert not Puzzle.objects.filter(table_id__in=[private, sealed]).exists()
    assert Puzzle.objects.filter(table_id__in=kept).count() == before
    assert SearchedGame.objects.get(game__table_id=private).found == 0
    assert not SearchedGame.objects.filter(game__table_id=sealed).exists()  # searched again once unsealed
    response = client_csv()
    assert not any(row[2] in (str(private), str(sealed)) for row in response[1:])


def client_csv() -> list[list[str]]:
    response = Client().get("/puzzles/export.csv")
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_the_command_plays_computer_games_and_makes_puzzles():
    out = io.StringIO()
    call_command("make_puzzles", "--self-play", "3", "--seed", "cmd", stdout=out)
    assert "played 3 computer games" in out.getvalue()
    assert SearchedGame.objects.count() == 3
    # Run again: the seeds already dealt are passed over, the searched games are not searched again.
    call_command("make_puzzles", "--self-play", "1", "--seed", "cmd", stdout=io.StringIO())
    assert SearchedGame.objects.count() == 4


def test_the_page_draws_the_position_and_the_json_keeps_the_contract(client, puzzles):
    puzzle = puzzles[0]
    page = client.get(reverse("puzzles:puzzle", args=[puzzle.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert f'data-puzzle="{puzzle.pk}"' in html
    for tile in puzzle.position["hands"][puzzle.to_move]:
        assert f'button type="button" class="puzzle-tile" data-tile="{tile[0]}-{tile[1]}"' in html
    data = client.get(f"/puzzles/{puzzle.pk}.json").json()
    assert {"id", "kind", "source_table", "seq", "to_move", "solution", "line"} <= set(data)
    assert data["source_table"] == puzzle.table_id
    assert data["seq"] == puzzle.seq
    assert data["solution"] == {"tile": puzzle.solution_tile, "end": puzzle.solution_ends[0]}
    assert data["line"][0]["tile"] == puzzle.solution_tile


def test_a_guest_solves_and_sees_why_the_other_plays_lose(client, puzzles):
    puzzle = next(p for p in puzzles if p.kind != "count")
    tile, end = _wrong(puzzle)
    reply = client.post(reverse("puzzles:solve", args=[puzzle.pk]), {"tile": tile, "end": end}).json()
    assert reply["correct"] is False
    assert reply["solution"] == puzzle.line
    assert next(row["best"] for row in reply["alternatives"]) is True
    assert any(
        (row["result"] != "win" and "loses" in row["text"]) or "nobody" in row["text"]
        for row in reply["alternatives"]
    )
    tile, end = _right(puzzle)
    reply = client.post(reverse("puzzles:solve", args=[puzzle.pk]), {"tile": tile, "end": end}).json()
    assert reply["correct"] is True
    assert "rating" not in reply
    assert Attempt.objects.filter(puzzle=puzzle, user=None).count() == 2
    # The guest's next puzzle is one it has not answered.
    nxt = client.get(reverse("puzzles:next"))
    assert nxt.status_code == 302
    assert nxt.url != reverse("puzzles:puzzle", args=[puzzle.pk])


@pytest.mark.parametrize(
    ("tile", "end"), [("", "left"), ("3-x", "left"), ("3-9", "left"), ("1-2", "middle"), ("6-6", "left")]
)
def test_a_bad_answer_is_refused_and_changes_nothing(client, puzzles, tile, end):
    puzzle = puzzles[0]
    if tile == "6-6" and any(a["tile"] == [6, 6] for a in puzzle.alternatives):
        tile = "0-0" if not any(a["tile"] == [0, 0] for a in puzzle.alternatives) else "1-1"
    reply = client.post(reverse("puzzles:solve", args=[puzzle.pk]), {"tile": tile, "end": end})
    assert reply.status_code == 400
    assert reply.json()["error"]
    assert not Attempt.objects.exists()
    puzzle.refresh_from_db()
    assert puzzle.attempts == 0


def test_a_play_puzzle_refuses_an_inference_answer(client, make_member, puzzles):
    puzzle = puzzles[0]
    tile, end = _right(puzzle)
    client.force_login(make_member("tiles"))
    reply = client.post(reverse("puzzles:solve", args=[puzzle.pk]), {"tile": tile, "end": end, "tiles": tile})
    assert reply.status_code == 400
    assert reply.json()["error"]
    assert not Attempt.objects.exists()
    assert not PuzzleRating.objects.exists()


def test_a_members_first_answer_moves_both_ratings(client, make_member, puzzles):
    member = make_member("solver")
    client.force_login(member)
    puzzle = puzzles[0]
    tile, end = _right(puzzle)
    reply = client.post(reverse("puzzles:solve", args=[puzzle.pk]), {"tile": tile, "end": end}).json()
    assert reply["correct"]
    assert reply["rating"]["after"] > reply["rating"]["before"] == 1500
    rating = PuzzleRating.objects.get(user=member)
    after_first = rating.mu
    puzzle.refresh_from_db()
    assert puzzle.mu < 25.0
    # A second answer to the same puzzle is not rated.
    client.post(reverse("puzzles:solve", args=[puzzle.pk]), {"tile": tile, "end": end})
    rating.refresh_from_db()
    assert rating.mu == after_first
    assert rating.solved == 1
    # A wrong first answer to another puzzle lowers it.
    other = puzzles[1]
    tile, end = _wrong(other)
    reply = client.post(reverse("puzzles:solve", args=[other.pk]), {"tile": tile, "end": end}).json()
    assert reply["rating"]["after"] < reply["rating"]["before"]
    history = client.get(reverse("puzzles:history")).content.decode()
    assert f'data-attempt="{puzzle.pk}" data-correct="true"' in history
    assert f'data-attempt="{other.pk}" data-correct="false"' in history


def test_the_next_puzzle_is_the_unanswered_one_nearest_the_members_rating(make_member, puzzles):
    member = make_member("near")
    PuzzleRating.objects.create(user=member, mu=30.0)
    for n, puzzle in enumerate(puzzles):
        Puzzle.objects.filter(pk=puzzle.pk).update(mu=20.0 + n * 3)
    want = min(puzzles, key=lambda p: (abs(20.0 + puzzles.index(p) * 3 - 30.0), p.pk))
    assert selectors.next_puzzle(user_id=member.pk) == want
    Attempt.objects.create(puzzle=want, user=member, tile=want.solution_tile, end="left", correct=True)
    assert selectors.next_puzzle(user_id=member.pk) not in (want, None) or len(puzzles) == 1


def test_the_daily_puzzle_is_on_the_home_page_and_stays_for_the_day(client, puzzles):
    assert selectors.daily_puzzle() is None  # all made today
    Puzzle.objects.update(created_at=timezone.now() - dt.timedelta(days=2))
    daily = selectors.daily_puzzle()
    assert daily is not None
    services.play_computer_games(1, seed="later")  # a puzzle made today changes nothing
    assert selectors.daily_puzzle() == daily
    home = client.get("/").content.decode()
    assert f'data-daily-puzzle="{daily.pk}"' in home
    page = client.get(reverse("puzzles:daily"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'data-puzzle="{daily.pk}"' in page
    assert "Problème du jour" in page


def test_the_public_file_lists_every_puzzle(client, puzzles):
    response = client.get("/puzzles/export.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:5] == ["id", "kind", "source_table", "seq", "to_move"]
    assert [int(row[0]) for row in rows[1:]] == sorted(Puzzle.objects.values_list("pk", flat=True))
    first = next(row for row in rows[1:] if int(row[0]) == puzzles[0].pk)
    assert (
        first[5]
        == f"{puzzles[0].solution_tile[0]}-{puzzles[0].solution_tile[1]} {puzzles[0].solution_ends[0]}"
    )


def test_the_profile_draws_the_puzzle_rating_after_each_rated_answer(client, make_member, puzzles):
    member = make_member("solver")
    assert selectors.rating_history(member.pk) is None
    client.force_login(member)
    assert "puzzle-rating-chart" not in client.get(reverse("accounts:profile", args=["solver"])).content.decode()
    first, second = puzzles[0], puzzles[1]
    ratings = []
    for puzzle, play in ((first, _right(first)), (first, _right(first)), (second, _wrong(second))):
        reply = client.post(reverse("puzzles:solve", args=[puzzle.pk]), {"tile": play[0], "end": play[1]}).json()
        if reply.get("rating"):
            ratings.append(reply["rating"]["after"])
    history = selectors.rating_history(member.pk)
    assert history is not None
    assert [value for _moment, value, _correct in history["points"]] == ratings  # the repeat is not rated
    assert [correct for _moment, _value, correct in history["points"]] == [True, False]
    assert (history["start"], history["last"], history["solved"]) == (1500, ratings[-1], 1)
    for language, caption in (("en", "over 2 rated puzzles (1 solved)"), ("fr", "en 2 problèmes classés (résolus : 1)")):
        html = client.get(reverse("accounts:profile", args=["solver"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        chart = json.loads(html.split('<script id="puzzle-rating-chart" type="application/json">')[1].split("</script>")[0])
        assert chart["series"][0]["values"] == ratings
        assert caption in html


def _streak_page(client) -> int:
    page = client.get(reverse("puzzles:streak"))
    assert page.status_code == 200
    html = page.content.decode()
    return int(html.split('data-puzzle="')[1].split('"')[0])


def test_a_streak_rises_in_rating_until_the_first_wrong_answer(client, make_member, puzzles):
    assert len(puzzles) >= 3
    Puzzle.objects.filter(kind=Puzzle.Kind.INFER).delete()  # only the double-dummy ones here
    for n, puzzle in enumerate(puzzles):
        Puzzle.objects.filter(pk=puzzle.pk).update(mu=30.0 - n)  # the last made is the easiest
    by_id = {p.pk: p for p in puzzles}
    member = make_member("streaker")
    client.force_login(member)
    dealt = [_streak_page(client)]
    assert _streak_page(client) == dealt[0]  # the same until answered
    ratings = []
    for _ in range(2):
        ratings.append(Puzzle.objects.get(pk=dealt[-1]).mu)
        tile, end = _right(by_id[dealt[-1]])
        reply = client.post(
            reverse("puzzles:solve", args=[dealt[-1]]), {"tile": tile, "end": end, "streak": "1"}
        ).json()
        assert reply["streak"] == {"current": len(dealt), "best": len(dealt), "over": False}
        dealt.append(_streak_page(client))
    assert dealt[0] == puzzles[-1].pk  # the easiest first
    assert len(set(dealt)) == 3
    assert ratings[0] <= ratings[1] <= Puzzle.objects.get(pk=dealt[-1]).mu
    # An answer outside the streak does not count in it.
    other = next(p for p in puzzles if p.pk not in dealt)
    reply = client.post(
        reverse("puzzles:solve", args=[other.pk]),
        {"tile": _right(other)[0], "end": _right(other)[1], "streak": "1"},
    ).json()
    assert "streak" not in reply
    # The first wrong answer ends the run; the best is kept.
    tile, end = _wrong(by_id[dealt[-1]])
    reply = client.post(
        reverse("puzzles:solve", args=[dealt[-1]]), {"tile": tile, "end": end, "streak": "1"}
    ).json()
    assert reply["streak"] == {"current": 2, "best": 2, "over": True}
    assert PuzzleRating.objects.get(user=member).best_streak == 2
    assert _streak_page(client) == puzzles[-1].pk  # a new run starts from the easiest
    html = client.get(reverse("puzzles:streak"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Série de problèmes" in html
    assert 'data-best-streak="2"' in html
    profile = client.get(
        reverse("accounts:profile", args=["streaker"]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert 'data-profile-best-streak="2"' in profile
    assert "Meilleure série de problèmes : 2 d\u2019affilée." in profile
    # A shorter run does not lower the best.
    tile, end = _wrong(puzzles[-1])
    reply = client.post(
        reverse("puzzles:solve", args=[puzzles[-1].pk]), {"tile": tile, "end": end, "streak": "1"}
    ).json()
    assert reply["streak"] == {"current": 0, "best": 2, "over": True}
    assert "2" in reply["streak_text"]


def test_a_guests_streak_and_best_are_kept_in_its_session(client, puzzles):
    Puzzle.objects.filter(kind=Puzzle.Kind.INFER).delete()  # only the double-dummy ones here
    first = _streak_page(client)
    puzzle = Puzzle.objects.get(pk=first)
    tile, end = _right(puzzle)
    reply = client.post(
        reverse("puzzles:solve", args=[first]), {"tile": tile, "end": end, "streak": "1"}
    ).json()
    assert reply["streak"] == {"current": 1, "best": 1, "over": False}
    assert "Streak: 1 puzzle solved in a row." in reply["streak_text"]
    second = _streak_page(client)
    assert second != first
    tile, end = _wrong(Puzzle.objects.get(pk=second))
    reply = client.post(
        reverse("puzzles:solve", args=[second]), {"tile": tile, "end": end, "streak": "1"}
    ).json()
    assert reply["streak"]["over"]
    assert reply["streak"]["best"] == 1
    assert 'data-best-streak="1"' in client.get(reverse("puzzles:streak")).content.decode()
    assert not PuzzleRating.objects.exists()


def test_a_reviews_mistake_links_to_the_puzzle_made_at_its_position(client, puzzles):
    from games.models import Game, GameReview

    puzzle = puzzles[0]
    game = Game.objects.get(table_id=puzzle.table_id)
    wrong_tile, wrong_end = _wrong(puzzle)
    low, high = (int(n) for n in wrong_tile.split("-"))

    def move(seq: int, seat: int) -> dict[str, object]:
        return {
            "seq": seq,
            "seat": seat,
            "round": puzzle.round,
            "played": {"type": "play", "tile": [low, high], "end": wrong_end},
            "best": {"type": "play", "tile": puzzle.solution_tile, "end": puzzle.solution_ends[0]},
            "agrees": False,
            "cost": 12.0,
            "mistake": True,
            "options": [],
        }

    at_puzzle = puzzle.seq + 1  # the move played from the puzzle's position
    elsewhere = puzzle.seq + 3 if not Puzzle.objects.filter(table_id=puzzle.table_id, seq=puzzle.seq + 2).exists() else 1
    other_seat = (puzzle.to_move + 1) % puzzle.players
    data = {
        "moves": [move(at_puzzle, puzzle.to_move), move(elsewhere, other_seat)],
        "biggest": [at_puzzle, elsewhere],
        "summary": {},
        "computer": [],
    }
    GameReview.objects.create(game=game, status=GameReview.Status.READY, data=data)
    url = reverse("puzzles:puzzle", args=[puzzle.pk])
    html = client.get(f"/table/{game.table_id}/review/").content.decode()
    assert f'<a href="{url}" data-mistake-puzzle="{at_puzzle}">Solve it as a puzzle</a>' in html
    assert f'data-move-puzzle="{at_puzzle}"' in html
    assert f'data-mistake-puzzle="{elsewhere}"' not in html
    # The same position with another seat to move is not this puzzle.
    data["moves"][0]["seat"] = other_seat
    GameReview.objects.filter(game=game).update(data=data)
    assert "data-mistake-puzzle" not in client.get(f"/table/{game.table_id}/review/").content.decode()
    data["moves"][0]["seat"] = puzzle.to_move
    GameReview.objects.filter(game=game).update(data=data)
    french = client.get(f"/table/{game.table_id}/review/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le résoudre comme un problème" in french


VARIANTS = {
    # The draw game (its boneyard known to the solver), two players, to 50.
    "classic-draw": rules_for("classic-draw", players=2, target=50),
    # Pairs (the arena's team scoring), one round.
    "arena": rules_for("arena", teams=True, target=0),
}


def variant_puzzle(preset: str) -> Puzzle:
    """A play puzzle of ``preset`` with a losing play, from computer games at
    public tables (the first of its seeds that gives one: the same each run)."""
    for n in range(8):
        (game,) = services.play_computer_games(1, preset=preset, rules=VARIANTS[preset], seed=f"variant-{n}")
        for puzzle in services.search_game(game):
            if puzzle.kind != Puzzle.Kind.INFER and any(a["result"] != "win" for a in puzzle.alternatives):
                return puzzle
    raise AssertionError(f"eight {preset} games gave no puzzle with a losing play")


@pytest.mark.parametrize("preset", list(VARIANTS))
def test_a_puzzle_of_the_draw_game_and_of_pairs_is_drawn_solved_and_rebuilt_from_the_replay(client, preset):
    puzzle = variant_puzzle(preset)
    rules = VARIANTS[preset]
    assert (puzzle.preset, puzzle.players, puzzle.teams) == (preset, rules.players, rules.teams)
    if preset == "classic-draw":
        assert puzzle.position["boneyard"], "the draw game's puzzle shows its boneyard"
    html = client.get(reverse("puzzles:puzzle", args=[puzzle.pk])).content.decode()
    assert f'data-puzzle="{puzzle.pk}"' in html
    for tile in puzzle.position["hands"][puzzle.to_move]:
        assert f'data-tile="{tile[0]}-{tile[1]}"' in html
    url = reverse("puzzles:solve", args=[puzzle.pk])
    tile, end = _wrong_losing(puzzle)
    reply = client.post(url, {"tile": tile, "end": end}).json()
    assert reply["correct"] is False
    assert reply["solution"] == puzzle.line
    assert len(reply["alternatives"]) == len(puzzle.alternatives)
    tile, end = _right(puzzle)
    assert client.post(url, {"tile": tile, "end": end}).json()["correct"] is True
    rebuilt_from_the_replay(client, puzzle.pk)


def _wrong_losing(puzzle: Puzzle) -> tuple[str, str]:
    alt = next(a for a in puzzle.alternatives if a["result"] != "win")
    return f"{alt['tile'][0]}-{alt['tile'][1]}", alt["ends"][0]


def rebuilt_from_the_replay(client, puzzle_id: int) -> None:
    """What anyone can do: fetch the source table's published replay, check it,
    replay its events up to the puzzle's seq, and find the puzzle's position
    with the solution among the plays of the seat to move."""
    data = client.get(f"/puzzles/{puzzle_id}.json").json()
    replay = client.get(f"/table/{data['source_table']}/replay.json").json()
    verify_replay(replay)  # the file's chain, seed and signature
    _head, events = replay_module._check_chain(replay, replay["actions"], {})
    seed, _salted = replay_module._check_seed(replay)
    state = new_game(Rules.from_dict(dict(replay["rules"])), seed)
    for index, (frame, event) in enumerate(zip(replay["actions"], events, strict=True), start=1):
        if frame["seq"] > data["seq"]:
            break
        state = replay_module._apply(state, event, index)  # the verifier's step (a round's deal implicit)
    puzzle = Puzzle.objects.get(pk=data["id"])
    assert services.position_of(state) == puzzle.position
    assert state.to_move == data["to_move"]
    plays = [
        ([action.tile.low, action.tile.high], action.end)
        for action in legal_actions(state)
        if isinstance(action, Play)
    ]
    solution = data["solution"]
    assert (solution["tile"], solution["end"]) in plays or (
        not state.line and solution["tile"] in [tile for tile, _end in plays]
    )


@pytest.mark.parametrize(("language", "nav", "csv_text"), [("en", ">Puzzles<", "Download every puzzle (CSV)"),
                                                          ("fr", ">Problèmes<", "Télécharger tous les problèmes (CSV)")])
def test_the_puzzles_are_found_from_the_nav_their_pages_and_the_profile(
    client, make_member, puzzles, language, nav, csv_text
):
    home = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'href="{reverse("puzzles:next")}" data-nav-puzzles{nav}' in home
    page = client.get(reverse("puzzles:next"), follow=True, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'href="{reverse("puzzles:export")}" data-puzzle-export download>{csv_text}' in page
    assert "data-puzzle-history-link" not in page  # a guest has no history page
    member = make_member("finder")
    client.force_login(member)
    page = client.get(reverse("puzzles:puzzle", args=[puzzles[0].pk])).content.decode()
    assert f'href="{reverse("puzzles:history")}" data-puzzle-history-link' in page
    history = client.get(reverse("puzzles:history")).content.decode()
    assert "data-puzzle-export" in history
    tile, end = _right(puzzles[0])
    client.post(reverse("puzzles:solve", args=[puzzles[0].pk]), {"tile": tile, "end": end})
    profile = client.get(reverse("accounts:profile", args=["finder"])).content.decode()
    assert f'href="{reverse("puzzles:history")}" data-puzzle-history-link' in profile
    # Not on another member's profile: the history is the viewer's own.
    client.force_login(make_member("other"))
    assert "data-puzzle-history-link" not in client.get(reverse("accounts:profile", args=["finder"])).content.decode()


def test_no_puzzle_yet_still_links_the_file(client):
    page = client.get(reverse("puzzles:next"), follow=True).content.decode()
    assert "data-no-puzzle" in page
    assert "data-puzzle-export" in page
