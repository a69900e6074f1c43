"""Eight members play a short arena to its end through the services: the
waves, the scoring (once per game), the end with its grace, the podium and
the ratings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import RatedGame, Rating
from games.live import services as live_services
from games.models import Game, Table
from games.tests.helpers import play_out
from games.timers import expiry
from games.verifier.arena import Facts, replay_standings
from tournaments import services
from tournaments.models import GameSeat, Player, Score, Tournament, TournamentGame
from tournaments.tests.helpers import finished_count, live_tables

pytestmark = pytest.mark.django_db(transaction=True)





def test_eight_members_play_an_arena_to_its_end(make_member, lobby_frames):
    members = [make_member(f"player{index}") for index in range(8)]
    tournament = services.create_tournament(
        user=members[0], format="arena", mode="duel-block", minutes=30, starts_in=0, rated=True
    )
    for member in members:
        services.join(tournament=tournament, user=member)
    report = services.tick(now=timezone.now() + timedelta(seconds=1))
    assert report["started"] == 1
    assert report["paired"] == 4
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.STARTED
    # Each pair hears of its table on the lobby socket (a deal over at its opening
    # has its players paired again at once, and only the table they play is announced).
    assert len(lobby_frames) == len(live_tables(tournament)) == 4
    for user_ids, frame in lobby_frames:
        assert frame["type"] == "matched"
        assert frame["tournament"] == tournament.pk
        table = Table.objects.get(pk=frame["table"])
        assert frame["url"] == f"/table/{table.pk}/"
        assert sorted(user_ids) == sorted(table.seats.values_list("user_id", flat=True))
        assert table.kind == Table.Kind.RANKED
        assert table.mode == "duel-block"

    # Three waves: each finished game is scored and its players paired again at once.
    for wave in range(3):
        for table in live_tables(tournament):
            play_out(table, seed=wave * 10 + table.pk)
    played = finished_count(tournament)
    assert played >= 12
    assert Score.objects.filter(game__tournament=tournament).count() == 2 * played
    # Nobody is ever at two tables at once, and the waves went on.
    assert len(live_tables(tournament)) == 4
    for table in live_tables(tournament):
        users = list(table.seats.values_list("user_id", flat=True))
        assert len(set(users)) == 2

    # Time is up: no new pairing; the games still playing finish within the grace and count.
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    tournament.refresh_from_db()
    assert services.tick()["finished"] == 0  # games still playing
    for table in live_tables(tournament):
        play_out(table, seed=table.pk)
    assert live_tables(tournament) == []
    played = finished_count(tournament)
    assert services.tick()["finished"] == 1
    assert services.tick()["finished"] == 0  # the end is computed once
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    finished_games = TournamentGame.objects.filter(tournament=tournament)
    assert finished_games.count() == played >= 16

    # Scored once: a second delivery of a game's end writes nothing.
    first = finished_games.first()
    assert services.record_game(table_id=first.table_id) == []
    assert Score.objects.filter(game__tournament=tournament).count() == 2 * played

    # The standings agree with the scoring rules replayed over the games in order.
    players = list(Player.objects.filter(tournament=tournament).order_by("joined_at", "pk"))
    names = [player.user.username for player in players]
    games = []
    for tournament_game in finished_games.order_by("pk"):
        seats = list(GameSeat.objects.filter(game=tournament_game).order_by("number").select_related("player__user"))
        game = Game.objects.get(table_id=tournament_game.table_id)
        facts = services.game_facts(game, seats)
        games.append([(seat.player.user.username, fact) for seat, fact in zip(seats, facts)])
    # The order of scoring is the order of the Score rows.
    order = list(
        Score.objects.filter(game__tournament=tournament).order_by("pk").values_list("game__table_id", flat=True)
    )
    table_order = list(dict.fromkeys(order))
    by_table = {tg.table_id: rows for tg, rows in zip(finished_games.order_by("pk"), games)}
    _sheets, _points, expected = replay_standings(names, [by_table[table_id] for table_id in table_order])
    assert [(row["player"], row["score"], row["rank"]) for row in tournament.final_standings] == [
        (row.player, row.score, row.rank) for row in expected
    ]
    assert sum(row["games"] for row in tournament.final_standings) == 2 * played
    # Every result scored as the rules say (a win 2, a draw 1, more on a streak).
    assert all(isinstance(fact, Facts) for rows in games for _name, fact in rows)
    assert sum(row["score"] for row in tournament.final_standings) == sum(
        Score.objects.filter(game__tournament=tournament).values_list("points", flat=True)
    )

    # The podium is the top three of the frozen standings.
    podium = [row["player"] for row in tournament.final_standings[:3]]
    top = sorted(players, key=lambda player: (-player.score, -player.wins, player.joined_at, player.pk))
    assert podium == [player.user.username for player in top[:3]]

    # Rated like any ranked game of the mode.
    assert RatedGame.objects.filter(game__table__tournament_game__tournament=tournament).count() == played
    for player in players:
        rating = Rating.objects.get(user=player.user, mode="duel-block")
        assert rating.games == player.games == GameSeat.objects.filter(player=player).count()


def test_a_game_that_ends_after_the_standings_froze_does_not_score(make_member, lobby_frames):
    a, b = make_member("alice"), make_member("bruno")
    tournament = services.create_tournament(user=a, format="arena", mode="duel-block", minutes=5, starts_in=0)
    services.join(tournament=tournament, user=a)
    services.join(tournament=tournament, user=b)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    (table,) = live_tables(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - services.grace() - timedelta(seconds=1))
    assert services.tick()["finished"] == 1
    play_out(table)
    assert Score.objects.filter(game__tournament=tournament).count() == 0
    tournament.refresh_from_db()
    assert [row["score"] for row in tournament.final_standings] == [0, 0]


def test_paused_and_withdrawn_players_are_not_paired(make_member, lobby_frames):
    members = [make_member(name) for name in ("ana", "ben", "cyd", "dan")]
    tournament = services.create_tournament(user=members[0], format="arena", mode="duel-draw", minutes=5, starts_in=0)
    for member in members:
        services.join(tournament=tournament, user=member)
    services.set_paused(tournament=tournament, user=members[1], paused=True)
    services.withdraw(tournament=tournament, user=members[2])
    services.tick(now=timezone.now() + timedelta(seconds=1))
    (table,) = live_tables(tournament)
    assert set(table.seats.values_list("user_id", flat=True)) == {members[0].pk, members[3].pk}


def test_berserk_is_kept_for_the_next_game_and_refused_once_the_game_has_begun(make_member, lobby_frames):
    a, b = make_member("alice"), make_member("bruno")
    tournament = services.create_tournament(user=a, format="arena", mode="duel-block", minutes=5, starts_in=0)
    services.join(tournament=tournament, user=a)
    services.join(tournament=tournament, user=b)
    services.berserk(tournament=tournament, user=a)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    seat = GameSeat.objects.get(player__user=a)
    assert seat.berserk is True
    assert Player.objects.get(user=a).berserk is False  # spent on this game
    table = seat.game.table
    # The table core's clock gives the berserk player half the turn time.
    turns = dict(table.seats.values_list("user_id", "turn_percent"))
    assert turns == {a.pk: 50, b.pk: 100}
    game = Game.objects.get(table=table)
    if game.seq > 0:
        with pytest.raises(services.TournamentError):
            services.berserk(tournament=tournament, user=b)
        assert table.seats.get(user=b).turn_percent == 100
    else:
        services.berserk(tournament=tournament, user=b)
        assert GameSeat.objects.get(player__user=b).berserk is True
        assert table.seats.get(user=b).turn_percent == 50


def test_berserk_is_refused_after_the_first_move_and_the_clock_is_unchanged(make_member, lobby_frames):
    a, b = make_member("alice"), make_member("bruno")
    tournament = services.create_tournament(user=a, format="arena", mode="duel-draw", minutes=5, starts_in=0)
    services.join(tournament=tournament, user=a)
    services.join(tournament=tournament, user=b)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    (table,) = live_tables(tournament)
    game = Game.objects.get(table=table)
    for seat in (0, 1):  # both at the table: the server plays the turn of the one out of time
        live_services.touch_presence(channel_name=f"s{seat}", user_id=None, table_id=table.pk, seat=seat)
    expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=31))
    game.refresh_from_db()
    assert game.seq > 0
    for member in (a, b):
        with pytest.raises(services.TournamentError, match="first move"):
            services.berserk(tournament=tournament, user=member)
    assert set(table.seats.values_list("turn_percent", flat=True)) == {100}
    assert not GameSeat.objects.filter(game__table=table, berserk=True).exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"format": "duplicate"}, "1 to 12 rounds"),
        ({"mode": "pairs"}, "duel"),
        ({"minutes": 0}, "1 to 120"),
        ({"starts_in": -1}, "week"),
    ],
)
def test_a_bad_tournament_is_refused_and_nothing_is_written(make_member, fields, message):
    values = {"format": "arena", "mode": "duel-block", "minutes": 10, "starts_in": 5, **fields}
    with pytest.raises(services.TournamentError, match=message):
        services.create_tournament(user=make_member("alice"), **values)
    assert Tournament.objects.count() == 0


def test_a_finished_game_enters_the_standings_exactly_once(make_member, lobby_frames):
    from django.db import IntegrityError, transaction

    a, b, c, d = (make_member(name) for name in ("ana", "ben", "cyd", "dan"))
    tournament = services.create_tournament(user=a, format="arena", mode="duel-block", minutes=5, starts_in=0)
    for member in (a, b, c, d):
        services.join(tournament=tournament, user=member)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    table = live_tables(tournament)[0]
    play_out(table)
    scores = Score.objects.filter(game__table=table)
    assert scores.count() == 2
    totals = list(Player.objects.order_by("pk").values_list("score", "games"))
    # The end announced again (a second delivery), while the tournament runs.
    assert services.record_game(table_id=table.pk) == []
    assert scores.count() == 2
    assert list(Player.objects.order_by("pk").values_list("score", "games")) == totals
    # The database itself refuses a second score of the same game for a player.
    score = scores.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Score.objects.create(game=score.game, player=score.player, points=2, outcome="win")


def test_the_lobby_tick_starts_and_pairs_a_tournament_without_importing_it(make_member, lobby_frames):
    from lobby import periodic

    a, b = make_member("alice"), make_member("bruno")
    tournament = services.create_tournament(user=a, format="arena", mode="duel-draw", minutes=5, starts_in=0)
    services.join(tournament=tournament, user=a)
    services.join(tournament=tournament, user=b)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    report = periodic.tick()
    assert report["tournaments"]["started"] == 1
    assert report["tournaments"]["paired"] == 1
    assert len(live_tables(tournament)) == 1


def test_a_deal_over_at_its_opening_is_scored_and_its_players_paired_again(make_member, lobby_frames, monkeypatch):
    """About one duel-block deal in 110 blocks at its automatic opening: the game is
    over as its table is created, scored at once, and its two players sent on."""
    import itertools

    from games.engine import new_game
    from games.fairplay.fairness import new_seed
    from games.play.modes import RANKED_MODES
    from games.play.services import tables

    rules = RANKED_MODES["duel-block"].rules
    instant = next(seed for seed in (f"opening-{n}" for n in itertools.count()) if new_game(rules, seed).round_over)
    dealt = itertools.count()
    monkeypatch.setattr(tables, "new_seed", lambda: instant if next(dealt) == 0 else new_seed())
    members = [make_member(f"player{index}") for index in range(4)]
    tournament = services.create_tournament(
        user=members[0], format="arena", mode="duel-block", minutes=30, starts_in=0, rated=True
    )
    for member in members:
        services.join(tournament=tournament, user=member)
    assert services.tick(now=timezone.now() + timedelta(seconds=1))["paired"] == 2
    assert finished_count(tournament) == 1
    first = TournamentGame.objects.filter(tournament=tournament).order_by("pk").first()
    assert Score.objects.filter(game=first).count() == 2
    # Its two players were paired again (together: nobody else was free), and
    # told of that table only, not of the one already over
    # (tournaments/tests/test_arena_sockets.py follows the frames).
    assert len(live_tables(tournament)) == 2
    assert sorted(frame["table"] for _users, frame in lobby_frames) == sorted(
        table.pk for table in live_tables(tournament)
    )


def test_a_game_over_within_the_grace_counts_even_when_its_end_signal_was_lost(make_member, lobby_frames, monkeypatch):
    """A game that ends within the grace but whose scoring has not run yet (the
    process that ended it stopped after the commit, or the tick's search of missed
    games ran just before it ended) is scored by the end itself, under the
    tournament's lock, before the standings freeze: it is not lost."""
    a, b = make_member("alice"), make_member("bruno")
    tournament = services.create_tournament(user=a, format="arena", mode="duel-block", minutes=5, starts_in=0)
    services.join(tournament=tournament, user=a)
    services.join(tournament=tournament, user=b)
    services.tick(now=timezone.now() + timedelta(seconds=1))
    (table,) = live_tables(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    with monkeypatch.context() as lost:
        lost.setattr(services, "after_game", lambda **_kwargs: {})  # the end signal lost
        play_out(table)
    assert Score.objects.filter(game__table=table).count() == 0
    assert services.finish(tournament=tournament)
    assert Score.objects.filter(game__table=table).count() == 2
    tournament.refresh_from_db()
    scored = sorted(Score.objects.filter(game__table=table).values_list("points", flat=True))
    assert sorted(row["score"] for row in tournament.final_standings) == scored
    assert sorted(row["games"] for row in tournament.final_standings) == sorted(
        Player.objects.filter(tournament=tournament).values_list("games", flat=True)
    )
    assert not services.finish(tournament=tournament)  # computed once
