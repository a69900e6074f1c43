"""Where the test services live and whether they answer."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse


def postgres_url() -> str:
    return os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def redis_url() -> str:
    return os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _port_problem(url: str, default_port: int) -> str | None:
    parsed = urlparse(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=2):
            return None
    except OSError as error:
        return f"nothing answers on {host}:{port} ({error})"


def postgres_problem(url: str) -> str | None:
    problem = _port_problem(url, 5432)
    if problem:
        return problem
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except Exception as error:
        return f"cannot connect to {url}: {error}"
    return None


def redis_problem(url: str) -> str | None:
    problem = _port_problem(url, 6379)
    if problem:
        return problem
    try:
        import redis

        redis.Redis.from_url(url, socket_timeout=3).ping()
    except Exception as error:
        return f"cannot ping {url}: {error}"
    return None
