"""The table chat over the real table socket (config.asgi: origin check,
sessions, auth): two members seated, a member and a guest watching."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from community import selectors, services
from community.models import ChatLine
from games.tests.helpers import ranked_table
from games.tests.sockets import Socket, new_session_key

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_queue")]


def _member_session(username: str) -> tuple[Any, str]:
    user = get_user_model().objects.create_user(username=username, password="secret-pass-123")
    client = Client()
    client.force_login(user)
    return user, client.cookies[settings.SESSION_COOKIE_NAME].value


@database_sync_to_async
def _table(*names: str) -> tuple[int, list[Any], list[str]]:
    users, keys = zip(*(_member_session(name) for name in names), strict=True)
    table = ranked_table(list(users[:2]))
    return table.pk, list(users), list(keys)


KEYS: dict[str, str] = {}


def _other_table_line(watcher: Any) -> tuple[int, tuple[int, ...]]:
    """Another table (Dan and Eve playing), where ``watcher`` writes a line
    in the spectators' chat: its id and who the line is hidden from."""
    table = ranked_table([get_user_model().objects.create_user(name) for name in ("dan", "eve")])
    delivery = services.say(table_id=table.pk, game_id=None, seat=None, user_id=watcher.pk, text="over here")
    return table.pk, delivery.hidden_from


async def _at_table() -> tuple[int, list[Any], dict[str, Socket]]:
    """Ada and Bob seated, Cleo (a member) and a guest watching; their
    session keys in ``KEYS``."""
    table_id, users, keys = await _table("ada", "bob", "cleo")
    KEYS.update(zip(("ada", "bob", "cleo"), keys, strict=True))
    sockets = {
        "ada": Socket(table_id, session_key=keys[0]),
        "bob": Socket(table_id, session_key=keys[1]),
        "cleo": Socket(table_id, session_key=keys[2]),  # a member watching
        "guest": Socket(table_id, session_key=await database_sync_to_async(new_session_key)()),
    }
    for sock in sockets.values():
        await sock.connect()
        await sock.drain(0.1)
    return table_id, users, sockets


def _chats(sock: Socket) -> list[dict[str, Any]]:
    return [frame for frame in sock.frames if frame["type"] == "chat"]


async def _close(sockets: dict[str, Socket]) -> None:
    for sock in sockets.values():
        await sock.close()


async def test_players_and_spectators_chat_apart_and_a_guest_only_reads() -> None:
    _table_id, _users, s = await _at_table()
    await s["ada"].send({"type": "chat", "text": "<b>hello</b> bob"})
    line = await s["bob"].until("chat")
    assert {k: line[k] for k in ("type", "from", "text", "room")} == {
        "type": "chat", "from": "ada", "text": "<b>hello</b> bob", "room": "players",
    }
    assert (await s["ada"].until("chat"))["id"] == line["id"]
    await s["cleo"].send({"type": "chat", "text": "nice game"})
    watched = await s["guest"].until("chat")
    assert (watched["from"], watched["room"]) == ("cleo", "spectators")
    await s["cleo"].until("chat")
    # The guest reads, never writes; nothing is stored of it.
    await s["guest"].send({"type": "chat", "text": "hi all"})
    error = await s["guest"].until("error")
    assert (error["code"], error["reason"]) == ("not_allowed", "chat")
    for sock in s.values():
        await sock.drain(0.2)
    # The spectators never saw the players' line, the players never the spectators'.
    assert [f["from"] for f in _chats(s["cleo"])] == ["cleo"]
    assert [f["from"] for f in _chats(s["guest"])] == ["cleo"]
    assert [f["from"] for f in _chats(s["bob"])] == ["ada"]
    assert await database_sync_to_async(lambda: sorted(ChatLine.objects.values_list("room", "text")))() == [
        ("players", "<b>hello</b> bob"), ("spectators", "nice game"),
    ]
    await _close(s)


async def test_a_new_socket_catches_up_on_its_room_s_last_lines() -> None:
    table_id, _users, s = await _at_table()
    await s["ada"].send({"type": "chat", "text": "good luck"})
    await s["bob"].until("chat")
    await s["cleo"].send({"type": "chat", "text": "go ada"})
    await s["cleo"].until("chat")
    again = Socket(table_id, session_key=KEYS["bob"])
    await again.connect()
    # Waited for (a fixed window misses it on a busy machine), then anything more.
    await again.through("chat", text="good luck")
    await again.drain(0.2)
    assert [(f["from"], f["text"]) for f in _chats(again)] == [("ada", "good luck")]
    await again.close()
    await _close(s)


