"""Fair play: the turn timer, absent players, stand-in computers, claims."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import legal_actions
from games.live import clock, presence
from games.live import services as live_services
from games.models import Game, Move, Presence, StandIn, Table
from games.play import selectors, services
from games.signals import seat_abandoned
from games.tests.helpers import ranked_table
from games.timers import away, expiry, stand_ins

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _timers(settings):
    settings.TURN_SECONDS = 30
    settings.DISCONNECT_GRACE_SECONDS = 60
    settings.ABANDON_SECONDS = 300
    settings.NEXT_ROUND_SECONDS = 20
    settings.GAMES_DISPATCH = "queue"


def seated(table: Table, *seats: int) -> None:
    """Open a table socket for each seat (as the table consumer's signal does)."""
    for seat in seats:
        live_services.touch_presence(
            channel_name=f"t{table.pk}-s{seat}", user_id=None, table_id=table.pk, seat=seat
        )


def left(table: Table, seat: int) -> None:
    live_services.drop_presence(channel_name=f"t{table.pk}-s{seat}")


def game_of(table: Table) -> Game:
    return Game.objects.get(table=table)


def test_the_clock_shows_the_deadline_of_the_seat_to_move(make_member) -> None:
    table = ranked_table([make_member("a"), make_member("b")])
    seated(table, 0, 1)
    game = game_of(table)
    ticking = clock.clock_for(table, game)
    assert ticking is not None
    assert ticking.seat == game.to_move
    assert ticking.deadline == game.updated_at + timedelta(seconds=30)
    assert ticking.away == ()
    assert not ticking.claimable
    facts = clock.clock_facts(table, game)["clock"]
    assert facts["seat"] == game.to_move
    assert facts["turn_seconds"] == 30
    assert facts["deadline_ms"] == int(ticking.deadline.timestamp() * 1000)


def test_computer_tables_have_no_timer(make_member) -> None:
    table = services.create_computer_table(
        user=make_member("a"), preset="classic-draw", players=2, teams=False, target=50, level="easy"
    )
    assert clock.clock_for(table, game_of(table)) is None
    assert (
        expiry.check_game(game_id=game_of(table).pk, now=game_of(table).updated_at + timedelta(hours=1)) == 0
    )


def test_on_timeout_the_server_plays_for_a_present_player(make_member) -> None:
    table = ranked_table([make_member("a"), make_member("b")], "duel-draw")
    seated(table, 0, 1)
    game = game_of(table)
    seat, seq = game.to_move, game.seq
    assert expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=29)) == 0
    acted = expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=31))
    assert acted >= 1
    moves = list(Move.objects.filter(game=game, seq__gt=seq))
    assert len(moves) == acted
    assert all(move.seat == seat and move.payload.get("by") == "server" for move in moves)
    game.refresh_from_db()
    assert game.to_move != seat  # the whole turn was played (draws, then the tile)


def test_a_forced_draw_or_pass_is_played_as_is(make_member) -> None:
    from games.engine import Draw, Pass, Tile, new_game
    from games.play.modes import RANKED_MODES

    game = game_of(ranked_table([make_member("a"), make_member("b")]))
    six = [Tile(6, 6), Tile(0, 1), Tile(0, 2), Tile(0, 3), Tile(0, 4), Tile(1, 2), Tile(5, 6)]
    no_six = [Tile(2, 2), Tile(2, 3), Tile(2, 4), Tile(3, 3), Tile(3, 4), Tile(4, 4), Tile(1, 1)]
    rest = [Tile(a, b) for a in range(7) for b in range(a, 7) if Tile(a, b) not in six + no_six]
    drawing = new_game(RANKED_MODES["duel-draw"].rules, 1, hands=[six, no_six], boneyard=rest)
    assert drawing.to_move == 1  # 6-6 was laid for seat 0; seat 1 holds no six
    assert stand_ins.choose_for(game, drawing, 1) == Draw(1)
    blocked = new_game(RANKED_MODES["duel-block"].rules, 1, hands=[six, no_six], boneyard=[])
    assert stand_ins.choose_for(game, blocked, 1) == Pass(1)


