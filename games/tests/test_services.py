"""The game services: the only writers of games."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from games.engine import (
    PRESET_OPTIONS,
    Draw,
    Pass,
    Play,
    Tile,
    commit_seed,
    dump_state,
    legal_actions,
    view_for,
)
from games.live import broadcast
from games.models import Game, Move, Table
from games.play import selectors, services
from games.signals import game_finished
from games.tests.factories import ComputerSeatFactory, GuestSeatFactory, MemberSeatFactory, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]


def game_of(table: Table) -> Game:
    return Game.objects.get(table=table)


def current(game: Game):
    game.refresh_from_db()
    return selectors.game_state(game)


def game_with_a_play(preset: str) -> tuple[Game, Play]:
    """A fresh two-guest game whose first mover holds a tile that fits (deals are random)."""
    for _ in range(200):
        game = game_of(make_table(preset=preset))
        play = next((a for a in legal_actions(current(game)) if isinstance(a, Play)), None)
        if play is not None:
            return game, play
    raise AssertionError("no deal with a playable first move in 200 tries")


def play_out(game: Game, *, rng: random.Random | None = None, max_moves: int = 2000) -> None:
    """Play every seat of an all-guest table at random until the game ends."""
    rng = rng or random.Random(0)
    for _ in range(max_moves):
        state = current(game)
        if state.game_over:
            return
        if state.to_move is None:
            services.start_next_round(game_id=game.pk, seat=0, expected_seq=game.seq)
            continue
        action = rng.choice(legal_actions(state))
        services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=game.seq)
    raise AssertionError("the game did not end")


# -- creating tables ------------------------------------------------------------


def test_create_computer_table_seats_the_guest_first_and_commits_to_the_seed() -> None:
    table = services.create_computer_table(
        guest_key="session-abc", preset="arena", players=4, teams=True, target=50, level="medium"
    )
    assert table.kind == Table.Kind.COMPUTER
    assert table.public
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("number"))
    assert [(s.number, s.guest_key, s.level, s.kind) for s in seats] == [
        (0, "session-abc", "", "human"),
        (1, "", "medium", "computer"),
        (2, "", "medium", "computer"),
        (3, "", "medium", "computer"),
    ]
    game = game_of(table)
    assert game.preset == "arena"
    assert game.rules["players"] == 4
    assert game.rules["teams"] is True
    assert game.rules["target"] == 50
    assert len(game.seed) == 32
    assert game.commitment == commit_seed(game.seed)
    assert game.seq == 0
    assert game.state is not None
    assert game.started_at is not None
    assert not Move.objects.filter(game=game).exists()


def test_each_game_gets_its_own_seed() -> None:
    seeds = {game_of(make_table()).seed for _ in range(5)}
    assert len(seeds) == 5


def test_create_computer_table_refuses_options_the_preset_does_not_allow() -> None:
    with pytest.raises(ValueError, match="allows"):
        services.create_computer_table(
            guest_key="k", preset="duel-block", players=3, teams=False, target=0, level="easy"
        )
    assert not Table.objects.exists()


def test_create_table_refuses_a_person_twice_and_a_wrong_seat_count() -> None:
    guest = GuestSeatFactory.build()
    with pytest.raises(ValueError, match="only one seat"):
        make_table(seats=[guest, guest])
    with pytest.raises(ValueError, match="2 seats expected"):
        make_table(seats=GuestSeatFactory.build_batch(3))
    with pytest.raises(ValueError, match="level"):
        services.SeatSpec(level="grandmaster")
    assert not Table.objects.exists()


def test_a_table_with_an_open_seat_waits_then_starts(computer_queue) -> None:
    member = MemberSeatFactory.build()
    table = make_table(seats=[member, services.SeatSpec()], start=False)
    game = game_of(table)
    assert table.status == Table.Status.WAITING
    assert game.state is None
    assert game.commitment
    with pytest.raises(services.NotAllowed):
        services.start_game(table=table)
    table.seats.filter(number=1).update(level="easy")
    services.start_game(table=table)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert current(game) is not None
    # Starting again changes nothing.
    before = game_of(table).state
    services.start_game(table=table)
    assert game_of(table).state == before


def test_members_keep_their_username_as_seat_name() -> None:
    member = MemberSeatFactory.build()
    table = make_table(seats=[member, ComputerSeatFactory.build()])
    seat = table.seats.get(number=0)
    assert seat.user == member.user
    assert seat.name == member.user.username


# -- playing ------------------------------------------------------------------------


def test_play_move_stores_the_move_then_broadcasts_after_commit(
    django_capture_on_commit_callbacks, sent
) -> None:
    game, action = game_with_a_play("classic-draw")
    seat = action.seat
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outcome = services.play_move(game_id=game.pk, seat=seat, action=action, expected_seq=0)
    assert sent == []  # nothing is announced before the commit
    assert len(callbacks) == 1
    callbacks[0]()
    move = Move.objects.get(game=game)
    assert (move.seq, move.seat, move.kind) == (1, seat, "play")
    assert move.payload == {"tile": action.tile.to_list(), "end": str(action.end)}
    assert outcome.seq == 1
    assert current(game).to_move == outcome.state.to_move
    groups = [group for group, _message in sent]
    assert groups == [
        f"table.{game.table_id}.public",
        f"table.{game.table_id}.seat.0",
        f"table.{game.table_id}.seat.1",
    ]
    for group, message in sent:
        viewer = None if group.endswith("public") else int(group.rsplit(".", 1)[1])
        event, state_frame = broadcast.decoded_frames(message)[:2]
        assert event == {
            "type": "event",
            "seq": 1,
            "seat": seat,
            "action": "play",
            "tile": action.tile.to_list(),
            "end": str(action.end),
        }
        assert state_frame["type"] == "state"
        assert state_frame["seq"] == 1
        assert state_frame["view"] == view_for(outcome.state, viewer).to_dict()
        assert state_frame["legal"] == state_frame["view"]["legal"]


def test_a_drawn_tile_is_sent_to_the_drawer_only(sent, django_capture_on_commit_callbacks) -> None:
    # Find a deal where the first player to move must draw.
    for _ in range(200):
        game = game_of(make_table(preset="classic-draw"))
        state = current(game)
        if legal_actions(state) == (Draw(state.to_move),):
            break
    else:
        pytest.fail("no deal with a forced draw in 200 tries")
    drawer = state.to_move
    drawn = state.boneyard[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.play_move(game_id=game.pk, seat=drawer, action=Draw(drawer), expected_seq=0)
    assert Move.objects.get(game=game).payload == {"tile": drawn.to_list()}
    for group, message in sent:
        event = broadcast.decoded_frames(message)[0]
        assert event["action"] == "draw"
        if group.endswith(f"seat.{drawer}"):
            assert event["tile"] == drawn.to_list()
        else:
            assert "tile" not in event
            assert drawn.to_list() not in broadcast.decoded_frames(message)[1]["view"]["hand"]


def test_a_double_submit_plays_once() -> None:
    game = game_of(make_table())
    state = current(game)
    action = legal_actions(state)[0]
    services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=0)
    with pytest.raises(services.StaleSeq) as caught:
        services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=0)
    assert caught.value.code == "stale"
    assert caught.value.current == 1
    assert Move.objects.filter(game=game).count() == 1


def test_a_stale_seq_is_refused_and_changes_nothing() -> None:
    game = game_of(make_table())
    state = current(game)
    cached = game.state
    for stale in (-1, 1, 7):
        with pytest.raises(services.StaleSeq):
            services.play_move(
                game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=stale
            )
    game.refresh_from_db()
    assert game.seq == 0
    assert game.state == cached
    assert not game.moves.exists()


def test_out_of_turn_and_illegal_actions_are_refused() -> None:
    game = game_of(make_table(preset="classic-block"))
    state = current(game)
    mover, other = state.to_move, 1 - state.to_move
    hand = state.hands[mover]
    with pytest.raises(services.NotYourTurn):
        services.play_move(game_id=game.pk, seat=other, action=Pass(other), expected_seq=0)
    not_mine = next(t for t in state.hands[other])
    with pytest.raises(services.IllegalMove, match="not in"):
        services.play_move(game_id=game.pk, seat=mover, action=Play(mover, not_mine, "left"), expected_seq=0)
    left, right = state.ends
    if any(t.has(left) or t.has(right) for t in hand):
        with pytest.raises(services.IllegalMove, match="fits"):
            services.play_move(game_id=game.pk, seat=mover, action=Pass(mover), expected_seq=0)
    misfit = next((t for t in hand if not t.has(left) and not t.has(right)), None)
    if misfit is not None:
        with pytest.raises(services.IllegalMove, match="does not match"):
            services.play_move(
                game_id=game.pk, seat=mover, action=Play(mover, misfit, "left"), expected_seq=0
            )
    with pytest.raises(services.NotYourTurn):  # an action for another seat than the sender's
        services.play_move(game_id=game.pk, seat=mover, action=Pass(other), expected_seq=0)
    assert not Move.objects.filter(game=game).exists()
    assert game_of(game.table).seq == 0


def test_draw_or_pass_while_a_tile_fits_is_refused_in_the_draw_game() -> None:
    for _ in range(100):
        game = game_of(make_table(preset="classic-draw"))
        state = current(game)
        if any(isinstance(a, Play) for a in legal_actions(state)):
            break
    seat = state.to_move
    for action in (Draw(seat), Pass(seat)):
        with pytest.raises(services.IllegalMove, match="fits"):
            services.play_move(game_id=game.pk, seat=seat, action=action, expected_seq=0)
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize("preset", sorted(PRESET_OPTIONS))
def test_a_whole_game_rebuilt_from_seed_and_moves_equals_the_cached_state(preset: str) -> None:
    options = PRESET_OPTIONS[preset]
    players = max(options.players)
    target = max(options.targets)
    game = game_of(make_table(preset=preset, players=players, target=target))
    play_out(game, rng=random.Random(preset))
    game.refresh_from_db()
    moves = list(game.moves.order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, game.seq + 1))
    assert dump_state(selectors.rebuild_state(game)) == game.state
    # Every intermediate state too.
    middle = game.seq // 2
    states = list(selectors.iter_states(game))
    assert dump_state(selectors.rebuild_state(game, upto=middle)) == dump_state(states[middle][1])
    assert game.finished
    assert game.result["scores"] == list(current(game).scores)


def test_the_end_of_a_game_closes_the_table_and_signals_once(django_capture_on_commit_callbacks) -> None:
    received = []

    def listener(sender, game, table, **kwargs):
        received.append((game.pk, table.status, game.winner))

    game_finished.connect(listener)
    try:
        game = game_of(make_table(preset="duel-block", target=0))
        with django_capture_on_commit_callbacks(execute=True):
            play_out(game)
    finally:
        game_finished.disconnect(listener)
    game.refresh_from_db()
    state = selectors.game_state(game)
    assert received == [(game.pk, Table.Status.FINISHED, state.winner)]
    assert game.table.status == Table.Status.FINISHED
    assert game.table.finished_at is not None
    assert game.result["reason"] == "single_round"
    assert game.winner == state.winner
    with pytest.raises(services.GameNotLive):
        services.resign(game_id=game.pk, seat=0)


def test_next_round_waits_for_a_person_and_refuses_computers_and_early_calls() -> None:
    game = game_of(make_table(preset="classic-block", target=100))  # its first round is in play
    state = current(game)
    with pytest.raises(services.IllegalMove):
        services.start_next_round(game_id=game.pk, seat=0)
    rng = random.Random(3)
    while not state.round_over:
        services.play_move(
            game_id=game.pk,
            seat=state.to_move,
            action=rng.choice(legal_actions(state)),
            expected_seq=game.seq,
        )
        state = current(game)
    # Two block-game hands hold fewer than 100 pips: round 1 cannot end the game.
    assert not state.game_over
    with pytest.raises(services.StaleSeq):
        services.start_next_round(game_id=game.pk, seat=1, expected_seq=game.seq - 1)
    outcome = services.start_next_round(game_id=game.pk, seat=1, expected_seq=game.seq)
    assert outcome.kind == "next_round"
    assert outcome.state.round == 2
    assert not outcome.state.round_over
    assert Move.objects.filter(game=game).last().kind == "next_round"


def test_next_round_is_only_for_people(computer_queue, django_capture_on_commit_callbacks) -> None:
    def run_computers() -> None:
        for _ in range(50):
            with django_capture_on_commit_callbacks(execute=True):
                if not computer_queue.run_pending():
                    return

    with django_capture_on_commit_callbacks(execute=True):
        table = make_table(
            preset="classic-block", seats=[GuestSeatFactory.build(), ComputerSeatFactory.build()], target=100
        )
    game = game_of(table)
    run_computers()
    state = current(game)
    rng = random.Random(5)
    for _ in range(100):
        if state.round_over:
            break
        assert state.to_move == 0  # the computer has played its turns
        with django_capture_on_commit_callbacks(execute=True):
            services.play_move(
                game_id=game.pk, seat=0, action=rng.choice(legal_actions(state)), expected_seq=game.seq
            )
        run_computers()
        state = current(game)
    # Two block-game hands hold fewer than 100 pips: round 1 cannot end the game.
    assert not state.game_over
    assert not computer_queue.PENDING  # a person is seated: the server does not deal alone
    with pytest.raises(services.NotSeated):
        services.start_next_round(game_id=game.pk, seat=1)
    services.start_next_round(game_id=game.pk, seat=0)
    assert current(game).round == 2


def test_resign_ends_the_game_for_the_other_side(django_capture_on_commit_callbacks, sent) -> None:
    game = game_of(make_table(players=2))
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.resign(game_id=game.pk, seat=0)
    game.refresh_from_db()
    assert outcome.finished
    assert game.winner == 1
    assert game.result["reason"] == "resigned"
    assert game.moves.get().kind == "resign"
    kinds = [frame["type"] for frame in broadcast.decoded_frames(sent[0][1])]
    assert kinds == ["event", "state", "game_over"]  # no hands revealed mid-round


def test_a_draw_needs_every_person_and_is_refused_against_the_computer(
    django_capture_on_commit_callbacks, sent
) -> None:
    lone = game_of(make_table(seats=[GuestSeatFactory.build(), ComputerSeatFactory.build()]))
    with pytest.raises(services.NotAllowed):
        services.offer_draw(game_id=lone.pk, seat=0)
    seats = [GuestSeatFactory.build(), ComputerSeatFactory.build(), GuestSeatFactory.build()]
    game = game_of(make_table(players=3, seats=seats))
    with pytest.raises(services.NotSeated):
        services.offer_draw(game_id=game.pk, seat=1)  # a computer seat
    with django_capture_on_commit_callbacks(execute=True):
        first = services.offer_draw(game_id=game.pk, seat=0)
    assert isinstance(first, services.DrawOffer)
    assert first.seats == (0,)
    assert sent[0][1]["frame"] == {"type": "draw_offer", "seat": 0, "seats": [0]}
    assert not game.moves.exists()
    assert not current(game).game_over
    again = services.offer_draw(game_id=game.pk, seat=0)
    assert isinstance(again, services.DrawOffer)
    agreed = services.offer_draw(game_id=game.pk, seat=2)
    assert isinstance(agreed, services.Outcome)
    assert agreed.kind == "agree_draw"
    game.refresh_from_db()
    assert game.finished
    assert game.winner is None
    assert game.result["reason"] == "agreed_draw"


def test_abort_game_closes_a_live_table_without_a_winner() -> None:
    game = game_of(make_table())
    assert services.abort_game(game_id=game.pk) is True
    game.refresh_from_db()
    assert game.table.status == Table.Status.ABORTED
    assert game.winner is None
    assert services.abort_game(game_id=game.pk) is False
    with pytest.raises(services.GameNotLive):
        services.offer_draw(game_id=game.pk, seat=0)


def test_a_failing_transaction_leaves_no_trace(django_capture_on_commit_callbacks, sent) -> None:
    game = game_of(make_table())
    state = current(game)

    def move_then_fail() -> None:
        with transaction.atomic():
            services.play_move(
                game_id=game.pk, seat=state.to_move, action=legal_actions(state)[0], expected_seq=0
            )
            raise RuntimeError("the caller's transaction fails after the move")

    with pytest.raises(RuntimeError):
        move_then_fail()
    game.refresh_from_db()
    assert game.seq == 0
    assert not game.moves.exists()
    assert sent == []


# -- the computer's turn ----------------------------------------------------------


def test_a_computer_to_move_is_queued_after_commit(
    computer_queue, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = make_table(seats=ComputerSeatFactory.build_batch(2))
    game = game_of(table)
    assert list(computer_queue.PENDING) == [(game.pk, 0)]


def test_ai_seed_depends_on_the_game_and_the_event() -> None:
    game = game_of(make_table())
    assert selectors.ai_seed(game, 3) == selectors.ai_seed(game, 3)
    assert selectors.ai_seed(game, 3) != selectors.ai_seed(game, 4)


def test_tile_pairs_are_normalised_in_payloads() -> None:
    game, play = game_with_a_play("classic-block")
    flipped = Play(play.seat, Tile(play.tile.high, play.tile.low), play.end)
    services.play_move(game_id=game.pk, seat=play.seat, action=flipped, expected_seq=0)
    assert Move.objects.get(game=game).payload["tile"] == [play.tile.low, play.tile.high]
