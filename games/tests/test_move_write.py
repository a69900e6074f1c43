"""The move's write: two statements, conditional on the game's seq, with the
game kept in the process between moves (games.play.live_games).

What must hold: of two moves made at once exactly one is stored; an entry
this process kept is never trusted over the database (a move or an abort
made elsewhere is found out by the write, which then changes nothing); the
facts sent with a move are the stored ones (a draw offer made elsewhere).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from unittest.mock import patch

import pytest
from django.db import connection

from games.engine import legal_actions
from games.models import Game, Move
from games.play import live_games as live
from games.play import selectors, services
from games.play.services import moves as play_module
from games.tests.factories import make_table

pytestmark = [pytest.mark.usefixtures("computer_queue")]


def fresh_game(**options) -> Game:
    return Game.objects.get(table=make_table(**options))


def state_of(game: Game):
    game.refresh_from_db()
    return selectors.game_state(game)


def move_at(game: Game, django_capture_on_commit_callbacks, index: int = 0) -> services.Outcome:
    state = state_of(game)
    action = legal_actions(state)[index]
    with django_capture_on_commit_callbacks(execute=True):
        return services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=game.seq)


def kept_entry(game: Game) -> live.LiveGame:
    """This process's entry of ``game``, taken out (put it back with ``live.keep``)."""
    kept = live.take(game.pk)
    assert kept is not None
    return kept


@pytest.mark.django_db
def test_the_process_keeps_the_game_after_a_move_and_a_move_made_elsewhere_is_found_out(
    django_capture_on_commit_callbacks, sent
) -> None:
    game = fresh_game()
    move_at(game, django_capture_on_commit_callbacks)
    kept = kept_entry(game)
    assert kept.seq == 1
    # Another process plays move 2: this process's entry stays at move 1.
    stale = replace(kept, game=Game.objects.select_related("table").get(pk=game.pk))
    move_at(game, django_capture_on_commit_callbacks)
    live.forget(game.pk)
    live.keep(stale)
    state = selectors.game_state(stale.game)
    with pytest.raises(services.StaleSeq) as refused:
        services.play_move(
            game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=1
        )
    assert refused.value.current == 2
    assert list(Move.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    assert live.take(game.pk) is None  # the stale entry is dropped
    # The next move, at the right seq, reads the database and is stored.
    outcome = move_at(game, django_capture_on_commit_callbacks)
    assert outcome.seq == 3
    game.refresh_from_db()
    assert selectors.rebuild_state(game) == selectors.game_state(game)


@pytest.mark.django_db
def test_an_abort_made_elsewhere_refuses_the_next_move_of_a_kept_game(
    django_capture_on_commit_callbacks, sent
) -> None:
    game = fresh_game()
    move_at(game, django_capture_on_commit_callbacks)
    kept = kept_entry(game)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.abort_game(game_id=game.pk)
    live.keep(kept)  # as if the abort had been made by another process
    with pytest.raises(services.GameNotLive):
        services.play_move(
            game_id=game.pk, seat=kept.state.to_move, action=legal_actions(kept.state)[0], expected_seq=1
        )
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.seq == 1


@pytest.mark.django_db
def test_a_move_carries_the_stored_draw_offers_not_the_kept_ones(
    django_capture_on_commit_callbacks, sent
) -> None:
    game = fresh_game(players=3)
    move_at(game, django_capture_on_commit_callbacks)
    # A draw offer is stored without a move (here, or in another process):
    # the game this process kept still says there is none.
    with django_capture_on_commit_callbacks(execute=True):
        services.offer_draw(game_id=game.pk, seat=2)
    kept = kept_entry(game)
    assert kept.game.draw_offers == []
    live.keep(kept)
    outcome = move_at(game, django_capture_on_commit_callbacks)
    assert outcome.facts["draw_offers"] == [2]
    assert all(message["table"]["draw_offers"] == [2] for message in outcome.messages.values())


@pytest.mark.django_db
def test_a_refused_move_leaves_the_kept_game_as_it_was(django_capture_on_commit_callbacks, sent) -> None:
    game = fresh_game()
    move_at(game, django_capture_on_commit_callbacks)
    state = state_of(game)
    other = next(seat for seat in range(state.rules.players) if seat != state.to_move)
    action = next(a for a in legal_actions(state))
    with pytest.raises(services.NotYourTurn):
        services.play_move(game_id=game.pk, seat=other, action=replace(action, seat=other), expected_seq=1)
    kept = kept_entry(game)
    assert kept.seq == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_of_two_moves_made_at_once_exactly_one_is_stored_on_postgresql(monkeypatch) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): row locks between two connections")
    game = fresh_game()
    state = state_of(game)
    actions = legal_actions(state)
    # Both moves get past their reads before either writes.
    both_read = threading.Barrier(2, timeout=20)
    frames = play_module.broadcast.move_frames_by_viewer

    def after_reading(**kwargs):
        both_read.wait()
        return frames(**kwargs)

    monkeypatch.setattr(play_module.broadcast, "move_frames_by_viewer", after_reading)
    monkeypatch.setattr(play_module.broadcast, "_send", lambda batch: None)
    results: list[object] = []

    def move(index: int) -> None:
        try:
            action = actions[index % len(actions)]
            results.append(
                services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=0)
            )
        except services.GameError as error:
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=move, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    stored = [result for result in results if isinstance(result, services.Outcome)]
    refused = [result for result in results if isinstance(result, services.StaleSeq)]
    assert len(stored) == 1, results
    assert len(refused) == 1, results
    assert refused[0].current == 1
    game.refresh_from_db()
    assert game.seq == 1
    assert list(Move.objects.filter(game=game).values_list("seq", flat=True)) == [1]
    assert selectors.rebuild_state(game) == selectors.game_state(game)


@pytest.mark.django_db(transaction=True)
def test_game_finished_receivers_see_the_game_as_stored(sent) -> None:
    # Autocommit, as in production: game_finished is sent when the move's
    # own transaction commits.
    from games.signals import game_finished

    game = fresh_game()
    state = state_of(game)
    services.play_move(game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=0)
    kept = live.take(game.pk)
    assert kept is not None  # the game was kept by this process
    live.keep(kept)
    seen: list[tuple[int, str, object]] = []

    def receiver(sender, game, table, **kwargs) -> None:
        seen.append((game.seq, game.chain, game.state))

    game_finished.connect(receiver)
    try:
        services.resign(game_id=game.pk, seat=0, expected_seq=1)
    finally:
        game_finished.disconnect(receiver)
    game.refresh_from_db()
    assert seen == [(2, game.chain, game.state)]


@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_reads_a_live_game_keeps_it_for_the_first_move() -> None:
    """After a restart every socket reads its game to send the state: the
    first move then finds it kept instead of reading it again."""
    from channels.db import database_sync_to_async

    from games.tests.sockets import Socket, new_session
    from games.tests.test_consumers import seated_pair

    table_id, game_id, (p0, p1), _ = await seated_pair()
    live.clear()  # as in a process that has just started
    watcher = Socket(table_id, session_key=await new_session())
    with patch("games.play.selectors.load_state", wraps=selectors.load_state) as decode:
        await watcher.connect()
    assert decode.call_count == 1  # the frames and the kept game share one decoded state
    kept = live.take(game_id)
    assert kept is not None
    assert kept.table.pk == table_id
    assert kept.seq == (await database_sync_to_async(Game.objects.get)(pk=game_id)).seq
    assert kept.seats.humans == frozenset({0, 1})
    for sock in (watcher, p0, p1):
        await sock.close()
