"""The series of the profile's charts of chips and level
(lobby.room_selectors.chip_progress, from the ChipEntry rows) and their place
in the lobby's profile panel, with the text alternative in both languages."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from lobby import chips, room_selectors, rooms
from lobby.models import ChipEntry, ChipWallet

pytestmark = pytest.mark.django_db


def credit(user, amount: int, xp: int) -> None:
    chips.post(user_id=user.pk, amount=amount, xp=xp, reason=ChipEntry.Reason.ADMIN, note="test")


def test_each_entry_is_a_point_with_the_balance_and_the_level_reached(make_member) -> None:
    alice = make_member("alice")  # the welcome chips: the first entry
    level_two = rooms.LEVEL_CURVE[1]
    credit(alice, 50, level_two - 1)
    credit(alice, -30, 1)
    credit(alice, 10, 0)
    progress = room_selectors.chip_progress(alice.pk)
    assert progress is not None
    wallet = ChipWallet.objects.get(user=alice)
    balances = [balance for _moment, balance, _level in progress.points]
    assert balances[1:] == [balances[0] + 50, balances[0] + 20, balances[0] + 30]
    assert balances[-1] == wallet.balance
    assert [level for _moment, _balance, level in progress.points] == [1, 1, 2, 2]
    assert progress.chips_chart["series"][0]["values"] == balances
    assert progress.level_chart["series"][0]["values"] == [1, 1, 2, 2]
    assert progress.level_chart["series"][0]["path"] == "steps"
    assert len(progress.chips_chart["x"]) == 4


def test_a_window_of_the_newest_entries_keeps_the_experience_earned_before(make_member) -> None:
    alice = make_member("alice")
    credit(alice, 5, rooms.LEVEL_CURVE[1])
    credit(alice, 5, 0)
    progress = room_selectors.chip_progress(alice.pk, limit=1)
    assert progress is not None
    assert [level for _moment, _balance, level in progress.points] == [2]


def test_no_entry_no_chart(make_member) -> None:
    alice = make_member("alice")
    ChipEntry.objects.filter(user=alice).delete()
    assert room_selectors.chip_progress(alice.pk) is None


@pytest.mark.parametrize(("language", "caption"), [("en", "now (3 entries)"), ("fr", "maintenant (3 opérations)")])
def test_the_profile_draws_chips_and_level_with_a_text_alternative(make_member, language, caption) -> None:
    alice = make_member("alice")
    credit(alice, 50, 3)
    credit(alice, 10, 3)
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("accounts:profile", args=["alice"])).content.decode()
    for chart_id in ("chips-chart", "level-chart"):
        match = re.search(rf'<script id="{chart_id}" type="application/json">(.*?)</script>', html, re.S)
        assert match, chart_id
        assert len(json.loads(match.group(1))["series"][0]["values"]) == 3
    assert caption in html
