"""Bench only: seat N tables of guests directly in the database, through the
games services, and print how to connect to each seat.

Load runs need people on every seat; the site seats guests only one by one
through its pages. This script makes guest sessions (the same session rows
the site makes) and calls ``games.play.services.create_table`` with a guest on
every seat. It is never imported by the site.

    DATABASE_URL=... REDIS_URL=... python bench/seed_tables.py --tables 50
    -> {"tables": [{"table": 12, "seats": [{"seat": 0, "cookie": "sessionid=..."}, ...]}, ...]}
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--computers", type=int, default=0, help="the last seats are easy computers")
    parser.add_argument("--level", default="easy")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from bench.relay_app.frames import bench_rules
    from games.models import Table
    from games.play.services import SeatSpec, create_table

    rules = bench_rules(args.players)
    expiry = timezone.now() + timezone.timedelta(seconds=settings.SESSION_COOKIE_AGE)
    store = SessionStore()
    people = args.players - args.computers
    keys = [store._get_new_session_key() for _ in range(args.tables * people)]
    Session.objects.bulk_create(
        Session(session_key=key, session_data=store.encode({}), expire_date=expiry) for key in keys
    )
    tables = []
    for index in range(args.tables):
        seat_keys = keys[index * people : (index + 1) * people]
        computers = [SeatSpec(level=args.level) for _ in range(args.computers)]
        table = create_table(
            kind=Table.Kind.COMPUTER if args.computers else Table.Kind.PRIVATE,
            rules=rules,
            preset="classic-draw",
            seats=[*(SeatSpec(guest_key=key) for key in seat_keys), *computers],
            public=True,
        )
        tables.append(
            {
                "table": table.pk,
                "game": table.game.pk,
                "seats": [
                    {"seat": number, "cookie": f"{settings.SESSION_COOKIE_NAME}={key}"}
                    for number, key in enumerate(seat_keys)
                ],
            }
        )
    print(json.dumps({"tables": tables}))


if __name__ == "__main__":
    main()
