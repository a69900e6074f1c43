"""The browser notifications' script (static/js/notify.js): templates/base.html
loads it, and marks <body> with data-notifications="on", only for a member
whose "notifications" preference is on (docs/members.md)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Profile

pytestmark = pytest.mark.django_db

SCRIPT = "js/notify.js"
MARK = 'data-notifications="on"'


def page_for(user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get("/rules/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_script_is_loaded_for_a_member_with_notifications_on(make_member) -> None:
    alice = make_member("alice")
    Profile.objects.filter(user=alice).update(notifications=True)
    html = page_for(alice)
    assert SCRIPT in html
    assert MARK in html


def test_no_script_for_a_member_with_notifications_off_nor_for_a_guest(make_member) -> None:
    bob = make_member("bob")
    assert Profile.objects.get(user=bob).notifications is False
    for html in (page_for(bob), page_for()):
        assert SCRIPT not in html
        assert MARK not in html
