"""The dominoes notation (games.engine.notation, docs/notation.md): every record of
thousands of seeded games of every variant reads back to itself and replays to the
same final state; malformed records are refused with the line they fail on."""

from __future__ import annotations

import random

import pytest

from games.engine import PRESET_OPTIONS, Draw, apply_action, dump_state, legal_actions, new_game, next_round
from games.engine.deal import deal_hands
from games.engine.events import Event, EventKind
from games.engine.game import opening_tile
from games.engine.notation import (
    NotationError,
    dumps,
    loads,
    loads_all,
    read_token,
    record_of,
    replay_record,
    rules_from_tags,
    rules_tags,
    token,
)
from games.engine.rules import rules_for
from games.engine.tiles import TILES

VARIANTS = [
    (name, players, teams, target)
    for name, options in PRESET_OPTIONS.items()
    for players, teams in options.combinations()
    for target in options.targets
]
# The round trip plays GAMES seeded games in all, shared among the variants (the
# first ones one game more when they do not divide evenly).
GAMES = 2000
GAMES_OF = [GAMES // len(VARIANTS) + (index < GAMES % len(VARIANTS)) for index in range(len(VARIANTS))]


def play_game(preset: str, players: int, teams: bool, target: int, number: int):
    """A seeded game played at random to its end (sometimes resigned or drawn by
    agreement): its rules, seed, events and final state."""
    rules = rules_for(preset, players=players, teams=teams, target=target)
    rng = random.Random(number)
    seed = f"{number:032x}"
    state = new_game(rules, seed)
    events: list[Event] = []
    ending = rng.random()
    while not state.game_over:
        if state.round_over:
            events.append(Event(EventKind.NEXT_ROUND))
            state = next_round(state)
            continue
        if ending < 0.05 and rng.random() < 0.02:
            seat = rng.randrange(rules.players)
            events.append(Event(EventKind.RESIGN, seat))
            state = events[-1].apply(state)
            break
        if 0.05 <= ending < 0.08 and rng.random() < 0.02:
            events.append(Event(EventKind.AGREE_DRAW))
            state = events[-1].apply(state)
            break
        action = rng.choice(legal_actions(state))
        drawn = state.boneyard[0] if isinstance(action, Draw) else None
        events.append(Event.from_action(action, drawn=drawn))
        state = apply_action(state, action)
    return rules, seed, events, state


def record_for(rules, seed, events, state, preset):
    seat, index = opening_tile(deal_hands(rules, seed, 1)[0])
    result = "-".join(str(score) for score in state.scores) if state.game_over else "*"
    tags = [("Event", "Casual game"), ("Site", "Dominoes club"), ("Table", "7"), ("Seed", seed),
            ("Seat0", 'Ann "the hand" \\ Lee'), ("Seat1", "hard (computer)"), ("Seat1Title", "BOT"),
            ("Result", result)]
    return record_of(rules, events, opening=(seat, TILES[index]), tags=tags, result=result, variant=preset)


def test_the_round_trip_plays_two_thousand_games_over_every_variant():
    assert sum(GAMES_OF) == GAMES == 2000
    assert min(GAMES_OF) >= 1


@pytest.mark.parametrize(("preset", "players", "teams", "target", "games"),
                         [(*variant, games) for variant, games in zip(VARIANTS, GAMES_OF, strict=True)])
def test_records_of_seeded_games_round_trip_and_replay(preset, players, teams, target, games):
    """Over every variant, 2,000 games in all (GAMES_OF): the text reads back to the
    same record, writing it again gives the same text, and the engine replays it to
    the same state."""
    for number in range(games):
        rules, seed, events, state = play_game(preset, players, teams, target, number)
        record = record_for(rules, seed, events, state, preset)
        text = dumps(record)
        again = loads(text)
        assert again == record, text
        assert dumps(again) == text
        assert rules_from_tags(dict(again.tags)) == rules
        assert again.bots == (1,)
        assert dump_state(replay_record(again)) == dump_state(state)


def test_a_public_record_keeps_no_drawn_tile_and_still_reads():
    """Without the drawn tiles (what the public sees of a game in progress) a
    record writes plain D and reads back to the same events."""
    rules, seed, events, state = play_game("classic-draw", 2, False, 100, 3)
    public = [event.public() for event in events]
    record = record_for(rules, seed, public, state, "classic-draw")
    text = dumps(record)
    assert "D" in text.split("\n\n", 1)[1]
    assert not any(word.startswith("D") and len(word) > 1 for word in text.split("\n\n", 1)[1].split())
    assert loads(text).events == tuple(public)
    assert dump_state(replay_record(loads(text))) == dump_state(state)


def test_tokens_of_every_action():
    assert token(Event(EventKind.PLAY, 0, (5, 3), "right")) == "35R"
    assert token(Event(EventKind.PLAY, 0, (3, 5), "left")) == "35L"
    assert token(Event(EventKind.PLAY, 0, (6, 6), "left"), first=True) == "66"
    assert token(Event(EventKind.DRAW, 1)) == "D"
    assert token(Event(EventKind.DRAW, 1, (6, 4))) == "D46"
    assert token(Event(EventKind.PASS, 1)) == "P"
    assert token(Event(EventKind.RESIGN, 2)) == "X2"
    assert token(Event(EventKind.AGREE_DRAW)) == "="
    assert read_token("53R", 1) == Event(EventKind.PLAY, 1, (3, 5), "right")
    assert read_token("X3", None) == Event(EventKind.RESIGN, 3)
    with pytest.raises(NotationError, match="needs its end"):
        read_token("35", 0)
    with pytest.raises(NotationError, match="without an end"):
        read_token("35L", 0, first=True)
    with pytest.raises(NotationError, match="not an action"):
        read_token("37R", 0)


def test_rules_tags_name_every_option():
    rules = rules_for("arena", players=4, teams=True, target=50)
    tags = dict(rules_tags(rules))
    assert tags["Players"] == "4"
    assert tags["Teams"] == "yes"
    assert tags["Target"] == "50"
    assert rules_from_tags({"Variant": "arena", **tags}) == rules


GOOD = """[Event "Casual game"]
[Variant "duel-block"]
[Players "2"]
[Target "0"]

1@1. 66 65R 45R P 44R 24R
*
"""


def test_a_bot_s_seat_is_titled_after_its_name_and_reads_back():
    """A seat played by a program carries ``SeatNTitle "BOT"``, written right after
    the seat's name; the reader gives the bots' seats, and refuses a title for a
    seat that is not at the table when writing too."""
    rules, seed, events, state = play_game("duel-block", 2, False, 0, 5)
    text = dumps(record_for(rules, seed, events, state, "duel-block"))
    assert '[Seat1 "hard (computer)"]\n[Seat1Title "BOT"]\n[Result' in text
    record = loads(text)
    assert record.titles == {1: "BOT"}
    assert record.bots == (1,)
    assert loads(GOOD).bots == ()
    with pytest.raises(NotationError, match="seat 3 is not at a table of 2"):
        record_of(rules, events, opening=record.opening, tags=[("Seat3Title", "BOT")], variant="duel-block")


def test_a_good_record_reads():
    record = loads(GOOD)
    assert record.opening == (1, (6, 6))
    assert [event.seat for event in record.events] == [0, 1, 0, 1, 0]
    assert record.result == "*"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (GOOD.replace('[Players "2"]', "[Players 2]"), 3, "a tag pair is"),
        (GOOD.replace('[Target "0"]', '[Players "3"]'), 4, "given twice"),
        (GOOD.replace("duel-block", "dominoes-on-mars"), 1, "unknown variant"),
        (GOOD.replace('[Target "0"]', '[Target "lots"]'), 1, "not a number"),
        (GOOD.replace("65R", "65"), 6, "needs its end"),
        (GOOD.replace("45R", "4,5R"), 6, "not an action"),
        (GOOD.replace("1@1.", "1."), 6, "names its opener"),
        (GOOD.replace("1@1.", "2@1."), 6, "round 1 expected"),
        (GOOD.replace("1@1.", "1@3."), 6, "not at a table of 2"),
        (GOOD.replace("*\n", ""), 6, "ends with its result"),
        (GOOD.replace("24R", "24R X0 P"), 6, "already over"),
        (GOOD.replace("*\n", "*\n2@0. 11\n"), 8, "nothing may follow"),
        (GOOD.replace("1@1. 66", "1@1. 6"), 6, "starts with a tile"),
        (GOOD.replace('[Target "0"]', '[Seat2Title "BOT"]'), 4, "seat 2 is not at a table of 2"),
        (GOOD.replace('[Target "0"]', '[Seat1Title "a program"]'), 4, "a title is capital letters"),
        ("", 1, "no moves"),
    ],
)
def test_malformed_records_are_refused_with_their_line(text, line, message):
    with pytest.raises(NotationError, match=message) as caught:
        loads(text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}: ")


