"""The member's settings page (``/account/settings/``): preferences stored on
the profile and applied by the table page, the language, zen mode."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.models import Profile
from games.play import services as game_services
from games.tests.helpers import ranked_table

pytestmark = pytest.mark.django_db

ALL_ON = {
    "language": "fr",
    "sounds": "",  # a checkbox left unticked is absent; "" stands for it below
    "confirm_moves": "on",
    "mute_reactions": "on",
    "chat_off": "on",
    "tile_faces": "numbers",
    "zen": "on",
    "notifications": "on",
}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form(values: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in values.items() if value}


def table_config(client: Client, table_id: int) -> dict:
    html = client.get(f"/table/{table_id}/").content.decode()
    match = re.search(r'<script id="table-config" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the table page has no config"
    return json.loads(match.group(1))


def test_the_settings_page_needs_a_member(client: Client) -> None:
    response = client.get("/account/settings/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", ["Settings", "E-mail addresses", "Two-factor authentication", "Confirm each move", "Download my data",
                "Programs (API tokens)"]),
        ("fr", ["Réglages", "Adresses e-mail", "Authentification à deux facteurs", "Confirmer chaque coup", "Télécharger mes données",
                "Programmes (jetons d\u2019API)"]),
    ],
)
def test_the_settings_page_speaks_both_languages_and_leads_to_every_setting(
    make_member, language: str, texts: list[str]
) -> None:
    client = logged_in(make_member("alice"))
    client.cookies["django_language"] = language
    response = client.get("/account/settings/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="site-header"' in html
    for text in texts:
        assert text in html, text
    for url in ("/accounts/email/", "/accounts/password/change/", "/accounts/2fa/", "/account/export/", "/account/close/",
                "/account/tokens/"):
        assert f'href="{url}"' in html, url
    for name in ("language", "sounds", "confirm_moves", "mute_reactions", "chat_off", "tile_faces", "zen",
                 "notifications"):
        assert f'name="{name}"' in html, name


def test_the_settings_are_saved_on_the_profile(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    response = client.post("/account/settings/", form(ALL_ON))
    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.language, profile.sounds, profile.confirm_moves, profile.mute_reactions) == ("fr", False, True, True)
    assert (profile.tile_faces, profile.zen, profile.notifications) == ("numbers", True, True)
    assert profile.chat_off is True
    # The language applies at once: the answer sets Django's language cookie.
    assert response.cookies["django_language"].value == "fr"
    page = client.get("/account/settings/").content.decode()
    assert "Vos réglages sont enregistrés." in page
    assert '<option value="fr" selected>' in page


def test_a_bad_setting_is_refused_and_changes_nothing(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    response = client.post("/account/settings/", form({**ALL_ON, "tile_faces": "emoji"}))
    assert response.status_code == 400
    assert "field--error" in response.content.decode()
    profile = Profile.objects.get(user=alice)
    assert (profile.tile_faces, profile.zen, profile.language, profile.sounds) == ("pips", False, "", True)


def test_the_table_page_gets_the_members_preferences_and_a_guest_none(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    client = logged_in(alice)
    before = table_config(client, table.pk)["preferences"]
    assert before["sounds"] is True
    assert before["confirm"] is False
    assert before["tileFaces"] == "pips"
    assert before["zen"] is False
    assert before["saveUrl"] == "/account/settings/"
    client.post("/account/settings/", form(ALL_ON))
    after = table_config(client, table.pk)["preferences"]
    assert after["sounds"] is False
    assert after["confirm"] is True
    assert after["muteReactions"] is True
    assert after["tileFaces"] == "numbers"
    assert after["zen"] is True
    # Bob's are his own; a guest's switches stay in their browser.
    assert table_config(logged_in(bob), table.pk)["preferences"]["zen"] is False
    assert table_config(Client(), table.pk)["preferences"] is None


def test_a_switch_of_the_table_page_saves_the_members_preference(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    for switch, value, field, stored in [
        ("mute-sounds", "1", "sounds", False),
        ("confirm", "1", "confirm_moves", True),
        ("mute-reactions", "1", "mute_reactions", True),
        ("chat-off", "1", "chat_off", True),
        ("chat-off", "0", "chat_off", False),
        ("tile-numbers", "1", "tile_faces", "numbers"),
        ("tile-numbers", "0", "tile_faces", "pips"),
        ("mute-sounds", "0", "sounds", True),
    ]:
        response = client.post("/account/settings/", {"preference": switch, "value": value}, HTTP_ACCEPT="application/json")
        assert response.status_code == 200
        assert response.json() == {"ok": True}
        assert getattr(Profile.objects.get(user=alice), field) == stored, (switch, value)
    refused = client.post("/account/settings/", {"preference": "zen-and-more", "value": "1"})
    assert refused.status_code == 400
    assert client.post("/account/settings/", {"preference": "confirm", "value": "yes"}).status_code == 400
    assert Profile.objects.get(user=alice).confirm_moves is True


def test_zen_mode_hides_the_ratings_while_the_game_is_played(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    zen = logged_in(alice)
    zen.post("/account/settings/", form({**ALL_ON, "language": "en"}))
    url = f"/table/{table.pk}/ratings.json"
    assert zen.get(url).json()["current"] == []
    # Others still see them.
    assert [row["seat"] for row in logged_in(bob).get(url).json()["current"]] == [0, 1]
    # Once the game is over, the ratings show again.
    game_services.resign(game_id=table.game.pk, seat=1)
    assert [row["seat"] for row in zen.get(url).json()["current"]] == [0, 1]


def test_the_language_preference_applies_when_the_member_logs_in(make_member) -> None:
    alice = make_member("alice")
    Profile.objects.filter(user=alice).update(language="fr")
    client = Client()
    response = client.post("/accounts/login/", {"login": "alice", "password": "secret-pass-123"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "fr"
    assert "Jouer aux dominos en ligne" in client.get("/").content.decode()


def test_the_language_chosen_at_the_foot_of_a_page_becomes_the_members_preference(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert Profile.objects.get(user=alice).language == "fr"
    # A guest's choice stays a cookie.
    Client().post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert Profile.objects.get(user=alice).language == "fr"