def test_an_absent_duel_player_gets_a_grace_period_then_the_opponent_may_claim(make_member) -> None:
    abandoned: list[dict] = []

    def heard(sender, **kwargs):
        abandoned.append({key: kwargs[key] for key in ("table_id", "seat", "user_id")})

    seat_abandoned.connect(heard, weak=False, dispatch_uid="test-abandoned")
    try:
        _claim_after_grace(make_member, abandoned)
    finally:
        seat_abandoned.disconnect(dispatch_uid="test-abandoned")


def _claim_after_grace(make_member, abandoned: list[dict]) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    game = game_of(table)
    mover = game.to_move
    other = 1 - mover
    seated(table, other)  # the player to move never came
    t0 = game.updated_at
    # The turn time passes: no auto-play for an absent player within the grace.
    assert expiry.check_game(game_id=game.pk, now=t0 + timedelta(seconds=45)) == 0
    assert not clock.clock_for(table, game, now=t0 + timedelta(seconds=45)).claimable
    with pytest.raises(services.GameError):
        expiry.claim_win(game_id=game.pk, seat=other, now=t0 + timedelta(seconds=45))
    after_grace = t0 + timedelta(seconds=61)
    ticking = clock.clock_for(table, game, now=after_grace)
    assert ticking.away == (mover,)
    assert ticking.claimable
    assert expiry.check_game(game_id=game.pk, now=after_grace) == 0  # waits for the claim
    with pytest.raises(services.GameError):
        expiry.claim_win(game_id=game.pk, seat=mover, now=after_grace)  # not the absent one
    expiry.claim_win(game_id=game.pk, seat=other, now=after_grace)
    game.refresh_from_db()
    assert game.finished
    assert game.winner == other
    assert game.result["resigned"] == mover
    leaver = alice if mover == 0 else bob
    assert abandoned == [{"table_id": table.pk, "seat": mover, "user_id": leaver.pk}]


def test_a_returning_player_cannot_be_claimed_against(make_member) -> None:
    table = ranked_table([make_member("a"), make_member("b")])
    game = game_of(table)
    seated(table, 1 - game.to_move)
    later = game.updated_at + timedelta(seconds=90)
    assert clock.clock_for(table, game, now=later).claimable
    seated(table, game.to_move)  # back
    assert not clock.clock_for(table, game, now=later).claimable
    with pytest.raises(services.GameError):
        expiry.claim_win(game_id=game.pk, seat=1 - game.to_move, now=later)


def test_an_unclaimed_abandoned_duel_ends_after_a_while(make_member) -> None:
    table = ranked_table([make_member("a"), make_member("b")])
    game = game_of(table)
    mover = game.to_move
    seated(table, 1 - mover)
    assert expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=301)) == 1
    game.refresh_from_db()
    assert game.finished
    assert game.result["resigned"] == mover


def test_at_three_players_a_computer_takes_an_absent_players_seat_until_they_return(make_member) -> None:
    table = ranked_table([make_member(n) for n in ("a", "b", "c")], "three")
    game = game_of(table)
    mover = game.to_move
    seated(table, *(s for s in range(3) if s != mover))
    assert expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=59)) == 0
    acted = expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=61))
    assert acted >= 1
    assert StandIn.objects.filter(table=table, seat=mover).exists()
    assert Move.objects.filter(game=game, seat=mover, payload__by="computer").count() == acted
    # On the absent player's next turn the computer plays at once.
    game.refresh_from_db()
    for _ in range(20):
        if game.to_move == mover or game.finished or game.to_move is None:
            break
        state = selectors.game_state(game)
        services.play_move(
            game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=game.seq
        )
        game.refresh_from_db()
    if game.to_move == mover:
        assert expiry.check_game(game_id=game.pk, now=game.updated_at) >= 1
    # They come back: the seat is theirs again.
    seated(table, mover)
    away.player_arrived(table_id=table.pk, seat=mover)
    assert not StandIn.objects.filter(table=table).exists()