def test_a_record_whose_moves_are_not_legal_does_not_replay():
    rules, seed, events, state = play_game("classic-block", 2, False, 100, 11)
    record = record_for(rules, seed, events, state, "classic-block")
    lines = dumps(record).splitlines()
    round_line = next(i for i, text in enumerate(lines) if text.startswith("1@"))
    words = lines[round_line].split()
    # swap a later play for a pass: the reader accepts it, the engine does not
    at = next(i for i, word in enumerate(words[2:], 2) if word[-1] in "LR")
    words[at] = "P"
    lines[round_line] = " ".join(words)
    tampered = loads("\n".join(lines) + "\n")
    with pytest.raises(NotationError, match="event"):
        replay_record(tampered)


def test_a_record_without_its_seed_does_not_replay():
    with pytest.raises(NotationError, match="no Seed tag"):
        replay_record(loads(GOOD))


def test_several_records_read_one_after_another():
    texts = []
    for number in range(3):
        rules, seed, events, state = play_game("classic-draw", 2, False, 50, number)
        texts.append(dumps(record_for(rules, seed, events, state, "classic-draw")))
    records = loads_all("\n".join(texts))
    assert [dumps(record) for record in records] == texts
    broken = texts[0] + "\n" + texts[1].replace("[Variant", "[Variant oops")
    with pytest.raises(NotationError) as caught:
        loads_all(broken)
    assert caught.value.line == texts[0].count("\n") + 1 + texts[1].split("\n").index(
        next(line for line in texts[1].split("\n") if line.startswith("[Variant"))
    ) + 1
