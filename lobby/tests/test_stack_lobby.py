"""Matchmaking across server processes: two Daphne processes, a Celery worker
and beat, PostgreSQL and Redis, all real. Two members sign up and open the
lobby on different processes; the queue is in the database and the periodic
matcher runs from beat; each hears of the match on their own process."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.support.players import Guest
from tests.support.stack import Stack, fresh_stack

pytestmark = [pytest.mark.services, pytest.mark.stack, pytest.mark.slow, pytest.mark.timeout(300)]


def sign_up(base: str, username: str) -> Guest:
    member = Guest(base)
    password = "a-long-pass-phrase-42"
    _status, url, _page = member.post_form(
        "/accounts/signup/",
        {"username": username, "email": f"{username}@example.com", "password1": password, "password2": password},
        form_page="/accounts/signup/",
    )
    assert not url.endswith("/accounts/signup/"), "sign-up refused"
    return member


async def lobby_frames(base: str, member: Guest, mode: str, frames: list[dict], matched: asyncio.Event) -> None:
    url = base.replace("http://", "ws://") + "/ws/lobby/"
    async with connect(url, origin=base, additional_headers={"Cookie": member.cookie}) as socket:
        await socket.send(json.dumps({"type": "queue", "mode": mode}))
        async for text in socket:
            frame = json.loads(text)
            frames.append(frame)
            if frame["type"] == "matched":
                matched.set()
                return


@pytest.fixture
def stack(postgres_url: str, redis_url: str, tmp_path: Path):
    with fresh_stack(
        tmp_path, postgres_url=postgres_url, redis_url=redis_url, prefix="dominoes_lobby", LOBBY_TICK_SECONDS="1"
    ) as running:
        yield running


def test_members_on_two_processes_are_matched_by_the_periodic_matcher(stack: Stack) -> None:
    a, b = stack.start_webs("a", "b")
    stack.start_worker("worker")
    # The lobby tick has its own queue and worker (Procfile "periodic").
    stack.start_worker("periodic", queues="periodic")
    stack.start_beat("beat")
    alice, bob = sign_up(a, "alice"), sign_up(b, "bob")
    # Ratings 250 points apart: too far to pair at once (the window starts at
    # 100); the matcher of the periodic tick pairs them once it has widened.
    stack.django(
        "from django.contrib.auth import get_user_model\n"
        "from accounts.models import Rating\n"
        "Rating.objects.create(user=get_user_model().objects.get(username='bob'), mode='duel-draw', mu=25 + 250 / 60)\n"
    )
    frames: dict[str, list[dict]] = {"alice": [], "bob": []}

    async def run() -> None:
        matched = {name: asyncio.Event() for name in frames}
        tasks = [
            asyncio.create_task(lobby_frames(a, alice, "duel-draw", frames["alice"], matched["alice"])),
            asyncio.create_task(lobby_frames(b, bob, "duel-draw", frames["bob"], matched["bob"])),
        ]
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=90)
        finally:
            for task in tasks:
                task.cancel()

    asyncio.run(run())
    tables = {next(f for f in frames[name] if f["type"] == "matched")["table"] for name in frames}
    assert len(tables) == 1
    table_id = tables.pop()
    queued = [f for f in frames["bob"] if f["type"] == "queued"]
    assert queued[0]["rating"] == 1750
    # Bob was told of the counts by the tick while he waited (beat, not his process).
    assert any(f["type"] == "counts" and f["searching"]["duel-draw"] == 2 for f in frames["bob"])
    seated = stack.django(
        "from games.models import Seat, Table\n"
        f"table = Table.objects.get(pk={table_id})\n"
        "result = [table.kind, table.mode, sorted(Seat.objects.filter(table=table).values_list('user__username', flat=True))]\n"
    )
    assert seated == ["ranked", "duel-draw", ["alice", "bob"]]
    assert re.search(r"lobby_tick\[[0-9a-f-]+\] succeeded", stack.log("periodic"))
    assert not re.search(r"lobby_tick\[", stack.log("worker"))  # never behind the computer moves
