"""Profiles, leaderboards, friends and the ranked page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts import ratings, services
from accounts.models import Friendship, Rating
from games.models import Table
from games.tests.helpers import play_out, ranked_table

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_profile_shows_a_rating_per_mode_with_the_number_in_data_rating(client: Client, make_member) -> None:
    alice = make_member("alice")
    Rating.objects.create(user=alice, mode="duel-draw", mu=26.0, sigma=4.0)
    html = client.get("/u/alice/").content.decode()
    ratings_shown = dict(
        re.findall(
            r'data-mode="([a-z-]+)">\s*<h3>.*?</h3>\s*<div class="rating-value" data-rating="(\d+)"',
            html,
            re.S,
        )
    )
    assert ratings_shown == {
        "duel-block": "1500",
        "duel-draw": "1560",
        "three": "1500",
        "four": "1500",
        "pairs": "1500",
    }
    # Provisional ratings show a question mark after the number; settled ones do not.
    assert re.search(
        r'data-rating="1500" data-provisional[^>]*>1500<span class="provisional">\?</span>', html
    )
    assert 'data-rating="1560">1560</div>' in html


def test_profile_lists_recent_games_with_replay_links_and_rating_changes(client: Client, make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    game = play_out(table, seed=4)
    services.rate_finished_game(game_id=game.pk)
    html = client.get("/u/alice/").content.decode()
    assert f'href="/table/{table.pk}/replay/"' in html
    assert 'href="/u/bob/"' in html
    assert "Duel, block game" in html


def test_profile_lists_a_private_game_only_to_those_who_sat_at_it(client: Client, make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = ranked_table([alice, bob])
    Table.objects.filter(pk=table.pk).update(kind=Table.Kind.PRIVATE, mode="", public=False)
    play_out(table, seed=4)
    replay_link = f'href="/table/{table.pk}/replay/"'
    # A visitor and a member who did not play: no line, so no link that answers 404.
    assert replay_link not in client.get("/u/alice/").content.decode()
    assert replay_link not in logged_in(carol).get("/u/alice/").content.decode()
    assert logged_in(carol).get(f"/table/{table.pk}/replay/").status_code == 404
    # Its players see it, on either profile, and its replay opens.
    for player in (alice, bob):
        assert replay_link in logged_in(player).get("/u/alice/").content.decode()
        assert logged_in(player).get(f"/table/{table.pk}/replay/").status_code == 200


def test_unknown_profile_is_404(client: Client, db) -> None:
    assert client.get("/u/nobody/").status_code == 404


def test_leaderboard_leaves_out_provisional_players_and_sorts_by_rating(client: Client, make_member) -> None:
    for name, mu, sigma in [("solid", 28, 2), ("steady", 30, 3), ("lucky", 33, 6.8), ("new", 25, 8.3)]:
        Rating.objects.create(user=make_member(name), mode="three", mu=mu, sigma=sigma, games=20)
    html = client.get("/leaderboard/?mode=three").content.decode()
    assert re.findall(r'<td><a href="/u/(\w+)/">', html) == ["steady", "solid"]
    assert 'data-rating="1800"' in html
    assert "/u/lucky/" not in html
    assert "/u/new/" not in html


def test_leaderboard_unknown_mode_falls_back_to_the_first(client: Client, db) -> None:
    response = client.get("/leaderboard/?mode=nonsense")
    assert response.status_code == 200
    assert 'aria-current="page">Duel, block game' in response.content.decode()


def test_friend_request_accept_and_remove(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    a, b = logged_in(alice), logged_in(bob)
    a.post("/friends/add/", {"username": "bob"})
    request = Friendship.objects.get(from_user=alice, to_user=bob)
    assert not request.accepted
    assert 'data-friend-request="alice"' in b.get("/friends/").content.decode()
    assert 'data-friend-pending="bob"' in a.get("/friends/").content.decode()
    b.post(f"/friends/{request.pk}/accept/")
    assert Friendship.objects.get(pk=request.pk).accepted
    assert 'data-friend="bob"' in a.get("/friends/").content.decode()
    assert 'data-friend="alice"' in b.get("/friends/").content.decode()
    a.post(f"/friends/{bob.pk}/remove/")
    assert not Friendship.objects.exists()


def test_asking_back_makes_friends_at_once(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    services.send_friend_request(from_user=alice, to_username="bob")
    friendship = services.send_friend_request(from_user=bob, to_username="ALICE")
    assert friendship.accepted
    assert Friendship.objects.count() == 1


def test_no_friendship_with_oneself_or_nobody(make_member) -> None:
    alice = make_member("alice")
    with pytest.raises(services.FriendshipError):
        services.send_friend_request(from_user=alice, to_username="alice")
    with pytest.raises(services.FriendshipError):
        services.send_friend_request(from_user=alice, to_username="ghost")


def test_only_the_invited_member_may_accept(make_member) -> None:
    alice, _bob, eve = make_member("alice"), make_member("bob"), make_member("eve")
    request = services.send_friend_request(from_user=alice, to_username="bob")
    with pytest.raises(services.FriendshipError):
        services.accept_friend_request(user=eve, friendship_id=request.pk)
    logged_in(eve).post(f"/friends/{request.pk}/accept/")
    assert not Friendship.objects.get(pk=request.pk).accepted


def test_friends_page_needs_a_login(client: Client, db) -> None:
    response = client.get("/friends/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_ranked_page_needs_a_login_and_lists_every_mode(client: Client, make_member) -> None:
    response = client.get("/ranked/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    html = logged_in(make_member("alice")).get("/ranked/").content.decode()
    for mode in ("duel-block", "duel-draw", "three", "four", "pairs"):
        assert f'data-queue="{mode}"' in html
    assert f'data-rating="{ratings.display_rating(ratings.MU)}"' in html


def test_live_page_lists_public_tables_being_played(client: Client, make_member) -> None:
    table = ranked_table([make_member("alice"), make_member("bob")])
    html = client.get("/live/").content.decode()
    assert f'data-live-table="{table.pk}"' in html
    assert f'href="/table/{table.pk}/"' in html


def test_home_page_shows_the_live_counters_and_the_ranked_modes(client: Client, db) -> None:
    html = client.get("/").content.decode()
    assert 'id="play-ranked" data-counters' in html
    assert "<strong data-online>" in html
    assert "<strong data-searching>" in html
    for mode in ("duel-block", "duel-draw", "three", "four", "pairs"):
        assert f'data-searching-mode="{mode}"' in html
    assert "lobby/js/counters.js" in html
    assert "/accounts/signup/?next=/ranked/" in html


def test_the_admin_lists_member_data(admin_client) -> None:
    for path in (
        "accounts/rating",
        "accounts/friendship",
        "accounts/ratedgame",
        "accounts/profile",
        "lobby/queueentry",
        "lobby/invitation",
        "games/standin",
        "games/presence",
    ):
        assert admin_client.get(f"/admin/{path}/").status_code == 200, path


def test_a_table_nobody_plays_any_more_leaves_the_live_list(client: Client, settings) -> None:
    """A guest who closed their table against the computer: no move, no socket
    of a seated player for LIVE_TABLE_IDLE_SECONDS: not live any more."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game, Presence
    from games.tests.factories import make_table

    settings.LIVE_TABLE_IDLE_SECONDS = 600
    fresh = make_table()
    left = make_table()
    watched_only = make_table()
    still_there = make_table()
    old = timezone.now() - timedelta(seconds=601)
    Game.objects.filter(table__in=[left, watched_only, still_there]).update(updated_at=old)
    Presence.objects.create(channel_name="spectator", table_id=watched_only.pk, seat=None)
    Presence.objects.create(channel_name="player", table_id=still_there.pk, seat=0, session_key="guest")
    html = client.get("/live/").content.decode()
    assert f'data-live-table="{fresh.pk}"' in html
    assert f'data-live-table="{still_there.pk}"' in html
    assert f'data-live-table="{left.pk}"' not in html
    assert f'data-live-table="{watched_only.pk}"' not in html


