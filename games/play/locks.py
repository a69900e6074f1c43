"""A lock per periodic job, so that several server processes never run the
same job at once (the clock sweep, the matcher of each mode)."""

from __future__ import annotations

import hashlib

from django.db import connection, transaction


def try_lock(name: str) -> bool:
    """Lock the job ``name`` until the current transaction ends; False if
    another process holds it. PostgreSQL: a transaction-level advisory lock
    (``pg_try_advisory_xact_lock``). SQLite takes the database's write lock
    at the start of each transaction (IMMEDIATE mode), so there the jobs
    simply run one after the other and this always succeeds."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("try_lock needs a transaction")
    if connection.vendor != "postgresql":
        return True
    key = int.from_bytes(hashlib.sha256(f"dominoes:{name}".encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key])
        row = cursor.fetchone()
    return bool(row and row[0])
