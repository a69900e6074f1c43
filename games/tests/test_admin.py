"""The admin of tables, games and moves: everything shown, the move log never written."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games.engine import legal_actions
from games.models import Game, Move, Table
from games.play import selectors, services
from games.tests.factories import UserFactory, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    boss = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(boss)
    return client


def played_table(moves: int = 6) -> Table:
    table = make_table(
        preset="classic-draw", kind=Table.Kind.PRIVATE, seats=[services.SeatSpec(guest_key="a"), services.SeatSpec(guest_key="b")]
    )
    game = Game.objects.get(table=table)
    rng = random.Random(3)
    for _ in range(moves):
        game.refresh_from_db()
        state = selectors.game_state(game)
        if state.to_move is None:
            break
        services.play_move(game_id=game.pk, seat=state.to_move, action=rng.choice(legal_actions(state)), expected_seq=game.seq)
    return table


def test_tables_games_and_moves_are_listed_and_shown(admin_client: Client) -> None:
    table = played_table()
    game = table.game
    move = Move.objects.filter(game=game).order_by("seq").first()
    for url in (
        "/admin/games/table/",
        f"/admin/games/table/{table.pk}/change/",
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/move/",
        f"/admin/games/move/{move.pk}/change/",
    ):
        assert admin_client.get(url).status_code == 200, url
    game_page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert move.chain in game_page  # the move log, inline
    assert game.seed not in game_page  # secret while the game is live


def test_moves_are_read_only(admin_client: Client) -> None:
    table = played_table()
    move = Move.objects.filter(game=table.game).order_by("seq").first()
    before = (move.kind, move.seat, move.payload, move.chain)
    assert admin_client.get("/admin/games/move/add/").status_code == 403
    assert admin_client.get(f"/admin/games/move/{move.pk}/delete/").status_code == 403
    admin_client.post(f"/admin/games/move/{move.pk}/change/", {"kind": "resign", "seat": 1, "payload": "{}"})
    move.refresh_from_db()
    assert (move.kind, move.seat, move.payload, move.chain) == before
    page = admin_client.get(f"/admin/games/move/{move.pk}/change/").content.decode()
    assert 'name="kind"' not in page  # no input: read-only
    assert admin_client.post(
        "/admin/games/move/", {"action": "delete_selected", "_selected_action": [move.pk]}
    ).status_code in (200, 302)
    assert Move.objects.filter(pk=move.pk).exists()
    # Nor through their table or game, which would take the log with them.
    assert admin_client.get(f"/admin/games/table/{table.pk}/delete/").status_code == 403
    assert admin_client.get(f"/admin/games/game/{table.game.pk}/delete/").status_code == 403


def test_a_live_game_can_be_aborted_from_the_admin(admin_client: Client) -> None:
    table = played_table()
    response = admin_client.post(
        "/admin/games/game/", {"action": "abort_live_games", "_selected_action": [table.game.pk]}
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    assert Game.objects.get(table=table).result["reason"] == "admin"


def test_the_admin_is_for_staff_only() -> None:
    client = Client()
    client.force_login(UserFactory())
    assert client.get("/admin/games/move/").status_code in (302, 403)
