"""Fixtures of the games app's Django tests (not autouse: the engine and AI
tests below this folder stay plain Python)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def computer_queue(settings: Any) -> Iterator[Any]:
    """Computer turns wait in ``games.dispatch.PENDING`` until the test runs
    them with ``dispatch.run_pending()`` (no background thread)."""
    from games import dispatch

    settings.GAMES_DISPATCH = "queue"
    settings.GAMES_SWEEP_SECONDS = 0
    dispatch.PENDING.clear()
    yield dispatch
    dispatch.PENDING.clear()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict]]:
    """Every (group, message) the services broadcast, instead of the layer."""
    from games.services import broadcast

    messages: list[tuple[str, dict]] = []
    monkeypatch.setattr(broadcast, "_send", lambda batch: messages.extend(batch))
    return messages


@pytest.fixture
def no_sweeper(settings: Any) -> None:
    """No background sweep of stalled games during the test."""
    settings.GAMES_SWEEP_SECONDS = 0


@pytest.fixture
def fresh_layer() -> Iterator[None]:
    """A new channel layer for the test: the Redis layer keeps asyncio locks
    bound to the event loop of the test that first used it, and every async
    test runs its own loop."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
