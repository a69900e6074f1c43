"""The member's download (``/u/<name>/games.txt``) under ASGI: streamed from an
asynchronous iterator that reads the records a chunk at a time (Django reads a
synchronous one whole into a list first, with a warning), and under WSGI from the
synchronous one."""

from __future__ import annotations

import warnings

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client

from games.engine.notation import loads_all
from games.tests.factories import UserFactory
from games.tests.helpers import play_out, ranked_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sent", "computer_queue")]


@pytest.fixture
def finished_games():
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    return [play_out(ranked_table([alice, bob]), seed=number) for number in range(3)]


def test_under_asgi_the_download_is_an_async_stream_without_a_warning(finished_games, settings):
    settings.ACCOUNT_DOWNLOAD_CHUNK = 2  # three records: two chunks

    async def download():
        response = await AsyncClient().get("/u/alice/games.txt")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # As Django's ASGI handler serves it (``aiter(response)``).
            chunks = [chunk async for chunk in response]
        return response, chunks, caught

    response, chunks, caught = async_to_sync(download)()
    assert response.status_code == 200
    assert response.streaming
    assert response.is_async
    assert [str(warning.message) for warning in caught] == []
    assert len(chunks) == 2
    records = loads_all(b"".join(chunks).decode())
    assert [record.tag("Table") for record in records] == [str(game.table_id) for game in finished_games]


def test_under_wsgi_the_download_is_a_sync_stream(finished_games):
    response = Client().get("/u/alice/games.txt")
    assert response.status_code == 200
    assert not response.is_async
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        body = b"".join(response)
    assert [str(warning.message) for warning in caught] == []
    assert len(loads_all(body.decode())) == len(finished_games)
