"""The ledger's invariant, for any sequence of room games (hypothesis): every
chip granted is in a balance, in the house, or held at an unsettled table;
each cached balance equals the sum of its entries; none is negative. Every
member is a new account and the caps on what is won from new accounts are
lowered so that they come into play (what they hold back moves, never
vanishes); games are ended at once (aborts) or after a few tiles (paid)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Table
from games.play import services as game_services
from games.tests.helpers import play_past_the_opening
from lobby import chips, room_tables, rooms
from lobby.models import ChipWallet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_queue")]

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["open", "join", "leave", "play", "resign", "draw", "abort", "topup", "correct", "settle"]),
        st.integers(min_value=0, max_value=1000),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS, kinds=st.lists(st.sampled_from(sorted(rooms.KINDS)), min_size=1, max_size=4))
def test_sum_of_balances_plus_the_house_equals_every_grant(steps, kinds, django_capture_on_commit_callbacks) -> None:
    with mock.patch.object(rooms, "NEWCOMER_PAIR_CAP", 20), mock.patch.object(rooms, "NEWCOMER_DAILY_CAP", 45):
        run_steps(steps, kinds, django_capture_on_commit_callbacks)


def run_steps(steps, kinds, django_capture_on_commit_callbacks) -> None:
    User = get_user_model()
    staff = User.objects.get_or_create(username="staff")[0]
    members = [User.objects.get_or_create(username=f"m{n}")[0] for n in range(5)]
    for member in members:
        chips.grant_welcome(user_id=member.pk)
    for number, (action, pick) in enumerate(steps):
        member = members[pick % len(members)]
        status = "waiting" if action in ("join", "leave") else "playing"
        live = list(Table.objects.filter(kind=Table.Kind.ROOM, status=status).order_by("pk"))
        table = live[pick % len(live)] if live else None
        with django_capture_on_commit_callbacks(execute=True):
            try:
                if action == "open":
                    kind = kinds[number % len(kinds)]
                    opened = room_tables.open_table(
                        owner=member, room="passport", kind=kind, target=[0, 50, 100][pick % 3]
                    )
                    # Most tables fill at once; some keep open seats for "join" and "leave".
                    others = [m for m in members if m.pk != member.pk][: rooms.KINDS[kind].players - 1]
                    for other in others[: len(others) if pick % 4 else pick % len(others)]:
                        room_tables.join_table(table_id=opened.pk, user=other)
                elif action == "join" and table is not None:
                    room_tables.join_table(table_id=table.pk, user=member)
                elif action == "leave" and table is not None:
                    room_tables.leave_table(table_id=table.pk, user=member)
                elif action == "play" and table is not None:
                    play_past_the_opening(table, tiles=2 + pick % 3, seed=pick)
                elif action == "resign" and table is not None:
                    game_services.resign(game_id=table.game.pk, seat=pick % table.seats.count())
                elif action == "draw" and table is not None:
                    for seat in range(table.seats.count()):
                        game_services.offer_draw(game_id=table.game.pk, seat=seat)
                elif action == "abort" and table is not None:
                    game_services.abort_game(game_id=table.game.pk)
                elif action == "topup":
                    chips.claim_topup(user_id=member.pk)
                elif action == "correct":
                    chips.admin_entry(user_id=member.pk, amount=pick - 500, note="hypothesis", created_by=staff)
                elif action == "settle":
                    room_tables.settle_missed()
            except (game_services.GameError, chips.ChipError):
                pass  # a refused step changes nothing; the invariant must still hold
        totals = chips.totals()
        assert totals.balanced, totals
        assert chips.check_wallets() == []
        assert not ChipWallet.objects.filter(balance__lt=0).exists()
    room_tables.settle_missed()
    assert chips.totals().balanced
