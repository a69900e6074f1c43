"""Fair play through the pages and the table socket: the salt on the
private-table form, the replay page's fair-play panel and review, the
``commitment`` of every ``state`` frame and the hint frame."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import jobs
from games.coach import services as coach
from games.engine import Tile
from games.engine.verify import salted_seed
from games.fairplay import signing
from games.models import Game, GameReview, Table
from games.play import selectors
from games.tests.factories import UserFactory
from games.tests.sockets import Socket, new_session_key
from games.tests.test_hints import HANDS_A, position, table_at
from games.tests.test_review import finished_computer_game


@pytest.fixture(autouse=True)
def _quiet(sent) -> None:
    jobs.PENDING_REVIEWS.clear()


# -- the private-table form ---------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("computer_queue")
def test_the_private_table_form_deals_from_the_shown_commitment_and_the_salt() -> None:
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    page = client.get("/private/new/")
    assert page.status_code == 200
    commitment = page.context["form"]["commitment"].value()
    assert len(commitment) == 64
    assert commitment in page.content.decode()
    response = client.post(
        "/private/new/",
        {
            "preset": "classic-draw",
            "players": 2,
            "target": 100,
            "public": "on",
            "salt": "my own salt",
            "commitment": commitment,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(table__created_by=user)
    assert game.commitment == commitment
    assert game.salt == "my own salt"
    assert game.seed == salted_seed(game.server_seed, "my own salt")
    # The same commitment cannot be claimed twice.
    again = client.post(
        "/private/new/",
        {"preset": "classic-draw", "players": 2, "target": 100, "salt": "x", "commitment": commitment},
    )
    assert again.status_code == 200
    assert again.context["form"].errors["salt"]
    assert Game.objects.filter(table__created_by=user).count() == 1


# -- the replay page ----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("computer_queue")
def test_the_replay_page_shows_the_links_the_command_and_the_review_when_ready() -> None:
    key = new_session_key()
    game = finished_computer_game(key=key, seed=8)
    client = Client()
    client.cookies["sessionid"] = key
    url = f"/table/{game.table_id}/replay/"
    page = client.get(url).content.decode()
    assert f"/table/{game.table_id}/replay.json" in page
    public_key = signing.public_key_hex()
    assert f"python -m games.engine.verify --key {public_key} dominoes-{game.table_id}-replay.json" in page
    assert f'<code data-public-key>{public_key}</code>' in page
    game.refresh_from_db()
    assert f"<code data-chain-head>{game.chain}</code>" in page
    key_page = client.get("/fair-play/key.json").json()
    assert key_page["public_key"] == public_key
    assert key_page["algorithm"] == "Ed25519"
    assert "data-review-pending" in page
    assert game.seed in page
    coach.review_game(game_id=game.pk)
    fragment = client.get(f"/table/{game.table_id}/review/").content.decode()
    assert "data-review-ready" in fragment
    assert "data-computer-check=\"same\"" in fragment
    page = client.get(url).content.decode()
    assert "data-review-pending" not in page
    data = GameReview.objects.get(game=game).data
    for seq in data["biggest"]:
        assert f'data-mistake="{seq}"' in page


# -- the table socket ---------------------------------------------------------------------


@database_sync_to_async
def socket_table(kind: str):
    key = new_session_key()
    game = table_at(position(HANDS_A), kind=kind, key=key)
    return key, game.table_id, selectors.game_state(game)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_queue")
async def test_the_hint_frame_over_the_socket_then_the_cooldown(settings) -> None:
    settings.HINT_BUDGET_MS = 30
    settings.HINT_DEALS = 60
    settings.HINT_COOLDOWN_SECONDS = 30
    key, table_id, state = await socket_table(Table.Kind.PRIVATE)
    sock = Socket(table_id, session_key=key)
    first = await sock.connect()
    assert first["commitment"] == first["table"]["commitment"]
    await sock.send({"type": "hint"})
    frame = await sock.until("hint")
    assert set(frame) >= {"type", "action", "why", "seq"}
    assert Tile(*frame["action"]["tile"]) in set(state.hands[0])
    await sock.send({"type": "hint"})
    refused = await sock.until("error")
    assert refused["code"] == "rate_limited"
    await sock.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_queue")
async def test_the_hint_cooldown_is_per_player_across_their_tables(settings) -> None:
    # More tables must not mean more search: the second table of the same
    # guest waits out the cooldown of the first.
    settings.HINT_BUDGET_MS = 30
    settings.HINT_DEALS = 60
    settings.HINT_COOLDOWN_SECONDS = 30
    key, first_table, _state = await socket_table(Table.Kind.PRIVATE)
    second = await database_sync_to_async(table_at)(position(HANDS_A), kind=Table.Kind.PRIVATE, key=key)
    other_key, other_table, _ = await socket_table(Table.Kind.PRIVATE)
    here, there = Socket(first_table, session_key=key), Socket(second.table_id, session_key=key)
    someone_else = Socket(other_table, session_key=other_key)
    for sock in (here, there, someone_else):
        await sock.connect()
    await here.send({"type": "hint"})
    assert (await here.until("hint"))["type"] == "hint"
    await there.send({"type": "hint"})
    assert (await there.until("error"))["code"] == "rate_limited"
    # Another player is not held back by them.
    await someone_else.send({"type": "hint"})
    assert (await someone_else.until("hint"))["type"] == "hint"
    for sock in (here, there, someone_else):
        await sock.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_queue")
async def test_the_hint_is_refused_in_a_ranked_game_and_for_spectators() -> None:
    key, table_id, _state = await socket_table(Table.Kind.RANKED)
    sock = Socket(table_id, session_key=key)
    await sock.connect()
    await sock.send({"type": "hint"})
    refused = await sock.until("error")
    assert refused["code"] == "not_allowed"
    await sock.close()
    watcher = Socket(table_id, session_key=await database_sync_to_async(new_session_key)())
    await watcher.connect()
    await watcher.send({"type": "hint"})
    assert (await watcher.until("error"))["code"] == "not_seated"
    await watcher.close()


@pytest.mark.django_db
def test_the_biggest_mistakes_come_first_and_jump_to_their_position() -> None:
    import json
    import re

    key = new_session_key()
    for seed in range(8, 30):
        game = finished_computer_game(key=key, seed=seed)
        coach.review_game(game_id=game.pk)
        data = GameReview.objects.get(game=game).data
        if data["biggest"]:
            break
    else:
        raise AssertionError("no game with a mistake in these seeds")
    client = Client()
    client.cookies["sessionid"] = key
    page = client.get(f"/table/{game.table_id}/replay/").content.decode()
    assert page.index("review-biggest") < page.index("review-summary")
    steps = json.loads(re.search(r'<script id="replay-steps" type="application/json">(.*?)</script>', page, re.S)[1])
    by_seq = {item["seq"]: item for item in data["moves"]}
    for seq in data["biggest"]:
        jump = re.search(rf'data-goto="(\d+)" data-mistake-jump="{seq}"', page)
        assert jump, seq
        step = steps[int(jump[1])]
        assert step["to_move"] == by_seq[seq]["seat"]  # the position where that player chose
