"""Tests: fast hashing, no pause before computer moves, in-process tasks
unless a test starts a real worker."""

import os

from .base import CACHES, CHANNEL_LAYERS, REDIS_URL
from .local import *

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AI_MOVE_DELAY_MS = 0
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
# Post-game reviews (games.coach.review) run after every finished game: keep them light.
REVIEW_BUDGET_MS = 20
REVIEW_DEALS = 30
# No lobby tick thread (matchmaking, timers) behind the tests' backs: the
# tests that need it start it or call lobby.periodic.tick() themselves.
LOBBY_TICK_IN_PROCESS = False
# No stalled-games sweep thread (games.tasks.start_embedded_sweeper) either: tests call it.
GAMES_SWEEP_SECONDS = 0
# No table-presence refresh thread (games.live.services.keep_table_socket):
# tests call refresh_table_sockets() themselves.
PRESENCE_KEEPER = False
# No loading of the computer players' compiled core when config.asgi is imported
# or a worker starts in the test process (the root conftest loads it once per session).
AI_CORE_AT_START = False

# Test processes may share one Redis at once (pytest-xdist's workers, the two
# passes of scripts/test.sh, other checkouts of the project): each one names
# its channel-layer groups and channels and its cache keys apart (Redis's
# pub/sub channels are seen from every database number), and empties only
# its own keys (tests.support.cache).
if REDIS_URL:
    TEST_PROCESS_PREFIX = f"test{os.getpid()}"
    for _layer in CHANNEL_LAYERS.values():
        _layer["CONFIG"]["prefix"] = TEST_PROCESS_PREFIX
    CACHES["default"].update(BACKEND="tests.support.cache.OwnKeysRedisCache", KEY_PREFIX=TEST_PROCESS_PREFIX)
