"""Rating ranked games when they end: once, per mode, by ranking or by team."""

from __future__ import annotations

import pytest

from accounts import ratings, services
from accounts.models import Profile, RatedGame, Rating, RatingChange
from games.models import Game, Table
from games.play import services as game_services
from games.tests.helpers import play_out, play_past_the_opening, ranked_table

pytestmark = pytest.mark.django_db


def rating(user, mode: str) -> Rating:
    return Rating.objects.get(user=user, mode=mode)


def test_a_finished_duel_is_rated_once(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    game = play_out(ranked_table([alice, bob]), seed=3)
    record = services.rate_finished_game(game_id=game.pk)
    assert record is not None
    assert services.rate_finished_game(game_id=game.pk) is None  # idempotent
    assert RatedGame.objects.count() == 1
    a, b = rating(alice, "duel-block"), rating(bob, "duel-block")
    assert a.games == b.games == 1
    if game.winner is None:
        assert a.draws == b.draws == 1
        assert a.mu == pytest.approx(ratings.MU)
    else:
        winner, loser = (a, b) if game.winner == 0 else (b, a)
        assert winner.wins == 1
        assert loser.losses == 1
        assert winner.mu > ratings.MU > loser.mu
    assert a.sigma < ratings.SIGMA
    assert RatingChange.objects.filter(rated_game=record).count() == 2


def test_the_end_signal_rates_the_game_after_commit(make_member, django_capture_on_commit_callbacks) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    with django_capture_on_commit_callbacks(execute=True):
        table = ranked_table([alice, bob])
        game = play_past_the_opening(table)
        game_services.resign(game_id=game.pk, seat=0)
    assert RatedGame.objects.filter(game=game).exists()
    assert rating(bob, "duel-block").wins == 1
    assert rating(alice, "duel-block").losses == 1


def test_four_players_rated_by_final_ranking(make_member) -> None:
    users = [make_member(f"p{i}") for i in range(4)]
    game = play_out(ranked_table(users, "four"), seed=5)
    services.rate_finished_game(game_id=game.pk)
    changes = {c.seat: c for c in RatingChange.objects.all()}
    scores = game.result["scores"]
    best = max(range(4), key=lambda s: (s == game.winner, scores[s]))
    worst = min(range(4), key=lambda s: (s == game.winner, scores[s]))
    assert changes[best].rank == 1
    assert changes[best].mu_after > changes[worst].mu_after


def test_pairs_are_rated_by_team(make_member) -> None:
    users = [make_member(f"p{i}") for i in range(4)]
    table = ranked_table(users, "pairs")
    game = play_past_the_opening(table)
    game_services.resign(game_id=game.pk, seat=1)  # pair B (seats 1 and 3) loses
    services.rate_finished_game(game_id=game.pk)
    after = {c.seat: c for c in RatingChange.objects.all()}
    assert after[0].outcome == after[2].outcome == "win"
    assert after[1].outcome == after[3].outcome == "loss"
    assert after[0].mu_after == pytest.approx(after[2].mu_after)
    assert after[1].mu_after < ratings.MU < after[0].mu_after


def test_resigning_ranks_the_resigner_last_even_when_ahead(make_member) -> None:
    users = [make_member(f"p{i}") for i in range(3)]
    table = ranked_table(users, "three")
    game = play_past_the_opening(table)
    game_services.resign(game_id=game.pk, seat=2)
    services.rate_finished_game(game_id=game.pk)
    assert RatingChange.objects.get(seat=2).rank == 3
    assert RatingChange.objects.get(seat=2).outcome == "loss"


def test_unranked_and_aborted_games_are_not_rated(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    computer = game_services.create_computer_table(
        user=alice, preset="duel-block", players=2, teams=False, target=0, level="easy"
    )
    game = Game.objects.get(table=computer)
    game_services.resign(game_id=game.pk, seat=0)
    assert services.rate_finished_game(game_id=game.pk) is None

    aborted = ranked_table([alice, bob])
    game = Game.objects.get(table=aborted)
    game_services.abort_game(game_id=game.pk)
    assert Table.objects.get(pk=aborted.pk).status == Table.Status.ABORTED
    assert services.rate_finished_game(game_id=game.pk) is None
    assert not Rating.objects.exists()


def test_missed_games_are_rated_by_the_sweep(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    game = play_out(ranked_table([alice, bob]), seed=8)  # no on_commit: the signal never ran
    assert services.rate_missed_games() == 1
    assert services.rate_missed_games() == 0
    assert RatedGame.objects.filter(game=game).exists()


def test_abandonment_is_counted_against_the_leaver(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    first = play_out(ranked_table([alice, bob]), seed=3)
    second = play_out(ranked_table([bob, alice]), seed=4)
    assert services.record_abandonment(user_id=alice.pk, game_id=first.pk, seat=0)
    assert services.record_abandonment(user_id=alice.pk, game_id=second.pk, seat=1)
    # One per game and seat: the same abandonment heard twice counts once.
    assert not services.record_abandonment(user_id=alice.pk, game_id=first.pk, seat=0)
    assert Profile.objects.get(user=alice).abandoned == 2


def test_a_claimed_abandonment_counts_against_the_leaver(make_member) -> None:
    from games.timers import expiry

    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    game = Game.objects.get(table=table)
    expiry.abandon(game_id=game.pk, seat=game.to_move)
    leaver = (alice, bob)[game.to_move]
    assert Profile.objects.get(user=leaver).abandoned == 1
    assert Profile.objects.get(user=(bob if leaver == alice else alice)).abandoned == 0


def test_a_player_who_left_for_good_ranks_last_and_is_counted_as_abandoning(make_member) -> None:
    from games.models import StandIn

    users = [make_member(f"p{i}") for i in range(3)]
    table = ranked_table(users, "three")
    StandIn.objects.create(table=table, seat=2, user=users[2])
    game = play_out(table, seed=9)
    services.rate_finished_game(game_id=game.pk)
    change = RatingChange.objects.get(seat=2)
    assert change.rank == 3
    assert change.outcome == "loss"
    assert services.count_stand_ins_as_abandoned(table_id=table.pk) == 1
    assert Profile.objects.get(user=users[2]).abandoned == 1
    assert not StandIn.objects.exists()


def test_a_deal_blocked_from_the_first_tile_ends_and_is_rated(make_member, monkeypatch, django_capture_on_commit_callbacks) -> None:
    from games.engine import new_game
    from games.play.modes import RANKED_MODES
    from games.play.services import tables

    rules = RANKED_MODES["duel-block"].rules
    seed = next(f"blocked-{n}" for n in range(100_000) if new_game(rules, f"blocked-{n}").game_over)
    monkeypatch.setattr(tables, "new_seed", lambda: seed)
    alice, bob = make_member("alice"), make_member("bob")
    with django_capture_on_commit_callbacks(execute=True):
        table = game_services.create_table(
            kind=Table.Kind.RANKED,
            rules=rules,
            preset="duel-block",
            seats=[game_services.SeatSpec(user=alice), game_services.SeatSpec(user=bob)],
            public=True,
            mode="duel-block",
        )
    assert table.status == Table.Status.FINISHED
    assert Game.objects.get(table=table).finished
    assert RatedGame.objects.filter(game__table=table).exists()
