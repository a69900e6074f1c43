"""``/account/close/``: a closed account cannot log in, its username stays
reserved, its personal data is erased and its name no longer shows on its
games. (The lobby's part of closing: lobby/tests/test_account_closing.py.)"""

from __future__ import annotations

import json
import re

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client

from accounts import services
from accounts.models import Friendship, Profile, Rating
from games.models import Seat, Table
from games.play import services as game_services
from games.tests.helpers import play_out, ranked_table

pytestmark = pytest.mark.django_db
PASSWORD = "secret-pass-123"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def close(client: Client, password: str = PASSWORD):
    return client.post("/account/close/", {"password": password})


def test_the_confirmation_page_says_what_closing_does(make_member) -> None:
    client = logged_in(make_member("alice"))
    html = client.get("/account/close/").content.decode()
    assert 'data-form="close"' in html
    assert 'name="password"' in html
    assert "cannot be undone" in html
    client.cookies["django_language"] = "fr"
    assert "Fermer votre compte" in client.get("/account/close/").content.decode()


def test_a_wrong_password_closes_nothing(make_member) -> None:
    alice = make_member("alice")
    client = logged_in(alice)
    response = close(client, "not-the-password")
    assert response.status_code == 400
    assert "The password is not right." in response.content.decode()
    alice.refresh_from_db()
    assert alice.is_active
    assert alice.email == "alice@example.com"
    assert alice.check_password(PASSWORD)
    assert client.get("/account/settings/").status_code == 200  # still logged in


def test_a_closed_account_cannot_log_in_and_its_username_stays_reserved(make_member) -> None:
    alice = make_member("alice")
    alice.first_name = "Alice"
    alice.save()
    EmailAddress.objects.create(user=alice, email="alice@example.com", verified=True, primary=True)
    Authenticator.objects.create(user=alice, type=Authenticator.Type.TOTP, data={"secret": "JBSWY3DPEHPK3PXP"})
    bob = make_member("bob")
    services.send_friend_request(from_user=alice, to_username="bob")
    services.update_preferences(user=alice, zen=True, language="fr")
    client = logged_in(alice)
    other_device = logged_in(alice)
    response = close(client)
    assert response.status_code == 302
    assert response["Location"] == "/"
    # Logged out, here and on every other device (their sessions are gone).
    assert client.get("/account/settings/").status_code == 302
    assert other_device.get("/account/settings/").status_code == 302
    assert not [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(alice.pk)]
    # Personal data erased; the username stays.
    alice.refresh_from_db()
    assert alice.username == "alice"
    assert not alice.is_active
    assert (alice.email, alice.first_name, alice.last_name) == ("", "", "")
    assert not alice.has_usable_password()
    assert not EmailAddress.objects.filter(user=alice).exists()
    assert not Authenticator.objects.filter(user=alice).exists()
    assert not Friendship.objects.filter(from_user=alice).exists()
    profile = Profile.objects.get(user=alice)
    assert profile.closed_at is not None
    assert not profile.zen
    assert profile.language == ""
    # The old password no longer logs in, by username or by address.
    for login in ("alice", "alice@example.com"):
        attempt = Client()
        attempt.post("/accounts/login/", {"login": login, "password": PASSWORD})
        assert "_auth_user_id" not in attempt.session, login
    # Nobody can sign up as alice again.
    signup = Client().post(
        "/accounts/signup/",
        {"username": "alice", "email": "new@example.com", "password1": "a-long-pass-phrase-42", "password2": "a-long-pass-phrase-42"},
    )
    assert signup.status_code == 200
    assert "username" in signup.content.decode()
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1
    # The profile is gone; bob is untouched.
    assert Client().get("/u/alice/").status_code == 404
    assert logged_in(bob).get("/u/bob/").status_code == 200


def test_the_name_of_a_closed_account_no_longer_shows_on_its_games(make_member) -> None:
    # Its chat lines and tournaments (apps above accounts, which this test may
    # not import): tournaments/tests/test_closed_account.py.
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    game = play_out(table, seed=4)
    services.rate_finished_game(game_id=game.pk)
    # Established enough for the leaderboard.
    Rating.objects.filter(mode="duel-block").update(sigma=2.0)
    assert "/u/alice/" in Client().get("/leaderboard/?mode=duel-block").content.decode()
    assert close(logged_in(alice)).status_code == 302
    viewer = logged_in(bob)
    pages = {
        "table": viewer.get(f"/table/{table.pk}/").content.decode(),
        "replay": viewer.get(f"/table/{table.pk}/replay/").content.decode(),
        "replay.json": viewer.get(f"/table/{table.pk}/replay.json").content.decode(),
        "ratings.json": viewer.get(f"/table/{table.pk}/ratings.json").content.decode(),
        "bob's profile": viewer.get("/u/bob/").content.decode(),
        "leaderboard": viewer.get("/leaderboard/?mode=duel-block").content.decode(),
    }
    for where, text in pages.items():
        assert not re.search(r"\balice\b", text), where
    assert "Closed account" in pages["table"]
    assert "Closed account" in pages["replay"]
    assert "Closed account" in pages["bob's profile"]
    config = json.loads(re.search(r'id="table-config" type="application/json">(.*?)</script>', pages["table"], re.S).group(1))
    assert [(p["name"], p["member"]) for p in config["players"]] == [("Closed account", None), ("bob", "bob")]
    # Translated, as every name is.
    viewer.cookies["django_language"] = "fr"
    assert "Compte fermé" in viewer.get(f"/table/{table.pk}/replay/").content.decode()
    # The game and the ratings stand.
    assert Seat.objects.get(table=table, number=0).user_id == alice.pk
    assert Rating.objects.filter(user=alice).exists()


def test_a_rematch_asked_before_closing_does_not_seat_the_closed_account_again(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    play_out(table, seed=4)
    game_services.offer_rematch(table_id=table.pk, seat=0)
    assert close(logged_in(alice)).status_code == 302
    rematch = game_services.offer_rematch(table_id=table.pk, seat=1)
    assert rematch.table is None
    assert rematch.waiting == [0]
    assert not Seat.objects.filter(user=alice, table__status__in=["waiting", "playing"]).exists()


def test_closing_is_refused_while_seated_at_a_live_table_of_people(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    client = logged_in(alice)
    page = client.get("/account/close/").content.decode()
    assert "data-close-blocked" in page
    assert f'href="/table/{table.pk}/"' in page
    response = close(client)
    assert response.status_code == 400
    assert f"You are seated at table {table.pk}" in response.content.decode()
    alice.refresh_from_db()
    assert alice.is_active
    assert alice.email
    assert alice.has_usable_password()
    assert Seat.objects.get(table=table, number=0).name == "alice"
    # Once the game is over, the account closes.
    game_services.resign(game_id=table.game.pk, seat=0)
    assert close(client).status_code == 302


def test_games_against_the_computer_still_played_are_stopped(make_member) -> None:
    alice = make_member("alice")
    table = game_services.create_computer_table(
        user=alice, preset="duel-block", players=2, teams=False, target=0, level="easy"
    )
    assert Table.objects.get(pk=table.pk).live
    assert close(logged_in(alice)).status_code == 302
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED


def test_closing_needs_a_post_with_the_password_of_a_member(client: Client, make_member) -> None:
    assert client.post("/account/close/", {"password": PASSWORD}).status_code == 302  # to the login
    alice = make_member("alice")
    assert close(logged_in(alice), "").status_code == 400
    alice.refresh_from_db()
    assert alice.is_active
