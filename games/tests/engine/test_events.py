"""The one type of an event of the move log (games.engine.events): its stored
row, its replay JSON, its application to a state and its public part."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    TURN_KINDS,
    Draw,
    End,
    Event,
    EventKind,
    Pass,
    Play,
    State,
    Tile,
    agree_draw,
    apply_action,
    legal_actions,
    new_game,
    next_round,
    resign,
    rules_for,
)
from games.engine.chain import chain_entry, chain_genesis, chain_link, event_link

from .test_properties import SETTINGS, tables

RECORD = {"level": "hard", "budget_ms": 250, "version": "3"}

# (event, the stored row (kind, seat, payload), the replay action with seq 7): the
# formats of the games the site stored and the files it published.
FORMATS = [
    (
        Event(EventKind.PLAY, 0, (6, 4), End.LEFT),
        ("play", 0, {"tile": [6, 4], "end": "left"}),
        {"type": "play", "seat": 0, "tile": [6, 4], "end": "left", "seq": 7},
    ),
    (
        Event(EventKind.PLAY, 1, (2, 5), End.RIGHT, "computer", RECORD),
        ("play", 1, {"tile": [2, 5], "end": "right", "by": "computer", "computer": RECORD}),
        {"type": "play", "seat": 1, "tile": [2, 5], "end": "right", "seq": 7, "by": "computer", "computer": RECORD},
    ),
    (
        Event(EventKind.DRAW, 2, (0, 3)),
        ("draw", 2, {"tile": [0, 3]}),
        {"type": "draw", "seat": 2, "tile": [0, 3], "seq": 7},
    ),
    (
        Event(EventKind.DRAW, 3, None, None, "server"),
        ("draw", 3, {"by": "server"}),
        {"type": "draw", "seat": 3, "seq": 7, "by": "server"},
    ),
    (
        Event(EventKind.PASS, 1, by="computer", computer={"level": "easy", "budget_ms": None}),
        ("pass", 1, {"by": "computer", "computer": {"level": "easy", "budget_ms": None}}),
        {"type": "pass", "seat": 1, "seq": 7, "by": "computer", "computer": {"level": "easy", "budget_ms": None}},
    ),
    (Event(EventKind.NEXT_ROUND), ("next_round", None, {}), {"type": "next_round", "seq": 7}),
    (Event(EventKind.NEXT_ROUND, 0), ("next_round", 0, {}), {"type": "next_round", "seat": 0, "seq": 7}),
    (Event(EventKind.RESIGN, 1), ("resign", 1, {}), {"type": "resign", "seat": 1, "seq": 7}),
    (
        Event(EventKind.AGREE_DRAW, seats=(0, 2)),
        ("agree_draw", None, {"seats": [0, 2]}),
        {"type": "agree_draw", "seq": 7},  # a replay file lists no seats
    ),
]


@pytest.mark.parametrize(("event", "row", "action"), FORMATS)
def test_each_kind_is_stored_and_published_in_the_formats_of_the_site(event, row, action) -> None:
    # json.dumps compares the order of the keys too: the files are published as written.
    assert json.dumps(event.to_row()) == json.dumps(row)
    assert json.dumps(event.to_json(seq=7)) == json.dumps(action)
    assert Event.from_row(*row) == event
    decoded = Event.from_json(json.loads(json.dumps(action)))
    assert decoded == (event if event.seats is None else Event(event.kind, event.seat, by=event.by))


def test_the_kinds_are_the_six_of_the_log() -> None:
    assert [str(kind) for kind in EventKind] == ["play", "draw", "pass", "next_round", "agree_draw", "resign"]
    assert {kind for kind in EventKind if kind.is_turn} == TURN_KINDS == {EventKind.PLAY, EventKind.DRAW, EventKind.PASS}
    assert EventKind("play") == "play"


def test_a_tile_keeps_the_pair_as_recorded() -> None:
    """The chain covers the pair as written: [6, 4] and [4, 6] are different records
    of the same play."""
    first, second = Event(EventKind.PLAY, 0, [6, 4], "left"), Event(EventKind.PLAY, 0, [4, 6], "left")
    assert first.action() == second.action() == Play(0, Tile(4, 6), End.LEFT)
    assert (first.to_json()["tile"], second.to_json()["tile"]) == ([6, 4], [4, 6])
    assert chain_link("0" * 64, {**first.to_json(), "seq": 1}) != chain_link("0" * 64, {**second.to_json(), "seq": 1})


def test_the_public_part_never_shows_a_drawn_tile_and_the_drawer_sees_it() -> None:
    drawn = Event(EventKind.DRAW, 1, (2, 3), by="computer", computer=RECORD)
    public = drawn.public()
    assert public == Event(EventKind.DRAW, 1, by="computer")
    assert public.to_json(seq=4) == {"type": "draw", "seat": 1, "seq": 4, "by": "computer"}
    assert drawn.seen_by(None) == drawn.seen_by(0) == drawn.seen_by(2) == public
    assert drawn.seen_by(1) == Event(EventKind.DRAW, 1, (2, 3), by="computer")
    assert chain_entry({**drawn.to_json(), "seq": 4}) == {"type": "draw", "seat": 1, "seq": 4, "by": "computer"}
    play = Event(EventKind.PLAY, 0, (6, 6), End.LEFT, computer=RECORD)
    assert play.public() == Event(EventKind.PLAY, 0, (6, 6), End.LEFT)
    assert Event(EventKind.AGREE_DRAW, seats=(0, 1)).public() == Event(EventKind.AGREE_DRAW)


@pytest.mark.parametrize(
    ("kind", "seat", "payload", "message"),
    [
        ("castle", 0, {}, "unknown action type 'castle'"),
        (None, 0, {}, "unknown action type None"),
        ("play", None, {"tile": [1, 2], "end": "left"}, "needs a seat"),
        ("play", 4, {"tile": [1, 2], "end": "left"}, "needs a seat"),
        ("play", True, {"tile": [1, 2], "end": "left"}, "needs a seat"),
        ("play", 0, {"end": "left"}, "a play needs a tile"),
        ("play", 0, {"tile": [1, 7], "end": "left"}, "a play needs a tile"),
        ("play", 0, {"tile": [1, 2, 3], "end": "left"}, "a play needs a tile"),
        ("play", 0, {"tile": [1, 2], "end": "up"}, "a play needs an end"),
        ("draw", 0, {"tile": "1-2"}, "a draw needs a tile"),
        ("resign", None, {}, "needs a seat"),
        ("pass", 0, {"by": 3}, '"by" names who acted'),
        ("pass", 0, {"computer": "hard"}, "a computer record is an object"),
        ("agree_draw", None, {"seats": [0, 9]}, "needs a seat"),
        ("agree_draw", None, {"seats": "01"}, "seats of an agreed draw are a list"),
    ],
)
def test_a_malformed_move_is_refused_with_its_reason(kind, seat, payload, message) -> None:
    with pytest.raises(ValueError, match=message):
        Event.from_row(kind, seat, payload)
    if "seats" in payload:  # not in a replay file: the constructor checks them
        with pytest.raises(ValueError, match=message):
            Event(EventKind.AGREE_DRAW, seats=payload["seats"])
    else:
        with pytest.raises(ValueError, match=message):
            Event.from_json({"type": kind, "seat": seat, **payload, "seq": 1})


def test_fields_of_another_kind_are_not_read_and_a_constructed_event_is_checked() -> None:
    assert Event.from_row("pass", 0, {"tile": [1, 2], "end": "left", "seats": [0]}) == Event(EventKind.PASS, 0)
    assert Event.from_json({"type": "next_round", "tile": [1, 2], "computer": RECORD}) == Event(EventKind.NEXT_ROUND)
    with pytest.raises(ValueError, match="a pass has no tile"):
        Event(EventKind.PASS, 0, (1, 2))
    with pytest.raises(ValueError, match="a resign has no end"):
        Event(EventKind.RESIGN, 0, end=End.LEFT)
    with pytest.raises(ValueError, match="only an agreed draw lists"):
        Event(EventKind.NEXT_ROUND, seats=(0,))
    with pytest.raises(ValueError, match="not a seat's action"):
        Event(EventKind.NEXT_ROUND, 0).action()
    with pytest.raises(TypeError, match="not an action"):
        Event.from_action("play")  # type: ignore[arg-type]


def test_each_kind_applies_through_the_engine() -> None:
    state = new_game(rules_for("classic-draw", players=2, teams=False, target=50), "events-apply")
    action = legal_actions(state)[0]
    assert Event.from_action(action).apply(state) == apply_action(state, action)
    seat = state.to_move
    assert Event(EventKind.RESIGN, seat).apply(state) == resign(state, seat)
    assert Event(EventKind.AGREE_DRAW, seats=(0, 1)).apply(state) == agree_draw(state)


def documented_link(previous: str, seq: int, kind: str, seat: int | None, tile, end, by: str) -> str:
    """The chain's rule as docs/fair-play.md states it, written out again."""
    entry: dict = {"seq": seq, "type": kind}
    if seat is not None:
        entry["seat"] = seat
    if kind == "play":
        entry["tile"], entry["end"] = list(tile), end
    if by:
        entry["by"] = by
    text = json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{previous}:{text}".encode()).hexdigest()


