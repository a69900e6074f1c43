"""The home form, /play/computer/ and the table page."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Game, Table
from games.play import services
from games.tests.factories import UserFactory, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue", "english_afterwards")]


@pytest.fixture
def english_afterwards():
    """A French request leaves French active in this thread: restore the default."""
    yield
    translation.activate(settings.LANGUAGE_CODE)

FORM = {"preset": "classic-draw", "players": "3", "target": "100", "level": "easy"}


def config_of(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="table-config" type="application/json">') + len(
        '<script id="table-config" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_home_shows_the_play_the_computer_form(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'action="/play/computer/"' in html
    for name in ("preset", "players", "teams", "target", "level"):
        assert f'name="{name}"' in html
    limits = html[html.index('id="preset-limits"') :]
    assert '"duel-block": {"players": [2]' in limits


def test_a_guest_gets_a_table_and_a_session(client: Client) -> None:
    response = client.post("/play/computer/", FORM)
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/table/{table.pk}/"
    key = client.cookies["sessionid"].value
    seats = list(table.seats.order_by("number"))
    assert seats[0].guest_key == key
    assert seats[0].user is None
    assert [s.level for s in seats] == ["", "easy", "easy"]
    game = Game.objects.get(table=table)
    assert game.preset == "classic-draw"
    assert game.rules["players"] == 3
    assert game.rules["target"] == 100
    page = client.get(response["Location"])
    assert page.status_code == 200
    config = config_of(page)
    assert config["seat"] == 0
    assert config["tableId"] == table.pk
    assert config["wsPath"] == f"/ws/table/{table.pk}/"
    assert config["commitment"] == game.commitment
    assert config["ranked"] is False
    assert config["teams"] is False
    assert config["rulesUrl"] == "/rules/#variant-classic-draw"
    assert [(p["seat"], p["kind"], p["level"]) for p in config["players"]] == [
        (0, "human", None), (1, "computer", "easy"), (2, "computer", "easy")
    ]
    assert game.seed not in page.content.decode()


def test_pairs_with_the_teams_checkbox(client: Client) -> None:
    client.post("/play/computer/", {**FORM, "preset": "arena", "players": "4", "teams": "on", "target": "0"})
    game = Game.objects.get()
    assert game.rules["teams"] is True
    assert game.rules["players"] == 4
    assert game.rules["target"] == 0


def test_a_member_takes_the_seat_by_account(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    client.post("/play/computer/", {**FORM, "players": "2"})
    seat = Table.objects.get().seats.get(number=0)
    assert seat.user == user
    assert seat.guest_key == ""


def test_a_guest_who_signs_up_mid_game_keeps_their_table(client: Client) -> None:
    client.post("/play/computer/", {**FORM, "players": "2"})
    table = Table.objects.get()
    table_url = f"/table/{table.pk}/"
    guest_page = client.get(table_url).content.decode()
    assert f'href="/accounts/signup/?next={table_url}"' in guest_page
    password = "a-long-pass-phrase-42"
    response = client.post(
        f"/accounts/signup/?next={table_url}",
        {"username": "carol", "email": "carol@example.com", "password1": password, "password2": password},
    )
    assert response.status_code == 302
    assert response["Location"] == table_url
    seat = table.seats.get(number=0)
    assert seat.user is not None
    assert seat.user.username == "carol"
    assert seat.guest_key == ""
    assert config_of(client.get(table_url))["seat"] == 0


def test_a_guest_who_logs_in_keeps_their_table_unless_the_member_already_sits_there(client: Client) -> None:
    member = UserFactory()
    member.set_password("a-long-pass-phrase-42")
    member.save()
    client.post("/play/computer/", {**FORM, "players": "2"})
    played_as_guest = Table.objects.get()
    key = client.cookies["sessionid"].value
    # The same guest also holds a seat at a table where the member sits.
    shared = make_table(seats=[services.SeatSpec(user=member), services.SeatSpec(guest_key=key)])
    logged_in = client.post("/accounts/login/", {"login": member.username, "password": "a-long-pass-phrase-42"})
    assert logged_in.status_code == 302
    assert client.cookies["sessionid"].value != key  # a login gives the session a new key
    assert played_as_guest.seats.get(number=0).user == member
    assert shared.seats.get(number=1).guest_key == key  # never two seats of one member at a table
    assert shared.seats.get(number=1).user is None
    assert config_of(client.get(f"/table/{played_as_guest.pk}/"))["seat"] == 0


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"preset": "duel-block", "players": "3", "target": "0"}, "players"),
        ({"preset": "classic-draw", "target": "0"}, "target"),
        ({"preset": "classic-draw", "players": "4", "teams": "on"}, "teams"),
        ({"preset": "arena", "players": "2", "teams": "on"}, "teams"),
        ({"preset": "nonsense"}, "preset"),
        ({"level": "grandmaster"}, "level"),
        ({"players": "5"}, "players"),
    ],
)
def test_choices_the_variant_does_not_allow_are_refused(client: Client, changes: dict, field: str) -> None:
    response = client.post("/play/computer/", {**FORM, **changes})
    assert response.status_code == 400
    assert field in response.context["play_form"].errors
    assert not Table.objects.exists()


def test_play_computer_is_post_only(client: Client) -> None:
    assert client.get("/play/computer/").status_code == 405


def test_a_spectator_sees_a_public_table_and_nobody_sees_a_private_one(client: Client) -> None:
    public = make_table()
    assert config_of(client.get(f"/table/{public.pk}/"))["seat"] is None
    private = make_table(public=False)
    assert client.get(f"/table/{private.pk}/").status_code == 404
    assert client.get("/table/424242/").status_code == 404


def test_a_finished_table_still_renders(client: Client) -> None:
    table = make_table()
    services.resign(game_id=table.game.pk, seat=0)
    response = client.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 200
    assert config_of(response)["status"] == "finished"


def test_french_labels(client: Client) -> None:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Niveau de l\u2019ordinateur" in html
    assert "Variante" in html


# ---------------------------------------------------------------- after a game


def checked(html: str, name: str) -> str:
    """The value of the checked radio (or selected option) ``name`` in ``html``."""
    import re

    radio = re.search(rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*checked', html)
    if radio:
        return radio[1]
    select = html[html.index(f'name="{name}"') :]
    return re.search(r'<option value="([^"]*)" selected', select)[1]


def test_the_home_form_remembers_the_last_settings(client: Client) -> None:
    html = client.get("/").content.decode()
    assert (checked(html, "preset"), checked(html, "players"), checked(html, "level")) == (
        "classic-draw", "2", "medium"
    )
    client.post("/play/computer/", {"preset": "arena", "players": "4", "teams": "on", "target": "50", "level": "hard"})
    html = client.get("/").content.decode()
    assert checked(html, "preset") == "arena"
    assert checked(html, "players") == "4"
    assert checked(html, "target") == "50"
    assert checked(html, "level") == "hard"
    assert 'name="teams" id="id_teams" checked' in html


def finish_computer_game(client: Client, form: dict) -> Table:
    client.post("/play/computer/", form)
    table = Table.objects.latest("pk")
    services.resign(game_id=table.game.pk, seat=0)
    return table


def test_rematch_against_the_computer_starts_the_same_game_at_once(client: Client) -> None:
    table = finish_computer_game(client, {**FORM, "level": "hard"})
    html = client.get(f"/table/{table.pk}/").content.decode()
    assert "data-rematch" in html
    assert "data-new-game" in html
    assert "#play-computer" in html  # other settings
    response = client.post(f"/table/{table.pk}/rematch/")
    again = Table.objects.latest("pk")
    assert again.pk != table.pk
    assert response["Location"] == f"/table/{again.pk}/"
    assert again.status == Table.Status.PLAYING
    assert again.game.preset == "classic-draw"
    assert again.game.rules["players"] == 3
    assert [s.level for s in again.seats.order_by("number")] == ["", "hard", "hard"]
    assert again.seats.get(number=0).guest_key == table.seats.get(number=0).guest_key


def test_the_new_game_button_posts_the_same_settings(client: Client) -> None:
    import re

    table = finish_computer_game(client, {"preset": "arena", "players": "4", "teams": "on", "target": "50", "level": "easy"})
    html = client.get(f"/table/{table.pk}/").content.decode()
    form = html[html.index('action="/play/computer/"') :]
    form = form[: form.index("</form>")]
    assert "data-new-game" in form
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    fields.pop("csrfmiddlewaretoken")
    assert fields == {"preset": "arena", "players": "4", "teams": "on", "target": "50", "level": "easy"}


def test_rematch_is_refused_before_the_end_and_to_others(client: Client) -> None:
    client.post("/play/computer/", FORM)
    table = Table.objects.latest("pk")
    assert client.post(f"/table/{table.pk}/rematch/").status_code == 409
    assert Client().post(f"/table/{table.pk}/rematch/").status_code == 404
    assert client.get(f"/table/{table.pk}/rematch/").status_code == 405
    assert Table.objects.count() == 1


def test_after_a_ranked_game_the_page_offers_the_queue_not_the_computer(client: Client) -> None:
    alice, bob = UserFactory(), UserFactory()
    table = make_table(
        preset="duel-block",
        target=0,
        kind=Table.Kind.RANKED,
        seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)],
    )
    Table.objects.filter(pk=table.pk).update(mode="duel-block")
    services.resign(game_id=table.game.pk, seat=1)
    client.force_login(alice)
    html = client.get(f"/table/{table.pk}/").content.decode()
    panel = html[html.index('id="game-over"') :]
    assert "#play-computer" not in panel
    assert 'href="/ranked/?queue=duel-block" data-back-to-queue' in panel
    assert "data-rematch" in panel
    assert "data-rematch-unrated" in panel  # the panel says a rematch is not rated


def test_a_ranked_rematch_starts_when_both_players_asked(client: Client) -> None:
    from games.tests.helpers import ranked_table

    alice, bob = UserFactory(), UserFactory()
    table = ranked_table([alice, bob])
    services.resign(game_id=table.game.pk, seat=1)
    client.force_login(alice)
    json_headers = {"accept": "application/json"}
    answer = client.post(f"/table/{table.pk}/rematch/", headers=json_headers).json()
    assert answer == {"ok": True, "url": None, "seats": [0], "waiting": [1]}
    assert client.post(f"/table/{table.pk}/rematch/", headers=json_headers).json() == answer  # twice: the same
    assert Table.objects.count() == 1
    assert config_of(client.get(f"/table/{table.pk}/"))["rematch"]["waiting"] == [1]
    other = Client()
    other.force_login(bob)
    response = other.post(f"/table/{table.pk}/rematch/")
    again = Table.objects.get(rematch_of=table)
    assert response["Location"] == f"/table/{again.pk}/"
    # A friendly game, not rated: ratings come from the queue's games (docs/members.md).
    assert again.kind == Table.Kind.PRIVATE
    assert again.mode == ""
    assert again.status == Table.Status.PLAYING
    assert [s.user for s in again.seats.order_by("number")] == [alice, bob]
    # The first to ask finds the new table too (its page gets a rematch frame).
    assert client.post(f"/table/{table.pk}/rematch/", headers=json_headers).json()["url"] == f"/table/{again.pk}/"
    assert config_of(client.get(f"/table/{table.pk}/"))["rematch"]["url"] == f"/table/{again.pk}/"
    assert Table.objects.count() == 2


def test_no_ranked_rematch_while_a_player_is_in_another_ranked_game(client: Client) -> None:
    from games.tests.helpers import ranked_table

    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    table = ranked_table([alice, bob])
    services.resign(game_id=table.game.pk, seat=1)
    ranked_table([bob, carol])
    client.force_login(alice)
    client.post(f"/table/{table.pk}/rematch/")
    client.force_login(bob)
    response = client.post(f"/table/{table.pk}/rematch/", headers={"accept": "application/json"})
    assert response.status_code == 409
    assert response.json()["code"] == "not_allowed"
    assert not Table.objects.filter(rematch_of=table).exists()


# ---------------------------------------------------------------- quick starts


QUICK = ("duel-block", "duel-draw", "three", "four", "pairs")


def quick_form(html: str, key: str) -> dict[str, str]:
    import re

    button = html.index(f'data-quick-start="{key}"')
    form = html[html.rindex("<form", 0, button) : button]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    fields.pop("csrfmiddlewaretoken")
    return fields


def test_the_home_page_offers_one_tap_games_and_a_custom_one(client: Client) -> None:
    html = client.get("/").content.decode()
    for key in (*QUICK, "custom"):
        assert f'data-quick-start="{key}"' in html
    assert quick_form(html, "duel-block") == {"preset": "duel-block", "players": "2", "target": "0", "level": "medium"}
    assert quick_form(html, "pairs") == {"preset": "arena", "players": "4", "teams": "on", "target": "50", "level": "medium"}
    assert 'href="/rules/#variant-duel-block" data-quick-rules="duel-block"' in html
    assert 'href="/rules/#variant-arena" data-quick-rules="three"' in html
    # The quick starts come before the custom form.
    assert html.index('data-quick-start="duel-block"') < html.index('id="play-computer-form"')


@pytest.mark.parametrize("key", QUICK)
def test_each_quick_start_starts_its_game_at_once(
    client: Client, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.play.modes import RANKED_MODES

    # A fixed deal: about one block duel in 200 is over at the deal (the next test).
    monkeypatch.setattr("games.play.services.tables.new_seed", lambda: "quick-start-deal")
    html = client.get("/").content.decode()
    response = client.post("/play/computer/", quick_form(html, key))
    table = Table.objects.get()
    assert response["Location"] == f"/table/{table.pk}/"
    mode = RANKED_MODES[key]
    assert table.status == Table.Status.PLAYING
    assert table.game.preset == mode.preset
    assert table.game.rules["players"] == mode.players
    assert bool(table.game.rules.get("teams")) == mode.teams


def test_a_block_duel_dealt_so_that_nobody_can_follow_the_opening_is_over_at_once(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a boneyard, a deal where neither hand can follow the opening
    double ends the round, blocked, before anyone moves: the game is shown
    over, scored as the rules say."""
    from games.play import selectors

    monkeypatch.setattr("games.play.services.tables.new_seed", lambda: "blocked-deal-254")
    html = client.get("/").content.decode()
    response = client.post("/play/computer/", quick_form(html, "duel-block"))
    table = Table.objects.get()
    assert response["Location"] == f"/table/{table.pk}/"
    assert table.status == Table.Status.FINISHED
    state = selectors.game_state(table.game)
    assert state is not None
    assert state.game_over
    assert state.round_result is not None
    assert state.round_result.blocked
    assert client.get(response["Location"]).status_code == 200


def test_quick_starts_use_the_last_level(client: Client) -> None:
    client.post("/play/computer/", {**FORM, "level": "hard"})
    html = client.get("/").content.decode()
    assert quick_form(html, "three")["level"] == "hard"


def test_the_variant_choice_is_explained_in_one_line_with_its_rules(client: Client) -> None:
    html = client.get("/").content.decode()
    line = html[html.index("data-variant-summary") :]
    line = line[: line.index("</p>")]
    assert "boneyard to draw from" in line
    assert 'href="/rules/#variant-classic-draw"' in line
    info = html[html.index('id="variant-info"') :]
    assert '"duel-block": {"summary": "A one-on-one block game' in info


def test_ratings_json_is_empty_until_the_game_is_rated(client: Client) -> None:
    table = make_table()
    response = client.get(f"/table/{table.pk}/ratings.json")
    assert response.status_code == 200
    assert response.json()["changes"] == []
    private = make_table(public=False)
    assert client.get(f"/table/{private.pk}/ratings.json").status_code == 404
