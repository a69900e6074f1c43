"""Fixtures of the accounts tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def make_member(db: Any):
    """A member with a known password (``secret-pass-123``)."""

    def make(username: str, *, email: str | None = None) -> Any:
        return get_user_model().objects.create_user(
            username=username, email=email or f"{username}@example.com", password="secret-pass-123"
        )

    return make


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """A new channel layer per test: the Redis layer keeps asyncio locks bound
    to the event loop of the test that first used it."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _jobs_in_the_test_thread(settings):
    """Computer turns and post-game reviews wait in games.dispatch's queues
    instead of running on background threads behind the test's back."""
    from games import dispatch

    settings.GAMES_DISPATCH = "queue"
    yield
    dispatch.PENDING.clear()
    getattr(dispatch, "PENDING_REVIEWS", []).clear()