def played_log(rules, seed: int, choices: random.Random) -> tuple[State, list[tuple[Event, State]]]:
    """A seeded game played at random to its end (or to a resignation or an agreed
    draw), as its log: each event with the state before it."""
    state = new_game(rules, seed)
    log: list[tuple[Event, State]] = []
    while not state.game_over and len(log) < 2000:
        roll = choices.random()
        if roll < 0.004:
            event = Event(EventKind.RESIGN, choices.randrange(rules.players))
        elif roll < 0.008:
            event = Event(EventKind.AGREE_DRAW, seats=tuple(range(rules.players)))
        elif state.round_over:
            event = Event(EventKind.NEXT_ROUND, choices.choice([None, *range(rules.players)]))
        else:
            action = choices.choice(legal_actions(state))
            drawn = state.boneyard[0] if isinstance(action, Draw) else None
            by = choices.choice(["", "", "computer", "server"])
            record = {"level": "medium", "budget_ms": 5, "version": "1"} if by == "computer" else None
            event = Event.from_action(action, drawn=drawn, by=by, computer=record)
            # The event's action is the one played.
            assert event.action() == action
        log.append((event, state))
        state = event.apply(state)
    return state, log


@SETTINGS
@given(tables(), st.integers(min_value=0, max_value=2**32))
def test_seeded_games_round_trip_and_never_publish_a_hidden_tile(table, choice_seed) -> None:
    rules, seed = table
    final, log = played_log(rules, seed, random.Random(choice_seed))
    head = documented = chain_genesis("commitment")
    replayed = new_game(rules, seed)
    for seq, (event, before) in enumerate(log, start=1):
        assert replayed == before
        # Its stored row and its replay action, through JSON, give it back.
        kind, seat, payload = json.loads(json.dumps(event.to_row()))
        assert Event.from_row(kind, seat, payload) == event
        action = json.loads(json.dumps(event.to_json(seq=seq)))
        assert Event.from_json(action) == (event if event.seats is None else Event(event.kind, event.seat))
        # Applying it is the engine's own step.
        if event.is_turn:
            assert event.apply(before) == apply_action(before, event.action())
            assert isinstance(event.action(), Play | Draw | Pass)
        elif event.kind is EventKind.NEXT_ROUND:
            assert event.apply(before) == next_round(before)
        replayed = event.apply(before)
        # A draw takes the boneyard's first tile, which only the drawer sees.
        if event.kind is EventKind.DRAW:
            assert event.tile == tuple(before.boneyard[0])
            assert Tile(*event.tile) in replayed.hands[event.seat]
            for viewer in (None, *range(rules.players)):
                seen = event.seen_by(viewer)
                assert (seen.tile is not None) == (viewer == event.seat)
                assert "computer" not in seen.to_json()
        public = event.public()
        assert public.computer is None
        assert public.seats is None
        assert "tile" not in public.to_json() or event.kind is EventKind.PLAY
        # The chain covers the public part, as documented, from the event or its replay action.
        previous, head = head, event_link(head, seq, event)
        documented = documented_link(documented, seq, str(event.kind), event.seat, event.tile, event.end, event.by)
        assert head == documented == chain_link(previous, action)
    assert replayed == final
