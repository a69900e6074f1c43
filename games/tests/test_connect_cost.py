"""What a table socket's connect costs the database.

Sockets connect in bursts (a server process restarts and its players
reconnect to the others), all through the process's one database thread:
the queries of a connect are counted here so that they do not creep back
(docs/performance.md, "Cheaper connections")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games.models import Table
from games.play import services
from games.socket.table import TableConsumer
from games.tests.factories import make_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def connect_queries(django_assert_max_num_queries, table: Table, guest_key: str, most: int) -> TableConsumer:
    consumer = TableConsumer()
    consumer.table_id = table.pk
    consumer.language = "en"
    consumer.channel_name = "test-channel"
    with django_assert_max_num_queries(most):
        assert consumer._find_viewer(AnonymousUser(), guest_key) is True
        consumer._after_connect()
        consumer._sync_frames(None)
    return consumer


@pytest.mark.parametrize(
    ("kind", "second", "most"),
    [
        # table + game, seats; presence, left mark, stand-in; game, clock (seats, presence).
        (Table.Kind.PRIVATE, services.SeatSpec(guest_key="other"), 8),
        # No clock against the computer, but its pending turn (game, seats) after a restart.
        (Table.Kind.COMPUTER, services.SeatSpec(level="easy"), 8),
    ],
)
def test_a_table_socket_connects_in_a_few_queries(django_assert_max_num_queries, kind, second, most) -> None:
    table = make_table(preset="classic-draw", kind=kind, seats=[services.SeatSpec(guest_key="mine"), second])
    consumer = connect_queries(django_assert_max_num_queries, table, "mine", most)
    assert consumer.seat == 0
    assert [p["seat"] for p in consumer.players] == [0, 1]


def test_a_spectator_connects_in_a_few_queries(django_assert_max_num_queries) -> None:
    table = make_table(preset="classic-draw")
    consumer = connect_queries(django_assert_max_num_queries, table, "", 6)
    assert consumer.seat is None
