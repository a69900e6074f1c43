"""The admin of tables, games and moves: everything shown, the move log never written."""

from __future__ import annotations

import html
import json
import random

import pytest
from django.test import Client

from games.engine import legal_actions
from games.models import Game, GameReview, Move, Presence, Seat, Table
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


# --- What the admin never shows (docs/fair-play.md, "What the staff sees") ----------

SESSION_KEYS = ("k3xq9v2m7w1r8t4y6u0p5s2d9f3g7h1j", "z8c4v6b2n0m3a5s7d9f1g3h5j7k9l2q4")


def table_with_a_draw() -> tuple[Table, Move]:
    """A live duel between two guests (by realistic session keys) in which
    someone drew a tile from the boneyard (the drawn tile is theirs alone) and a
    tile was laid."""
    rng = random.Random(7)
    for _attempt in range(20):
        table = make_table(
            preset="classic-draw",
            kind=Table.Kind.PRIVATE,
            seats=[services.SeatSpec(guest_key=key) for key in SESSION_KEYS],
        )
        game = table.game
        for _ in range(60):
            game.refresh_from_db()
            state = selectors.game_state(game)
            if state is None or state.to_move is None:
                break
            services.play_move(
                game_id=game.pk, seat=state.to_move, action=rng.choice(legal_actions(state)), expected_seq=game.seq
            )
            draw = Move.objects.filter(game=game, kind=Move.Kind.DRAW).first()
            # A tile laid too (beyond the opening): the tests compare with a public play.
            if draw is not None and Move.objects.filter(game=game, kind=Move.Kind.PLAY).exists():
                return table, draw
        Seat.objects.filter(table=table).update(guest_key="")  # free the keys for the next try
    raise AssertionError("no draw in 20 games")