async def test_a_muted_member_s_lines_no_longer_reach_who_muted_them_at_this_table() -> None:
    _table_id, _users, s = await _at_table()
    await s["bob"].send({"type": "chat_mute", "user": "ada", "mute": True})
    assert await s["bob"].until("chat_muted") == {"type": "chat_muted", "user": "ada", "mute": True}
    await s["ada"].send({"type": "chat", "text": "can you hear me"})
    await s["ada"].until("chat")
    assert not [f for f in await s["bob"].drain() if f["type"] == "chat"]
    await s["bob"].send({"type": "chat_mute", "user": "nobody-here", "mute": True})
    assert (await s["bob"].until("error"))["reason"] == "chat_mute"
    await s["bob"].send({"type": "chat_mute", "user": "ada", "mute": False})
    await s["bob"].until("chat_muted", mute=False)
    await s["ada"].send({"type": "chat", "text": "and now"})
    assert (await s["bob"].until("chat"))["text"] == "and now"
    await _close(s)


async def test_a_troll_s_lines_reach_only_themselves_live_and_in_the_catch_up() -> None:
    table_id, users, s = await _at_table()
    moderator = await database_sync_to_async(get_user_model().objects.create_user)("mod", is_staff=True)
    await database_sync_to_async(services.mark_troll)(member=users[0], moderator=moderator, reason="spam")
    await s["ada"].send({"type": "chat", "text": "buy chips at my site"})
    mine = await s["ada"].until("chat")
    assert mine["text"] == "buy chips at my site"  # the troll sees their line as usual
    got = await s["bob"].drain()
    assert not [f for f in got if f["type"] == "chat"], got
    assert not _chats(s["cleo"])
    assert not _chats(s["guest"])
    bob_key = KEYS["bob"]
    ada_key = KEYS["ada"]
    bob_again, ada_again = Socket(table_id, session_key=bob_key), Socket(table_id, session_key=ada_key)
    for sock in (bob_again, ada_again):
        await sock.connect()
    await ada_again.until("chat")  # the troll's catch-up carries their line (bob's, after it, would too)
    for sock in (bob_again, ada_again):
        await sock.drain(0.2)
    assert _chats(bob_again) == []
    assert [f["text"] for f in _chats(ada_again)] == ["buy chips at my site"]
    for sock in (bob_again, ada_again):
        await sock.close()
    await _close(s)


async def test_a_blocked_member_s_lines_are_hidden_from_the_blocker_who_is_not_told() -> None:
    table_id, users, s = await _at_table()
    # Before the block, Bob reads Ada; the block is made while his socket is
    # open and applies to every line sent afterwards (worked out per line).
    await s["ada"].send({"type": "chat", "text": "before the block"})
    assert (await s["bob"].until("chat"))["text"] == "before the block"
    await s["ada"].until("chat")
    await database_sync_to_async(services.block)(blocker=users[1], blocked=users[0])
    await s["ada"].send({"type": "chat", "text": "hello bob"})
    line = await s["ada"].until("chat")  # ada sees her line as always: nothing tells her
    assert line["text"] == "hello bob"
    assert not [f for f in await s["bob"].drain() if f["type"] == "chat"]
    bob_key = KEYS["bob"]
    again = Socket(table_id, session_key=bob_key)
    await again.connect()
    await again.drain(0.2)
    assert _chats(again) == []
    await again.close()
    await _close(s)


async def test_blocking_tells_the_blocker_s_open_tables_to_drop_the_lines_and_nobody_else() -> None:
    _table_id, users, s = await _at_table()
    await s["ada"].send({"type": "chat", "text": "a line bob already shows"})
    await s["bob"].until("chat")
    for sock in s.values():
        await sock.drain()
    # Bob blocks Ada from her profile (an HTTP request): his table socket
    # hears it at once; Ada, Cleo and the guest get nothing.
    await database_sync_to_async(services.block)(blocker=users[1], blocked=users[0])
    assert await s["bob"].until("chat_blocked") == {"type": "chat_blocked", "user": "ada"}
    for name in ("ada", "cleo", "guest"):
        assert await s[name].nothing_more(), name
    await _close(s)


async def test_bad_chat_frames_are_refused_and_nothing_is_stored() -> None:
    _table_id, _users, s = await _at_table()
    for frame in ({"type": "chat"}, {"type": "chat", "text": ["x"]}, {"type": "chat", "text": "   "},
                  {"type": "chat", "text": "x" * 141}):
        await s["ada"].send(frame)
        error = await s["ada"].until("error")
        assert (error["code"], error["reason"]) == ("bad_frame", "chat")
    assert await database_sync_to_async(ChatLine.objects.count)() == 0
    await _close(s)


