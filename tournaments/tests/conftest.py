"""The tournaments' tests read messages in English, whatever language an
earlier test's request left active in this thread (a French page of the rules
guide, say: Django's LocaleMiddleware does not restore it); ``lobby_frames``
keeps the lobby frames a test's tournament sends instead of sending them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from lobby import broadcast


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture
def lobby_frames(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[int], dict[str, Any]]]:
    """The frames sent to members' lobby sockets, as (user ids, frame)."""
    frames: list[tuple[list[int], dict[str, Any]]] = []
    monkeypatch.setattr(broadcast, "send_to_users", lambda user_ids, frame: frames.append((list(user_ids), frame)))
    return frames