def shown(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def test_a_live_games_drawn_tiles_are_shown_nowhere_in_the_admin(admin_client: Client) -> None:
    table, draw = table_with_a_draw()
    game = table.game
    pages = [
        f"/admin/games/move/{draw.pk}/change/",
        f"/admin/games/game/{game.pk}/change/",  # the move log, inline
        "/admin/games/move/",
        f"/admin/games/move/?game__id__exact={game.pk}",
    ]
    for url in pages:
        assert json.dumps(draw.payload) not in shown(admin_client, url), url
    move_page = shown(admin_client, f"/admin/games/move/{draw.pk}/change/")
    assert '"tile"' not in move_page
    assert "hidden until the game is over" in move_page
    # The plays of the same game are public: they are shown.
    play = Move.objects.filter(game=game, kind=Move.Kind.PLAY).first()
    assert json.dumps(play.payload["tile"]) in shown(admin_client, f"/admin/games/move/{play.pk}/change/")
    # Once the game is over (its seed published), every move may be read.
    services.resign(game_id=game.pk, seat=0)
    assert json.dumps(draw.payload) in shown(admin_client, f"/admin/games/move/{draw.pk}/change/")
    assert json.dumps(draw.payload) in shown(admin_client, f"/admin/games/game/{game.pk}/change/")


def test_an_aborted_games_drawn_tiles_stay_hidden(admin_client: Client) -> None:
    """An aborted game never publishes its seed (replay.json answers 403): nor does the admin."""
    table, draw = table_with_a_draw()
    services.abort_game(game_id=table.game.pk, reason="admin")
    assert json.dumps(draw.payload) not in shown(admin_client, f"/admin/games/move/{draw.pk}/change/")
    assert json.dumps(draw.payload) not in shown(admin_client, f"/admin/games/game/{table.game.pk}/change/")


def test_a_guests_session_key_is_never_shown(admin_client: Client) -> None:
    table, _draw = table_with_a_draw()
    for finished in (False, True):
        for url in ("/admin/games/table/", f"/admin/games/table/{table.pk}/change/", "/admin/games/game/"):
            page = shown(admin_client, url)
            for key in SESSION_KEYS:
                assert key not in page, (url, finished)
        if not finished:
            services.resign(game_id=table.game.pk, seat=1)
    # A guest's seat still says who sits there: a guest, not a key.
    assert "Guest" in shown(admin_client, f"/admin/games/table/{table.pk}/change/")


def test_a_sockets_session_key_is_never_shown(admin_client: Client) -> None:
    table, _draw = table_with_a_draw()
    presence = Presence.objects.create(
        channel_name="specific.test!abc", session_key=SESSION_KEYS[0], table_id=table.pk, seat=0
    )
    assert SESSION_KEYS[0] not in str(presence)
    for url in ("/admin/games/presence/", f"/admin/games/presence/{presence.pk}/change/"):
        assert SESSION_KEYS[0] not in shown(admin_client, url), url
    # Nor can a change through the admin write one.
    admin_client.post(
        f"/admin/games/presence/{presence.pk}/change/",
        {"session_key": "forged", "table_id": table.pk, "seat": 0, "seen_at_0": "2030-01-01", "seen_at_1": "00:00"},
    )
    presence.refresh_from_db()
    assert presence.session_key == SESSION_KEYS[0]


def test_a_review_of_a_game_not_published_is_not_shown(admin_client: Client) -> None:
    table, _draw = table_with_a_draw()
    review = GameReview.objects.create(game=table.game, data={"moves": [{"hand": "secret-hand-marker"}]})
    assert "secret-hand-marker" not in shown(admin_client, f"/admin/games/gamereview/{review.pk}/change/")
    services.resign(game_id=table.game.pk, seat=0)
    assert "secret-hand-marker" in shown(admin_client, f"/admin/games/gamereview/{review.pk}/change/")


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/admin/games/game/", "seed"),
        ("/admin/games/game/", "server_seed"),
        ("/admin/games/game/", "state"),
        ("/admin/games/move/", "payload"),
        ("/admin/games/presence/", "session_key"),
        ("/admin/games/table/", "seats__guest_key"),
        ("/admin/games/gamereview/", "data"),
    ],
)
def test_no_filter_of_a_list_can_probe_a_secret(admin_client: Client, url: str, field: str) -> None:
    """The admin's lists filter by any field named in the address
    (``?seed__startswith=4``): a list that counted the games whose seed starts
    so would give the seed away one digit at a time. Refused (400)."""
    table, draw = table_with_a_draw()
    Presence.objects.create(channel_name="specific.test!abc", session_key=SESSION_KEYS[0], table_id=table.pk)
    GameReview.objects.create(game=table.game, data={"moves": []})
    for lookup in (field, f"{field}__startswith", f"{field}__contains", f"{field}__isnull"):
        response = admin_client.get(url, {lookup: "4"})
        assert response.status_code == 400, (url, lookup, response.status_code)
    if field == "payload":
        tile = json.dumps(draw.payload["tile"])
        assert admin_client.get(url, {"payload__tile": tile}).status_code == 400


def test_every_admin_page_hides_secret_fields(admin_client: Client) -> None:
    """An inventory of every model admin of the site: no list, form or inline
    names a field that holds a credential or a hidden tile."""
    from django.contrib import admin as django_admin
    from django.test import RequestFactory

    secret_names = {"guest_key", "session_key", "seed", "server_seed", "state", "key", "token", "secret", "password"}
    hidden_by_model = {"games.move": {"payload"}, "games.gamereview": {"data"}}
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
    checked = 0
    for model, model_admin in django_admin.site._registry.items():
        label = model._meta.label_lower
        if model._meta.app_label not in ("games", "accounts", "lobby", "account"):
            continue
        forbidden = secret_names | hidden_by_model.get(label, set())
        shown_fields = set(model_admin.get_list_display(request)) | set(
            model_admin.get_fields(request, None)
        ) | set(model_admin.get_search_fields(request)) | {
            str(item if isinstance(item, str) else item[0]) for item in model_admin.get_list_filter(request)
            if isinstance(item, (str, tuple, list))
        }
        for inline in model_admin.get_inline_instances(request, None) or [
            inline_class(model, django_admin.site) for inline_class in model_admin.inlines
        ]:
            inline_label = inline.model._meta.label_lower
            inline_forbidden = secret_names | hidden_by_model.get(inline_label, set())
            inline_fields = set(inline.get_fields(request, None))
            assert not inline_fields & inline_forbidden, (label, inline_label, inline_fields & inline_forbidden)
        assert not {name.split("__")[-1] for name in shown_fields} & forbidden, (label, shown_fields & forbidden)
        checked += 1
    assert checked >= 12