def test_the_next_round_is_dealt_when_nobody_asks(make_member) -> None:
    users = [make_member("a"), make_member("b")]
    for _attempt in range(20):
        table = ranked_table(users, "duel-draw")
        seated(table, 0, 1)
        game = game_of(table)
        for _ in range(300):
            game.refresh_from_db()
            state = selectors.game_state(game)
            if state.round_over:
                break
            services.play_move(
                game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=game.seq
            )
        if not state.game_over:
            break
        table.delete()  # the first round reached the target: try another deal
    assert state.round_over
    assert not state.game_over
    assert clock.clock_for(table, game).seat is None
    assert expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=10)) == 0
    assert expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=21)) == 1
    assert Move.objects.filter(game=game).last().kind == Move.Kind.NEXT_ROUND


def test_the_sweep_visits_every_live_game(make_member) -> None:
    tables = [ranked_table([make_member(f"p{i}"), make_member(f"q{i}")]) for i in range(3)]
    for table in tables:
        seated(table, 0, 1)
    Game.objects.update(updated_at=Game.objects.first().updated_at - timedelta(minutes=1))
    assert expiry.sweep() >= 3
    assert all(Move.objects.filter(game__table=table, payload__by="server").exists() for table in tables)


def test_claiming_over_http(client, make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = ranked_table([alice, bob])
    game = game_of(table)
    claimer = bob if game.to_move == 0 else alice
    client.force_login(claimer)
    refused = client.post(f"/table/{table.pk}/claim/", HTTP_ACCEPT="application/json")
    assert refused.status_code == 409
    Game.objects.filter(pk=game.pk).update(updated_at=game.updated_at - timedelta(minutes=2))
    accepted = client.post(f"/table/{table.pk}/claim/", HTTP_ACCEPT="application/json")
    assert accepted.json() == {"ok": True}
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_table_sockets_record_presence_and_bring_a_player_back(make_member) -> None:
    table = ranked_table([make_member(n) for n in ("a", "b", "c")], "three")
    StandIn.objects.create(table=table, seat=1)
    fields = {"table_id": table.pk, "seat": 1, "channel_name": "chan-1"}
    away.open_table_socket(**fields, user_id=None, session_key="")
    assert clock.connected_seats(table.pk) == {1}
    assert not StandIn.objects.exists()  # back at the table
    away.close_table_socket(**fields)
    assert clock.connected_seats(table.pk) == set()


def test_a_table_socket_stays_present_while_its_process_refreshes_it(make_member) -> None:
    table = ranked_table([make_member(n) for n in ("a", "b")])
    here = {"table_id": table.pk, "seat": 0, "channel_name": "chan-here"}
    dead = {**here, "seat": 1, "channel_name": "chan-of-a-dead-process"}
    away.open_table_socket(**here, user_id=None, session_key="")
    away.open_table_socket(**dead, user_id=None, session_key="")
    live_services.forget_table_socket("chan-of-a-dead-process")  # its process died: nobody refreshes it
    long_ago = timezone.now() - timedelta(seconds=presence.PRESENCE_TTL + 5)
    Presence.objects.update(seen_at=long_ago)
    assert clock.connected_seats(table.pk) == set()
    assert live_services.refresh_table_sockets() == 1
    assert clock.connected_seats(table.pk) == {0}  # seat 1 counts as gone: its grace period can start
    away.close_table_socket(**here)
    assert live_services.refresh_table_sockets() == 0
    assert clock.connected_seats(table.pk) == set()


def test_every_state_at_a_timed_table_carries_the_clock(
    make_member, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    from games.live import broadcast

    sent: list = []
    monkeypatch.setattr(broadcast, "_send", lambda batch: sent.extend(batch))
    table = ranked_table([make_member("a"), make_member("b")])
    seated(table, 0, 1)
    game = game_of(table)
    state = selectors.game_state(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.play_move(
            game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=game.seq
        )
    game.refresh_from_db()
    assert sent
    for _group, message in sent:
        assert message["table"]["clock"]["seat"] == game.to_move
        assert message["table"]["clock"]["deadline_ms"] == int(
            (game.updated_at + timedelta(seconds=30)).timestamp() * 1000
        )


def test_a_player_leaving_and_coming_back_is_announced(make_member, monkeypatch) -> None:
    from games.live import broadcast

    sent: list = []
    monkeypatch.setattr(broadcast, "_send", lambda batch: sent.extend(batch))
    table = ranked_table([make_member("a"), make_member("b")])
    seated(table, 0, 1)
    away.player_arrived(table_id=table.pk, seat=0)  # a first arrival: nothing to tell
    assert sent == []
    left(table, 0)
    away.player_left(table_id=table.pk, seat=0)
    frames = [message["frame"] for _group, message in sent]
    assert frames
    assert frames[0]["type"] == "clock"
    assert frames[0]["clock"]["away"] == [0]
    sent.clear()
    seated(table, 0)
    away.player_arrived(table_id=table.pk, seat=0)
    assert sent[0][1]["frame"]["clock"]["away"] == []


def test_the_sweep_resends_the_clock_when_who_is_away_changed(make_member, monkeypatch) -> None:
    from django.core.cache import cache

    from games.live import broadcast

    cache.clear()
    sent: list = []
    monkeypatch.setattr(broadcast, "_send", lambda batch: sent.extend(batch))
    table = ranked_table([make_member("a"), make_member("b")])
    game = game_of(table)
    seated(table, 0)
    assert away.announce_if_presence_changed(game_id=game.pk)
    assert sent[-1][1]["frame"]["clock"]["away"] == [1]
    assert not away.announce_if_presence_changed(game_id=game.pk)  # nothing new
    seated(table, 1)  # a first arrival, announced by the next sweep
    assert away.announce_if_presence_changed(game_id=game.pk)
    assert sent[-1][1]["frame"]["clock"]["away"] == []


def test_a_seat_with_half_the_turn_time_runs_out_at_half_the_time(
    make_member, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """A berserk tournament player's seat (games.play.services.set_turn_percent):
    the clock frame shows their shorter turn and the server plays for them
    when it is over, while the other seat keeps the whole turn."""
    sent: list[dict] = []
    monkeypatch.setattr(
        "games.live.broadcast.broadcast_notice", lambda **kwargs: sent.append(kwargs["frame"])
    )
    table = ranked_table([make_member("a"), make_member("b")], "duel-draw")
    seated(table, 0, 1)
    game = game_of(table)
    mover = game.to_move
    other = 1 - mover
    with django_capture_on_commit_callbacks(execute=True):
        services.set_turn_percent(table_id=table.pk, seat=mover, percent=50)
    facts = clock.clock_facts(table, game_of(table))["clock"]
    assert facts["turn_seconds"] == 15
    assert facts["turn_seconds_by_seat"][mover] == 15
    assert facts["turn_seconds_by_seat"][other] == 30
    assert facts["deadline_ms"] == int((game.updated_at + timedelta(seconds=15)).timestamp() * 1000)
    # Every viewer is sent the new clock.
    assert sent
    assert sent[-1]["type"] == "clock"
    assert sent[-1]["clock"]["turn_seconds"] == 15
    # Not over before 15 seconds; the server plays for them after.
    assert expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=14)) == 0
    # Its whole turn (a draw from the boneyard may come before the tile laid).
    assert expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=16)) >= 1
    moved = game_of(table)
    assert moved.seq >= 1
    assert all(move.payload.get("by") == "server" for move in Move.objects.filter(game=moved))
    if moved.to_move == other:
        assert clock.clock_for(table, moved).deadline == moved.updated_at + timedelta(seconds=30)
        assert expiry.check_game(game_id=game.pk, now=moved.updated_at + timedelta(seconds=16)) == 0


def test_the_turn_time_is_set_only_before_the_first_move(make_member) -> None:
    table = ranked_table([make_member("a"), make_member("b")], "duel-draw")
    seated(table, 0, 1)
    game = game_of(table)
    expiry.check_game(game_id=game.pk, now=game.updated_at + timedelta(seconds=31))
    assert game_of(table).seq >= 1
    with pytest.raises(services.NotAllowed):
        services.set_turn_percent(table_id=table.pk, seat=0, percent=50)
    with pytest.raises(ValueError):
        services.set_turn_percent(table_id=table.pk, seat=0, percent=0)
    assert set(table.seats.values_list("turn_percent", flat=True)) == {100}
    with pytest.raises(ValueError):
        services.SeatSpec(turn_percent=150)
