"""Ratings come only from games really played (issue 33): a game resigned or
agreed drawn before any tile beyond the opening is not rated, a ranked
rematch is not rated, and the same two members' repeated games within a day
count for less (the k-th weighs 1/k)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from accounts import ratings, services
from accounts.models import RatedGame, Rating, RatingChange
from games.models import Game, Table
from games.play import services as game_services
from games.tests.helpers import play_past_the_opening, ranked_table

pytestmark = pytest.mark.django_db


def shown(user, mode: str = "duel-block") -> int:
    row = Rating.objects.filter(user=user, mode=mode).first()
    return ratings.display_rating(row.mu if row else ratings.MU)


def test_four_instant_resignations_move_no_rating(make_member, django_capture_on_commit_callbacks) -> None:
    # Issue 33: four games resigned at once moved an account from 1,500 to 1,949.
    alice, bob = make_member("alice"), make_member("bob")
    for _ in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            table = ranked_table([alice, bob])
            game_services.resign(game_id=table.game.pk, seat=1)
        assert Game.objects.get(table=table).aborted
    assert shown(alice) == shown(bob) == 1500
    assert not RatedGame.objects.exists()
    assert services.rate_missed_games() == 0  # the sweep does not rate them either
    profile = Client().get("/u/alice/").content.decode()
    assert profile.count('class="badge" data-aborted') == 4  # the recent games say "Aborted"


def test_an_instant_agreed_draw_is_not_rated(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob], "duel-draw")
    game_services.offer_draw(game_id=table.game.pk, seat=0)
    game_services.offer_draw(game_id=table.game.pk, seat=1)
    assert services.rate_finished_game(game_id=table.game.pk) is None


def test_a_game_resigned_after_the_opening_is_rated(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    play_past_the_opening(table)
    game_services.resign(game_id=table.game.pk, seat=1)
    assert not Game.objects.get(table=table).aborted
    assert services.rate_finished_game(game_id=table.game.pk) is not None
    assert shown(alice) > 1500 > shown(bob)


def test_repeated_games_of_the_same_pair_within_a_day_weigh_less(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    deltas = []
    for k in range(1, 4):
        table = ranked_table([alice, bob])
        play_past_the_opening(table)
        before = Rating.objects.filter(user=alice, mode="duel-block").first()
        skill = before.skill if before else ratings.Skill()
        other = Rating.objects.filter(user=bob, mode="duel-block").first()
        full = ratings.rate_match([[skill], [other.skill if other else ratings.Skill()]], [1, 2])[0][0]
        game_services.resign(game_id=table.game.pk, seat=1)
        record = services.rate_finished_game(game_id=table.game.pk)
        change = RatingChange.objects.get(rated_game=record, user=alice)
        assert change.weight == pytest.approx(1 / k)
        assert change.mu_after - change.mu_before == pytest.approx((full.mu - skill.mu) / k)
        assert change.sigma_after - change.sigma_before == pytest.approx((full.sigma - skill.sigma) / k)
        deltas.append(change.mu_after - change.mu_before)
    assert deltas[0] > deltas[1] > deltas[2] > 0
    # Another opponent counts in full; a day later, the pair counts in full again.
    table = ranked_table([alice, carol])
    play_past_the_opening(table)
    game_services.resign(game_id=table.game.pk, seat=1)
    record = services.rate_finished_game(game_id=table.game.pk)
    assert RatingChange.objects.get(rated_game=record, user=alice).weight == 1
    RatedGame.objects.update(rated_at=timezone.now() - datetime.timedelta(hours=25))
    table = ranked_table([alice, bob])
    play_past_the_opening(table)
    game_services.resign(game_id=table.game.pk, seat=0)
    record = services.rate_finished_game(game_id=table.game.pk)
    assert RatingChange.objects.get(rated_game=record, user=bob).weight == 1
    assert services.rating_changes(record)[0]["weight"] == 1


def test_a_ranked_rematch_is_a_friendly_game_not_rated(make_member, django_capture_on_commit_callbacks) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    play_past_the_opening(table)
    game_services.resign(game_id=table.game.pk, seat=1)
    services.rate_finished_game(game_id=table.game.pk)
    for seat in (0, 1):
        game_services.offer_rematch(table_id=table.pk, seat=seat)
    again = Table.objects.get(rematch_of=table)
    assert again.kind == Table.Kind.PRIVATE
    assert again.mode == ""
    before = (shown(alice), shown(bob))
    play_past_the_opening(again)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(game_id=again.game.pk, seat=1)
    assert services.rate_finished_game(game_id=again.game.pk) is None
    assert (shown(alice), shown(bob)) == before
    assert RatedGame.objects.count() == 1
