"""Many members join one queue at the same moment, each running the matcher,
against a real SQLite file (the embedded mode: WAL, writers wait for the
lock). Prints JSON: who sits where. Run by test_matcher.py in a subprocess:

    SQLITE_PATH=/tmp/x.sqlite3 python -m lobby.tests.concurrent_queue duel-block 16
"""

from __future__ import annotations

import json
import os
import sys
import threading

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import close_old_connections  # noqa: E402


def main(mode: str, count: int) -> None:
    from django.conf import settings

    settings.GAMES_DISPATCH = "queue"
    settings.LOBBY_TICK_IN_PROCESS = False
    from games.models import Seat
    from lobby import services as matchmaking
    from lobby.models import QueueEntry

    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(username=f"c{i}", password="x") for i in range(count)]
    barrier = threading.Barrier(count)
    errors: list[str] = []

    def join(user) -> None:
        try:
            barrier.wait()
            matchmaking.join_queue(user=user, mode=mode)
            matchmaking.run_matcher()
        except Exception as error:
            errors.append(repr(error))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=join, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    matchmaking.run_matcher()
    seats = list(Seat.objects.filter(table__mode=mode).values_list("table_id", "user_id"))
    print(
        json.dumps(
            {
                "errors": errors,
                "seats": seats,
                "queued": QueueEntry.objects.count(),
                "users": [u.pk for u in users],
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
