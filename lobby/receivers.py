"""Receivers of the lobby: the embedded mode's periodic loop starts with the
first table socket (the lobby socket starts it itself)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.signals import table_socket_opened
from lobby import periodic


@receiver(table_socket_opened, dispatch_uid="lobby.start_loop")
def start_loop_with_first_socket(sender: Any, **_kwargs: Any) -> None:
    periodic.start_in_process_loop()
