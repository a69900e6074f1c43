"""One committed seed deals one game (docs/fair-play.md): an offered server
seed is claimed once, also by requests that each loaded the session before
the other saved it, and no two games share a commitment."""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from games.engine import commit_seed, rules_for
from games.fairplay import fairness
from games.models import Game, SeedOffer, Table
from games.play import services
from games.tests.factories import ComputerSeatFactory, GuestSeatFactory, UserFactory

RULES = rules_for("classic-draw", players=2, teams=False, target=50)


def form_commitment(client: Client) -> str:
    page = client.get("/private/new/").content.decode()
    return re.search(r'name="commitment" value="([0-9a-f]{64})"', page).group(1)


@pytest.mark.django_db
def test_an_offered_seed_is_claimed_once_from_two_copies_of_the_session() -> None:
    session: dict[str, Any] = {}
    commitment = fairness.offer_commitment(session)
    # Two requests at once: each loaded the session as it was, with the seed in it.
    first, second = copy.deepcopy(session), copy.deepcopy(session)
    seed = fairness.claim_server_seed(first, commitment)
    assert seed is not None
    assert commit_seed(seed) == commitment
    assert fairness.claim_server_seed(second, commitment) is None
    assert not SeedOffer.objects.filter(commitment=commitment).exists()


@pytest.mark.django_db
def test_the_form_sent_twice_at_once_deals_one_table(computer_queue) -> None:
    member = Client()
    member.force_login(UserFactory())
    commitment = form_commitment(member)
    loaded = copy.deepcopy(dict(member.session))  # the session as both requests read it
    form = {"preset": "classic-draw", "players": "2", "target": "100", "public": "on"}
    form.update(salt="my own words", commitment=commitment)
    assert member.post("/private/new/", form).status_code == 302
    session = member.session
    session.update(loaded)  # the second request's copy, loaded before the first saved its own
    session.save()
    again = member.post("/private/new/", form)
    assert again.status_code == 200
    page = again.content.decode()
    assert "has already dealt a table" in page
    assert form_commitment(member) != commitment
    assert Game.objects.count() == 1
    assert Game.objects.get().commitment == commitment


@pytest.mark.django_db
def test_no_two_games_share_a_commitment() -> None:
    def table() -> Table:
        return services.create_table(
            kind=Table.Kind.PRIVATE,
            rules=RULES,
            preset="classic-draw",
            seats=[GuestSeatFactory.build(), ComputerSeatFactory.build()],
            public=True,
            server_seed="a" * 32,
            salt="one salt",
        )

    first = table()
    with pytest.raises(services.NotAllowed) as refused:
        table()
    assert refused.value.reason == "commitment_used"
    assert "already deals another table" in refused.value.message
    assert list(Table.objects.all()) == [first]  # nothing written
    # The database keeps it too, whatever writes the row.
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(table=Table.objects.create(kind="private"), preset="classic-draw", rules={}, seed="x",
                            commitment=first.game.commitment)


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results.append(call())
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_claims_at_the_same_moment_give_the_seed_once() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises writers; the test above covers the logic)")
    for _attempt in range(5):
        session: dict[str, Any] = {}
        commitment = fairness.offer_commitment(session)
        copies = [copy.deepcopy(session) for _ in range(3)]
        results = at_once(*(lambda c=c: fairness.claim_server_seed(c, commitment) for c in copies))
        won = [seed for seed in results if seed is not None]
        assert len(results) == 3
        assert len(won) == 1
        assert commit_seed(won[0]) == commitment


# --- The migration on a database that already has games sharing a commitment ---------

BEFORE = [("games", "0007_table_rematch")]
AFTER = [("games", "0009_unique_commitment_and_current_seat")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_passes_over_games_that_already_share_a_commitment() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    User = apps.get_model("auth", "User")
    OldTable, OldGame, OldSeat = (apps.get_model("games", name) for name in ("Table", "Game", "Seat"))
    alice, bob = User.objects.create(username="alice"), User.objects.create(username="bob")

    def game(status: str, commitment: str, *people: Any) -> Any:
        table = OldTable.objects.create(kind="private", status=status, created_by=alice)
        for number, person in enumerate(people):
            OldSeat.objects.create(table=table, number=number, user=person, name=person.username)
        return OldGame.objects.create(table=table, preset="classic-draw", rules={}, seed="s", commitment=commitment)

    finished = game("finished", "c" * 64, alice, bob)
    playing = game("playing", "c" * 64, alice, bob)
    waiting = game("waiting", "c" * 64, alice, bob)
    alone = game("playing", "d" * 64, alice, bob)
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
        Game_, Table_, Seat_ = (apps.get_model("games", name) for name in ("Game", "Table", "Seat"))
        flags = dict(Game_.objects.values_list("pk", "shared_commitment"))
        assert flags == {finished.pk: False, playing.pk: True, waiting.pk: True, alone.pk: False}
        statuses = dict(Table_.objects.values_list("pk", "status"))
        assert statuses[playing.table_id] == statuses[waiting.table_id] == "aborted"  # their deal is known
        assert statuses[finished.table_id] == "finished"
        assert statuses[alone.table_id] == "playing"
        assert Game_.objects.get(pk=playing.pk).result["reason"] == "shared_seed"
        # Each member's live game holds them from now on.
        engaged = set(Seat_.objects.filter(engaged=True).values_list("table_id", "user_id"))
        assert engaged == {(alone.table_id, alice.pk), (alone.table_id, bob.pk)}
        with pytest.raises(IntegrityError), transaction.atomic():
            Game_.objects.filter(pk=alone.pk).update(commitment="c" * 64)
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
