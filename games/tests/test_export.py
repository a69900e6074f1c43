"""Games in the dominoes notation (games.fairplay.export, docs/notation.md): ``/game/<id>/export``
and ``/game/<id>/export.json``, and a member's public games as one streamed download.
A finished game's record is whole and replays to the stored game; a game still on is
written as the public sees it, whoever asks."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games.engine import Draw, dump_state, legal_actions
from games.engine.notation import loads, loads_all, replay_record
from games.models import Game, Table
from games.play import selectors, services
from games.play.modes import RANKED_MODES
from games.tests.factories import UserFactory, seed_in_play
from games.tests.helpers import play_out, ranked_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sent", "computer_queue")]


def _draw_game_with_a_draw(users):
    """A live duel of the draw game in which somebody has drawn a tile."""
    for attempt in range(40):
        table = ranked_table(users, mode="duel-draw")
        game = Game.objects.get(table=table)
        rng = random.Random(attempt)
        for _ in range(200):
            game.refresh_from_db()
            state = selectors.game_state(game)
            if state.to_move is None:
                break
            action = rng.choice(legal_actions(state))
            services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=game.seq)
            if isinstance(action, Draw):
                game.refresh_from_db()
                if not selectors.game_state(game).game_over:
                    return table, game
        table.delete()
    raise AssertionError("no draw in 40 games")


def test_a_finished_game_exports_whole_and_replays_to_the_stored_game():
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    table = ranked_table([alice, bob], mode="duel-draw")
    game = play_out(table, seed=4)
    response = Client().get(f"/game/{table.pk}/export")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    record = loads(response.content.decode())
    assert record.tag("Seed") == game.seed
    assert record.tag("Commitment") == game.commitment
    assert record.tag("Seat0") == "alice"
    assert record.tag("Seat1") == "bob"
    assert record.tag("Event") == "Ranked game"
    assert record.result == "-".join(str(score) for score in game.result["scores"])
    assert dump_state(replay_record(record)) == dump_state(selectors.game_state(game))
    moves = game.moves.count()
    rounds = game.moves.filter(kind="next_round").count()
    assert len(record.events) == moves
    assert record.tag("Termination") == game.result["reason"]
    assert rounds == sum(1 for event in record.events if event.kind == "next_round")
    download = Client().get(f"/game/{table.pk}/export?download=1")
    assert download["Content-Disposition"] == f'attachment; filename="dominoes-{table.pk}.txt"'


def test_the_json_export_holds_the_same_record():
    alice, bob = UserFactory.create(), UserFactory.create()
    table = ranked_table([alice, bob], mode="duel-block")
    play_out(table, seed=2)
    text = Client().get(f"/game/{table.pk}/export").content.decode()
    data = Client().get(f"/game/{table.pk}/export.json").json()
    assert data["notation"] == text
    assert data["finished"] is True
    assert data["id"] == table.pk
    record = loads(text)
    assert data["tags"] == dict(record.tags)
    assert data["result"] == record.result
    assert data["opening"] == {"seat": record.opening[0], "tile": list(record.opening[1])}
    assert len(data["rounds"]) == 1 + sum(1 for event in record.events if event.kind == "next_round")
    assert sum(len(words) for words in data["rounds"]) == sum(
        1 for event in record.events if event.kind != "next_round"
    )


def test_a_live_game_is_exported_as_the_public_sees_it_even_to_its_players():
    alice, bob = UserFactory.create(), UserFactory.create()
    table, game = _draw_game_with_a_draw([alice, bob])
    player = Client()
    player.force_login(alice)
    for client in (Client(), player):
        text = client.get(f"/game/{table.pk}/export").content.decode()
        record = loads(text)
        assert record.tag("Seed") is None
        assert game.seed not in text
        assert record.result == "*"
        draws = [event for event in record.events if event.kind == "draw"]
        assert draws
        assert all(event.tile is None for event in draws)
        moves_text = text.split("\n\n", 1)[1]
        assert not any(word.startswith("D") and len(word) > 1 for word in moves_text.split())
        data = client.get(f"/game/{table.pk}/export.json").json()
        assert data["finished"] is False
        assert "Seed" not in data["tags"]
        assert game.seed not in str(data)


def test_a_private_table_is_exported_only_to_its_players_and_a_waiting_one_not_at_all():
    alice, bob, carol = UserFactory.create(), UserFactory.create(), UserFactory.create()
    spec = RANKED_MODES["duel-block"]
    table = services.create_table(
        kind=Table.Kind.PRIVATE, rules=spec.rules, preset=spec.preset, public=False,
        seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)], server_seed=seed_in_play(spec.rules),
    )
    outsider = Client()
    outsider.force_login(carol)
    assert outsider.get(f"/game/{table.pk}/export").status_code == 404
    assert outsider.get(f"/game/{table.pk}/export.json").status_code == 404
    player = Client()
    player.force_login(alice)
    assert player.get(f"/game/{table.pk}/export").status_code == 200
    waiting = services.create_table(
        kind=Table.Kind.PRIVATE, rules=spec.rules, preset=spec.preset, public=True,
        seats=[services.SeatSpec(user=carol), services.SeatSpec()], start=False,
    )
    assert Client().get(f"/game/{waiting.pk}/export").status_code == 404
    assert Client().get("/game/999999/export").status_code == 404


def test_a_member_downloads_every_public_finished_game_of_theirs():
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    finished = [play_out(ranked_table([alice, bob]), seed=number) for number in range(3)]
    spec = RANKED_MODES["duel-block"]
    private = services.create_table(
        kind=Table.Kind.PRIVATE, rules=spec.rules, preset=spec.preset, public=False,
        seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)], server_seed=seed_in_play(spec.rules),
    )
    play_out(private, seed=9)  # private: not in the public download
    ranked_table([alice, bob])  # still on: not in the download
    response = Client().get("/u/alice/games.txt")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="dominoes-alice.txt"'
    records = loads_all(b"".join(response.streaming_content).decode())
    assert [record.tag("Table") for record in records] == [str(game.table_id) for game in finished]
    for record, game in zip(records, finished, strict=True):
        assert dump_state(replay_record(record)) == dump_state(selectors.game_state(game))
    assert Client().get("/u/nobody/games.txt").status_code == 404


def test_the_replay_page_links_to_both_exports():
    alice, bob = UserFactory.create(), UserFactory.create()
    table = ranked_table([alice, bob])
    play_out(table, seed=1)
    page = Client().get(f"/table/{table.pk}/replay/").content.decode()
    assert f'href="/game/{table.pk}/export" data-export' in page
    assert f'href="/game/{table.pk}/export.json" data-export-json' in page