def test_ratings_json_gives_each_seat_its_new_rating(client: Client, make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    game = play_out(table, seed=4)
    services.rate_finished_game(game_id=game.pk)
    data = client.get(f"/table/{table.pk}/ratings.json").json()
    assert data["mode"] == "duel-block"
    assert [change["seat"] for change in data["changes"]] == [0, 1]
    for change in data["changes"]:
        assert abs(change["after"] - change["before"] - change["delta"]) <= 1
    assert {change["user"] for change in data["changes"]} == {"alice", "bob"}



def test_ratings_are_shown_next_to_names_at_ranked_tables_and_on_the_live_page(client: Client, make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    Rating.objects.create(user=alice, mode="duel-block", mu=ratings.MU + 2, sigma=1.0, games=30)
    table = ranked_table([alice, bob])
    shown = ratings.display_rating(ratings.MU + 2)
    start = ratings.display_rating(ratings.MU)
    data = client.get(f"/table/{table.pk}/ratings.json").json()
    assert data["changes"] == []
    assert data["current"] == [
        {"seat": 0, "rating": shown, "provisional": False},
        {"seat": 1, "rating": start, "provisional": True},
    ]
    html = client.get("/live/").content.decode()
    assert f"alice ({shown}), bob ({start}?)" in html
    # A small preview of the board (its public line) and the scores.
    assert "data-live-preview" in html
    assert 'data-tile="' in html[html.index("data-live-preview") :]
    assert "Scores: 0 \u2013 0" in html


def test_profile_counts_wins_losses_and_draws_per_variant(client: Client, make_member) -> None:
    from accounts import selectors
    from games.models import Game

    alice, bob, carol, dave = (make_member(name) for name in ("alice", "bob", "carol", "dave"))
    assert selectors.results_by_variant(alice, viewer=None) == []
    assert "data-results-by-variant" not in client.get("/u/alice/").content.decode()
    want: dict[str, list[int]] = {}
    games = []
    for mode, players, seed in (
        ("duel-block", [alice, bob], 4),
        ("duel-block", [bob, alice], 5),
        ("pairs", [alice, bob, carol, dave], 6),
    ):
        table = ranked_table(players, mode)
        game = play_out(table, seed=seed)
        games.append(game)
        seat = players.index(alice)
        side = seat % 2 if (game.rules or {}).get("teams") else seat
        row = want.setdefault(f"{game.preset}/{len(players)}{'/pairs' if mode == 'pairs' else ''}", [0, 0, 0])
        row[2 if game.winner is None else (0 if game.winner == side else 1)] += 1
    # An aborted game counts for nothing.
    aborted = play_out(ranked_table([alice, carol]), seed=7)
    Game.objects.filter(pk=aborted.pk).update(result={**(aborted.result or {}), "aborted": True})
    html = client.get("/u/alice/").content.decode()
    shown = dict(re.findall(r'data-variant="([^"]+)" data-results="([^"]+)"', html))
    assert shown == {key: "-".join(map(str, row)) for key, row in want.items()}
    lines = {
        line.preset + ("/pairs" if line.teams else ""): line
        for line in selectors.results_by_variant(alice, viewer=None)
    }
    assert lines["duel-block"].played == 2
    assert lines[games[2].preset + "/pairs"].played == 1
    french = client.get("/u/alice/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Résultats par variante" in french
    assert "par équipes" in french
    # A private game is counted only for those who sat at it.
    private = ranked_table([alice, bob])
    Table.objects.filter(pk=private.pk).update(kind=Table.Kind.PRIVATE, mode="", public=False)
    play_out(private, seed=8)
    seen_by_carol = {
        line.preset: line.played
        for line in selectors.results_by_variant(alice, viewer=carol)
        if not line.teams
    }
    seen_by_bob = {
        line.preset: line.played for line in selectors.results_by_variant(alice, viewer=bob) if not line.teams
    }
    assert seen_by_carol == {"duel-block": 2}
    assert seen_by_bob == {"duel-block": 3}
