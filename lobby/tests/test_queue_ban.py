"""Fair conduct (docs/moderation.md): games left are counted, three in a day
keep the member out of the queues for a while (ranked and rooms, socket and
pages), told why and until when; the ban lifts on time; resigning is not
leaving; a room game left is still settled as it ends; the completion rate
on the profile."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from accounts import selectors as account_selectors
from accounts.models import Abandonment, Profile
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.play import services as game_services
from games.tests.helpers import play_out, play_past_the_opening, ranked_table
from games.timers import expiry, stand_ins
from lobby import chips, room_tables, services
from lobby.models import ChipWallet, QueueEntry, RoomTable
from lobby.tests.test_lobby import connect, member, receive_type

pytestmark = [pytest.mark.usefixtures("computer_queue")]


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def logged_in(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def leave_games(leaver, opponent, count: int) -> None:
    """``leaver`` walks out of ``count`` ranked duels (the clock ends each)."""
    for _ in range(count):
        table = ranked_table([leaver, opponent])
        play_past_the_opening(table)
        expiry.abandon(game_id=table.game.pk, seat=0)


def frozen_at(monkeypatch, moment: datetime) -> None:
    monkeypatch.setattr(timezone, "now", lambda: moment)


@pytest.mark.django_db
def test_three_games_left_in_a_day_keep_the_member_out_of_the_queues_until_the_ban_ends(make_member, monkeypatch, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    with commit():
        leave_games(alice, bob, 2)
    services.join_queue(user=alice, mode="duel-block")  # two: still welcome
    services.leave_queue(user_id=alice.pk)
    with commit():
        leave_games(alice, bob, 1)
    third = Abandonment.objects.filter(user=alice).latest("at").at
    assert Abandonment.objects.filter(user=alice).count() == Profile.objects.get(user=alice).abandoned == 3
    with pytest.raises(room_tables.QueueBanned) as refused:
        services.join_queue(user=alice, mode="duel-block")
    assert refused.value.until == third + timedelta(minutes=10)
    assert "You left 3 games in the last 24 hours: you may not queue until" in refused.value.message
    with pytest.raises(room_tables.QueueBanned):
        room_tables.join_room_queue(user=alice, room="passport", mode="duel-block")
    with pytest.raises(room_tables.QueueBanned):  # nor sit at a room's table
        room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    assert not QueueEntry.objects.exists()
    services.join_queue(user=bob, mode="duel-block")  # the other player is not touched
    # The ranked page says why and until when, in English and in French.
    page = logged_in(alice).get("/ranked/").content.decode()
    assert "data-queue-ban" in page
    assert "You left 3 games in the last 24 hours" in page
    french = logged_in(alice, "fr").get("/ranked/").content.decode()
    assert "Vous avez quitté 3 parties ces dernières 24 heures" in french
    assert "data-queue-ban" not in logged_in(bob).get("/ranked/").content.decode()
    # A second before the end it holds; at the end it is lifted.
    frozen_at(monkeypatch, third + timedelta(minutes=10, seconds=-1))
    with pytest.raises(room_tables.QueueBanned):
        services.join_queue(user=alice, mode="duel-block")
    frozen_at(monkeypatch, third + timedelta(minutes=10))
    assert account_selectors.queue_ban(alice.pk) is None
    assert services.join_queue(user=alice, mode="duel-block").mode == "duel-block"
    assert "data-queue-ban" not in logged_in(alice).get("/ranked/").content.decode()


@pytest.mark.django_db
def test_a_fourth_game_left_in_the_day_bans_for_an_hour(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    with commit():
        leave_games(alice, bob, 4)
    fourth = Abandonment.objects.filter(user=alice).latest("at").at
    ban = account_selectors.queue_ban(alice.pk)
    assert ban is not None
    assert (ban.until, ban.abandoned_recently) == (fourth + timedelta(hours=1), 4)


@pytest.mark.django_db
def test_resigning_is_not_leaving(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    for _ in range(4):
        table = ranked_table([alice, bob])
        play_past_the_opening(table)
        with commit():
            game_services.resign(game_id=table.game.pk, seat=0)
    assert not Abandonment.objects.exists()
    assert Profile.objects.get(user=alice).abandoned == 0
    assert account_selectors.queue_ban(alice.pk) is None
    services.join_queue(user=alice, mode="duel-block")
    assert account_selectors.completion(alice).percent == 100


def let_the_clock_play(alice, bob, *, turns: int) -> bool:
    """A ranked duel in which alice's clock runs out ``turns`` turns in a row (the
    server plays them) while bob plays his own; False if the deal ended its single
    round before alice had that many turns (a random deal may block early)."""
    table = ranked_table([alice, bob])
    game = Game.objects.get(table=table)
    timed_out = 0
    while timed_out < turns:
        game.refresh_from_db()
        state = game_selectors.game_state(game)
        assert state is not None
        if state.game_over:
            return False
        if state.to_move is None:
            game_services.start_next_round(game_id=game.pk, seat=None, expected_seq=game.seq)
        elif state.to_move == 0:
            assert stand_ins.play_for(game_id=game.pk, seat=0, by="server")  # alice's clock ran out
            timed_out += 1
        else:
            stand_ins.play_for(game_id=game.pk, seat=1, by="")  # bob plays his turn himself
    game.refresh_from_db()
    if not game.finished:
        game_services.resign(game_id=game.pk, seat=1)
    return True


@pytest.mark.django_db
def test_letting_the_clock_play_three_turns_in_a_row_counts_as_leaving(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    # In one capture of the after-commit work: the game's end is what counts the
    # abandonment. A deal too short for three turns of alice's counts nothing, and
    # another is dealt.
    with commit():
        short = 0
        while not let_the_clock_play(alice, bob, turns=3):
            short += 1
            assert short < 20, "twenty deals in a row ended before alice's third turn"
            assert not Abandonment.objects.exists()
    assert list(Abandonment.objects.values_list("user__username", "seat", "kind")) == [("alice", 0, "timeouts")]


@pytest.mark.django_db
def test_a_room_game_left_is_still_settled_as_it_ends(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = room_tables.open_table(owner=alice, room="passport", kind="duel", target=0)
    room_tables.join_table(table_id=table.pk, user=bob)
    stake = RoomTable.objects.get(pk=table.pk).stake
    play_past_the_opening(table)
    with commit():
        expiry.abandon(game_id=table.game.pk, seat=0)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    settled = RoomTable.objects.get(pk=table.pk)
    assert settled.settled_at is not None
    assert ChipWallet.objects.get(user=alice).balance == 1000 - stake  # the leaver's stake is lost
    assert ChipWallet.objects.get(user=bob).balance > 1000
    assert chips.totals().balanced
    assert list(Abandonment.objects.values_list("user__username", flat=True)) == ["alice"]


@pytest.mark.django_db
def test_the_profile_shows_the_completion_rate_in_both_languages(make_member, commit) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    with commit():
        play_out(ranked_table([alice, bob]), seed=3)
        leave_games(alice, bob, 1)
    completion = account_selectors.completion(alice)
    assert (completion.started, completion.finished, completion.percent) == (2, 1, 50)
    assert account_selectors.completion(bob).percent == 100
    page = Client(headers={"accept-language": "en"}).get("/u/alice/").content.decode()
    assert "Games completed: 50%" in page
    french = Client(headers={"accept-language": "fr"}).get("/u/alice/").content.decode()
    assert "Parties menées à leur fin : 50 %" in french


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_socket_refuses_a_banned_member_with_queue_ban_and_until() -> None:
    alice, bob = await member("alice"), await member("bob")
    await database_sync_to_async(leave_games)(alice, bob, 3)
    ban = await database_sync_to_async(account_selectors.queue_ban)(alice.pk)
    assert ban is not None
    lobby = await connect(alice)
    for frame in (
        {"type": "queue", "mode": "duel-block"},
        {"type": "queue", "room": "passport", "mode": "duel-block"},
    ):
        await lobby.send_json_to(frame)
        refused = await receive_type(lobby, "error")
        assert refused["code"] == "queue_ban"
        assert datetime.fromisoformat(refused["until"]) == ban.until
        assert "you may not queue until" in refused["message"]
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0
    await lobby.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_socket_refuses_a_bot_and_stays_usable() -> None:
    """A bot account's ``queue`` frame is answered ``bot_not_allowed`` and nothing
    else: no queue entry, no ``queued`` frame (the refusal ends the handler)."""
    from accounts import services as account_services

    robot = await member("robot")
    await database_sync_to_async(account_services.become_bot)(user=robot)
    lobby = await connect(robot)
    await lobby.send_json_to({"type": "queue", "mode": "duel-block"})
    refused = await receive_type(lobby, "error")
    assert refused["code"] == "bot_not_allowed"
    # Nothing follows the refusal: no ``queued``, no second error of a handler that went on.
    assert await lobby.receive_nothing(timeout=1)
    assert await database_sync_to_async(QueueEntry.objects.count)() == 0
    await lobby.disconnect()