async def test_the_chat_switch_turns_the_whole_chat_off_for_the_member_at_every_table() -> None:
    table_id, users, s = await _at_table()
    await s["bob"].send({"type": "chat_mute", "all": True, "mute": True})
    assert await s["bob"].until("chat_muted") == {"type": "chat_muted", "all": True, "mute": True}
    await s["ada"].send({"type": "chat", "text": "anyone there"})
    await s["ada"].until("chat")
    assert not [f for f in await s["bob"].drain() if f["type"] == "chat"]
    # Remembered as his preference: a new socket gets no line, only the switch's state.
    profile = await database_sync_to_async(lambda: users[1].profile.__class__.objects.get(user=users[1]))()
    assert profile.chat_off is True
    again = Socket(table_id, session_key=KEYS["bob"])
    await again.connect()
    got = await again.through("chat_muted", all=True, mute=True)
    got += await again.drain(0.2)
    assert _chats(again) == []
    assert {"type": "chat_muted", "all": True, "mute": True} in got
    await s["ada"].send({"type": "chat", "text": "still nobody"})
    await s["ada"].until("chat")
    assert _chats(again) == []
    assert not [f for f in await again.drain() if f["type"] == "chat"]
    # On again: the last lines come back, and the next ones are delivered.
    await again.send({"type": "chat_mute", "all": True, "mute": False})
    await again.until("chat_muted", mute=False)
    back = [f["text"] for f in await again.through("chat", text="still nobody") if f["type"] == "chat"]
    assert back == ["anyone there", "still nobody"]
    await s["ada"].send({"type": "chat", "text": "welcome back"})
    assert (await again.until("chat"))["text"] == "welcome back"
    await again.close()
    await _close(s)


async def test_muting_this_table_s_chat_holds_here_on_coming_back_and_nowhere_else() -> None:
    table_id, users, s = await _at_table()
    await s["ada"].send({"type": "chat", "text": "before the mute"})
    await s["bob"].until("chat")
    await s["bob"].send({"type": "chat_mute", "table": True, "mute": True})
    assert await s["bob"].until("chat_muted") == {"type": "chat_muted", "table": True, "mute": True}
    await s["ada"].send({"type": "chat", "text": "anyone there"})
    await s["ada"].until("chat")
    assert not [f for f in await s["bob"].drain() if f["type"] == "chat"]
    # Kept for this table: coming back, only the frame that says so; the
    # global preference did not change.
    profile = await database_sync_to_async(lambda: users[1].profile.__class__.objects.get(user=users[1]))()
    assert profile.chat_off is False
    again = Socket(table_id, session_key=KEYS["bob"])
    await again.connect()
    got = await again.through("chat_muted", table=True, mute=True)
    got += await again.drain(0.2)
    assert _chats(again) == []
    assert {"type": "chat_muted", "table": True, "mute": True} in got
    assert not [f for f in got if f["type"] == "chat_muted" and f.get("all")]
    # Another table's chat still reaches him (he watches it).
    elsewhere = await database_sync_to_async(_other_table_line)(users[2])
    assert users[1].pk not in elsewhere[1]
    assert [f["text"] for f in await database_sync_to_async(selectors.history)(
        table_id=elsewhere[0], seat=None, user_id=users[1].pk
    )] == ["over here"]
    # Unmuted: the last lines come back, and the next ones are delivered.
    await again.send({"type": "chat_mute", "table": True, "mute": False})
    await again.until("chat_muted", mute=False)
    # The catch-up waited for to its last line (a fixed window missed it under load).
    back = [f["text"] for f in await again.through("chat", text="anyone there") if f["type"] == "chat"]
    assert back == ["before the mute", "anyone there"]
    await s["ada"].send({"type": "chat", "text": "welcome back"})
    assert (await again.until("chat"))["text"] == "welcome back"
    await again.close()
    await _close(s)


async def test_a_guest_s_chat_switch_lasts_as_long_as_its_socket() -> None:
    _table_id, _users, s = await _at_table()
    await s["guest"].send({"type": "chat_mute", "all": True, "mute": True})
    await s["guest"].until("chat_muted")
    await s["cleo"].send({"type": "chat", "text": "hello stands"})
    await s["cleo"].until("chat")
    assert not [f for f in await s["guest"].drain() if f["type"] == "chat"]
    await _close(s)
