"""The computer's turns: the idempotent task, the dispatch and the sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import jobs
from games.engine import PlayerView, legal_actions, view_for
from games.models import Game, Move
from games.play import resume, selectors, services
from games.tasks import compute_ai_move, sweep_stalled_games
from games.tests.factories import ComputerSeatFactory, GuestSeatFactory, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def computer_to_move_game(**options) -> Game:
    """A guest against a computer, dealt until the computer acts first."""
    for _ in range(100):
        table = make_table(seats=[GuestSeatFactory.build(), ComputerSeatFactory.build()], **options)
        game = Game.objects.get(table=table)
        if game.to_move == 1:
            return game
    raise AssertionError("the computer never moved first")


def test_called_twice_the_task_plays_once() -> None:
    game = computer_to_move_game()
    assert compute_ai_move(game.pk, 0) == "played"
    assert compute_ai_move(game.pk, 0) == "nothing"
    move = Move.objects.get(game=game)
    assert move.seq == 1
    assert move.seat == 1
    assert move.payload["by"] == "computer"


def test_a_stale_seq_or_a_persons_turn_does_nothing() -> None:
    game = computer_to_move_game()
    assert compute_ai_move(game.pk, 5) == "nothing"
    assert compute_ai_move(game.pk, -1) == "nothing"
    assert not Move.objects.filter(game=game).exists()
    assert compute_ai_move(game.pk, 0) == "played"
    game.refresh_from_db()
    while game.to_move == 1:  # the computer drew: it goes on
        compute_ai_move(game.pk, game.seq)
        game.refresh_from_db()
    count = Move.objects.filter(game=game).count()
    assert compute_ai_move(game.pk, game.seq) == "nothing"  # the guest's turn
    assert Move.objects.filter(game=game).count() == count
    assert compute_ai_move(123_456, 0) == "nothing"  # no such game


def test_a_finished_game_is_left_alone() -> None:
    game = computer_to_move_game()
    services.resign(game_id=game.pk, seat=0)
    game.refresh_from_db()
    assert compute_ai_move(game.pk, game.seq) == "nothing"
    assert Move.objects.filter(game=game).count() == 1


def test_the_computer_reads_its_seats_view_only(monkeypatch) -> None:
    game = computer_to_move_game()
    state = selectors.game_state(game)
    seen = {}

    def spy(view, level, *, seed=None, budget_ms=None):
        seen.update(view=view, level=level, seed=seed)
        return view.legal[0]

    monkeypatch.setattr("games.ai.choose_action", spy)
    compute_ai_move(game.pk, 0)
    assert isinstance(seen["view"], PlayerView)
    assert seen["view"] == view_for(state, 1)
    assert seen["level"] == "easy"
    assert seen["seed"] == selectors.ai_seed(game, 0)
    assert Move.objects.get(game=game).kind == type(legal_actions(state)[0]).__name__.lower()


def test_the_pause_counts_the_time_already_spent(settings) -> None:
    settings.AI_MOVE_DELAY_MS = 800
    game = computer_to_move_game()
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(milliseconds=300))
    decision = services.decide_computer_turn(game_id=game.pk, seq=0)
    assert 0 < decision.wait_ms <= 500  # 800 ms minus the 300 ms (and more) already gone
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=5))
    assert services.decide_computer_turn(game_id=game.pk, seq=0).wait_ms == 0  # already late


def test_the_pause_is_slept_by_a_worker_and_timed_in_the_embedded_mode(settings, monkeypatch) -> None:
    settings.AI_MOVE_DELAY_MS = 800
    game = computer_to_move_game()
    slept, timers = [], []
    monkeypatch.setattr("games.tasks.time.sleep", slept.append)
    monkeypatch.setattr(services, "apply_computer_turn_later", timers.append)
    settings.GAMES_DISPATCH = "thread"
    assert compute_ai_move(game.pk, 0) == "scheduled"
    assert slept == []
    assert timers[0].seat == 1
    assert 0 < timers[0].wait_ms <= 800
    assert not Move.objects.filter(game=game).exists()  # shown once the pause is over
    assert services.apply_computer_turn(timers[0]) == "played"
    assert services.apply_computer_turn(timers[0]) == "nothing"  # late or repeated: nothing more
    worker_game = computer_to_move_game()
    settings.GAMES_DISPATCH = "celery"
    assert compute_ai_move(worker_game.pk, 0) == "played"
    assert len(slept) == 1
    assert 0 < slept[0] <= 0.8
    assert Move.objects.get(game=worker_game, seq=1).seat == 1


def test_a_table_without_people_deals_the_next_round_itself(computer_queue, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = make_table(preset="classic-block", target=100, seats=ComputerSeatFactory.build_batch(2))
    game = Game.objects.get(table=table)
    results = []
    for _ in range(500):
        if not computer_queue.PENDING:
            break
        with django_capture_on_commit_callbacks(execute=True):
            game_id, seq = computer_queue.PENDING.popleft()
            results.append(compute_ai_move(game_id, seq))
    game.refresh_from_db()
    assert game.finished
    assert "dealt" in results  # block game to 100: several rounds, dealt by the server
    assert Move.objects.filter(game=game, kind="next_round", seat=None).count() == results.count("dealt")


def test_the_sweep_requeues_only_games_waiting_for_a_computer(computer_queue) -> None:
    waiting = computer_to_move_game()
    person_turn = Game.objects.get(table=make_table(seats=GuestSeatFactory.build_batch(2)))
    finished = computer_to_move_game()
    services.resign(game_id=finished.pk, seat=0)
    fresh = computer_to_move_game()
    long_ago = timezone.now() - timedelta(minutes=5)
    Game.objects.exclude(pk=fresh.pk).update(updated_at=long_ago)
    computer_queue.PENDING.clear()
    assert sweep_stalled_games() == 1
    assert list(computer_queue.PENDING) == [(waiting.pk, 0)]
    computer_queue.PENDING.clear()
    assert sweep_stalled_games(idle_seconds=0) == 2  # the fresh one too, with no threshold
    assert {job[0] for job in computer_queue.PENDING} == {waiting.pk, fresh.pk}
    assert person_turn.pk not in {job[0] for job in computer_queue.PENDING}


def test_resume_game_requeues_a_stalled_game_once_a_socket_connects(computer_queue) -> None:
    game = computer_to_move_game()
    computer_queue.PENDING.clear()
    assert resume.resume_game(game.pk) is False  # it just moved: its task may be on its way
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=1))
    assert resume.resume_game(game.pk) is True
    assert list(computer_queue.PENDING) == [(game.pk, 0)]


def test_with_a_broker_the_turn_goes_to_celery(settings, monkeypatch) -> None:
    settings.GAMES_DISPATCH = "auto"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(compute_ai_move, "apply_async", lambda args: sent.append(args))
    jobs.queue_computer_turn(7, 3)
    assert sent == [(7, 3)]

    def broker_down(args):
        raise ConnectionError("no broker")

    monkeypatch.setattr(compute_ai_move, "apply_async", broker_down)
    jobs.queue_computer_turn(7, 4)  # logged; the sweep will requeue it


def test_embedded_mode_uses_the_thread_pool(settings) -> None:
    settings.GAMES_DISPATCH = "auto"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert jobs.mode() == "thread"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert jobs.mode() == "celery"


def test_the_sweep_deals_for_tables_without_people_between_rounds(computer_queue) -> None:
    def to_round_end(table) -> Game:
        game = Game.objects.get(table=table)
        state = selectors.game_state(game)
        while not state.round_over:
            outcome = services.play_move(
                game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=game.seq
            )
            state = outcome.state
            game.refresh_from_db()
        return game

    computers = to_round_end(make_table(preset="classic-block", target=100, seats=ComputerSeatFactory.build_batch(2)))
    with_a_person = to_round_end(
        make_table(preset="classic-block", target=100, seats=[GuestSeatFactory.build(), ComputerSeatFactory.build()])
    )
    Game.objects.update(updated_at=timezone.now() - timedelta(minutes=5))
    computer_queue.PENDING.clear()
    assert sweep_stalled_games() == 1
    assert list(computer_queue.PENDING) == [(computers.pk, computers.seq)]
    assert with_a_person.round_over
    assert not with_a_person.finished
