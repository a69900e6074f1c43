#!/usr/bin/env bash
# Every test, in two passes:
#  1. the embedded defaults (SQLite, in-memory layer, in-process tasks): all tests;
#     tests needing a real service use TEST_POSTGRES_URL / TEST_REDIS_URL;
#  2. the Django suite again on PostgreSQL and the Redis channel layer, when they
#     answer (always under REQUIRE_SERVICES=1, where a missing service fails).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PG_URL=${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
RD_URL=${TEST_REDIS_URL:-redis://127.0.0.1:6379/0}

# The computer players' compiled core, into numba's cache (a no-op when built):
# the servers and workers the tests start load it from there.
"$PY" -m games.ai.build

echo "== pass 1: embedded defaults (SQLite, in-memory layer) =="
env -u DATABASE_URL -u REDIS_URL "$PY" -m pytest "$@"

services_answer() {
  "$PY" - "$PG_URL" "$RD_URL" <<'PYCODE'
import sys
from tests.support.services import postgres_problem, redis_problem
problems = [p for p in (postgres_problem(sys.argv[1]), redis_problem(sys.argv[2])) if p]
print("; ".join(problems))
sys.exit(1 if problems else 0)
PYCODE
}

if problems=$(services_answer); then
  echo "== pass 2: PostgreSQL + Redis (Django suite) =="
  # tests/stack starts its own processes on its own database and Redis db in
  # pass 1 already: running it again here would test nothing new.
  DATABASE_URL="${PG_URL%/*}/dominoes" REDIS_URL="${RD_URL%/*}/1" \
    "$PY" -m pytest -m "not pure and not browser" --ignore=tests/stack "$@"
elif [ "${REQUIRE_SERVICES:-0}" = "1" ]; then
  echo "REQUIRE_SERVICES=1 but the services do not answer: $problems" >&2
  exit 1
else
  echo "== pass 2 skipped: PostgreSQL or Redis not answering ($problems) =="
fi
