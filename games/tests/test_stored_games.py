"""Games stored by the site before the move log had one type (games.engine.Event)
still publish the same ``replay.json``, byte for byte, show every viewer the same
event frames, and keep their chain.

``data/stored_games.json`` holds four finished games as the site stored and
published them before that change: their ``Move`` rows (seq, seat, kind,
payload, chain), the ``event`` frames each viewer was sent live, and the
``replay.json`` the site served. Between them they hold every kind of move:
plays, draws (with the drawn tile) and passes, next rounds dealt by a player
and by the server, moves of a computer (with their decision record), of the
server for a person out of time and of a stand-in, a resignation and an
agreed draw.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.engine import Event, EventKind, dump_state, rules_for
from games.fairplay import fairness, signing
from games.fairplay import move_chain as chain
from games.live.frames import event_frame
from games.models import Game, Move, Table
from games.play import selectors, services
from games.play.services.moves import finish_result
from games.verifier import arena, verify_replay

pytestmark = pytest.mark.django_db

STORED = json.loads((Path(__file__).parent / "data" / "stored_games.json").read_text(encoding="utf-8"))


def stored_game(name: str) -> Game:
    """The finished game ``name`` of the data file, written as the site had stored it."""
    spec = STORED[name]
    rules = rules_for(spec["preset"], players=spec["players"], teams=spec["teams"], target=spec["target"])
    seats = [
        services.SeatSpec(level=seat["level"]) if seat["level"] else services.SeatSpec(guest_key=f"guest-{n}")
        for n, seat in enumerate(spec["seats"])
    ]
    table = services.create_table(
        kind=Table.Kind.PRIVATE, rules=rules, preset=spec["preset"], seats=seats, public=True,
        server_seed=spec["server_seed"],
    )
    game = table.game
    Move.objects.bulk_create(
        Move(game=game, seq=seq, seat=seat, kind=kind, payload=payload, chain=head)
        for seq, seat, kind, payload, head in spec["moves"]
    )
    state = selectors.rebuild_state(game)
    assert state.game_over
    game.seq, game.chain = len(spec["moves"]), spec["moves"][-1][4]
    game.state, game.to_move, game.round_over = dump_state(state), state.to_move, state.round_over
    game.result, game.winner, game.finished_at = finish_result(state), state.winner, timezone.now()
    game.save()
    table.status, table.finished_at = Table.Status.FINISHED, game.finished_at
    table.save()
    return game


def as_published(text: str, table: Table) -> bytes:
    """The replay file served before, numbered with this test's table (the test
    database chooses the number) and signed again: its bytes as served now."""
    data: dict[str, Any] = json.loads(text)
    data["table"] = table.pk
    data["verify"] = fairness.verify_command(table)
    return json.dumps(signing.sign(data), indent=1).encode()


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_stored_game_publishes_the_same_replay_file(name: str) -> None:
    game = stored_game(name)
    served = Client().get(f"/table/{game.table_id}/replay.json")
    assert served.status_code == 200
    before = STORED[name]["replay_json"]
    if json.loads(before)["table"] == game.table_id:
        assert served.content == before.encode()
    assert served.content == as_published(before, game.table)
    report = verify_replay(served.json(), computer=True, key=signing.public_key_hex())
    assert report.chain_head == game.chain
    assert report.actions == len(STORED[name]["moves"])


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_stored_game_shows_each_viewer_the_same_event_frames_and_keeps_its_chain(name: str) -> None:
    spec = STORED[name]
    for group, frames in spec["event_frames"].items():
        viewer = None if group == "public" else int(group.split(".")[1])
        now = [event_frame(seq, kind, seat, payload, viewer) for seq, seat, kind, payload, _head in spec["moves"]]
        assert [json.dumps(frame) for frame in now] == [json.dumps(frame) for frame in frames]
    head = chain.genesis(json.loads(spec["replay_json"])["commitment"])
    for seq, seat, kind, payload, stored_head in spec["moves"]:
        head = chain.move_link(head, seq=seq, kind=kind, seat=seat, payload=payload)
        assert head == stored_head


def test_the_stored_games_hold_every_kind_of_move() -> None:
    moves = [move for spec in STORED.values() for move in spec["moves"]]
    assert {kind for _seq, _seat, kind, _payload, _head in moves} == set(EventKind)
    assert {payload.get("by") for *_rest, payload, _head in moves} >= {"computer", "server"}
    assert any("computer" in payload for *_rest, payload, _head in moves)
    assert any(kind == "next_round" and seat is None for _seq, seat, kind, _payload, _head in moves)
    assert any(kind == "next_round" and seat is not None for _seq, seat, kind, _payload, _head in moves)


def test_the_kinds_a_move_row_may_hold_are_the_kinds_of_the_event_type() -> None:
    assert [value for value, _label in Move.Kind.choices] == [str(kind) for kind in EventKind]


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_stored_game_counts_the_same_tiles_laid_from_its_rows_and_from_its_replay(name: str) -> None:
    """The berserk bonus's count (games.verifier.arena.tiles_laid): the site reads the
    stored rows, the tournament verifier the replay's actions; both give each seat's plays."""
    spec = STORED[name]
    rows = arena.tiles_laid(Event.from_row(kind, seat, payload) for _seq, seat, kind, payload, _head in spec["moves"])
    actions = json.loads(spec["replay_json"])["actions"]
    replay = arena.tiles_laid(Event.from_json(action) for action in actions)
    by_hand = Counter(seat for _seq, seat, kind, _payload, _head in spec["moves"] if kind == "play")
    assert rows == replay == dict(by_hand)
    assert set(rows) == set(range(spec["players"]))  # every seat laid tiles in these games
