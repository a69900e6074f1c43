#!/usr/bin/env bash
# Every test, in two passes run at the same time, each spread over worker
# processes by pytest-xdist (docs/performance.md, "The test suite"):
#  1. the embedded defaults (SQLite, in-memory layer, in-process tasks): all tests;
#     tests needing a real service use TEST_POSTGRES_URL / TEST_REDIS_URL; the
#     stack tests run one after another on one worker, the browser tests on
#     another (tests/support/lanes.py), the rest on whichever worker is free;
#  2. the Django suite again on PostgreSQL and the Redis channel layer, when they
#     answer (always under REQUIRE_SERVICES=1, where a missing service fails), on
#     the database TEST_DATABASE_NAME (each worker its own copy, test_<name>_gwN)
#     and the Redis database number TEST_REDIS_DB.
# Extra arguments go to both passes' pytest. TEST_WORKERS and TEST_WORKERS_PG
# set each pass's number of workers (0: no worker process, one test after another).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PG_URL=${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
RD_URL=${TEST_REDIS_URL:-redis://127.0.0.1:6379/0}
PASS2_DATABASE=${TEST_DATABASE_NAME:-dominoes}
PASS2_REDIS_DB=${TEST_REDIS_DB:-1}
CORES=$(nproc 2>/dev/null || echo 2)
# Pass 1: a worker for each lane (the stack, the browser), whose tests mostly
# wait on their processes, and one per core for the rest; pass 2: one per core.
WORKERS=${TEST_WORKERS:-$((CORES + 2))}
WORKERS_PG=${TEST_WORKERS_PG:-$CORES}

# The computer players' compiled core, into numba's cache (a no-op when built):
# the servers and workers the tests start load it from there.
"$PY" -m games.ai.build

distributed() {
  if [ "$1" = "0" ]; then echo "-n 0"; else echo "-n $1 --dist loadgroup"; fi
}

services_answer() {
  "$PY" - "$PG_URL" "$RD_URL" <<'PYCODE'
import sys
from tests.support.services import postgres_problem, redis_problem
problems = [p for p in (postgres_problem(sys.argv[1]), redis_problem(sys.argv[2])) if p]
print("; ".join(problems))
sys.exit(1 if problems else 0)
PYCODE
}

pass2_pid=""
pass2_log=""
cleanup() {
  if [ -n "$pass2_pid" ] && kill -0 "$pass2_pid" 2>/dev/null; then
    kill -TERM "$pass2_pid" 2>/dev/null || true
    wait "$pass2_pid" 2>/dev/null || true
  fi
  if [ -n "$pass2_log" ]; then rm -f "$pass2_log"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$(date +%s)
if problems=$(services_answer); then
  # The stack tests start their own processes on their own database and
  # Redis db in pass 1 already, Chromium drives the embedded site there, and
  # the one_pass tests use neither this process's database nor its Redis:
  # running them again here would test nothing new.
  pass2_log=$(mktemp)
  # shellcheck disable=SC2046
  DATABASE_URL="${PG_URL%/*}/$PASS2_DATABASE" REDIS_URL="${RD_URL%/*}/$PASS2_REDIS_DB" \
    "$PY" -m pytest $(distributed "$WORKERS_PG") -m "not pure and not browser and not stack and not one_pass" "$@" \
    >"$pass2_log" 2>&1 &
  pass2_pid=$!
  pass2_skipped=""
elif [ "${REQUIRE_SERVICES:-0}" = "1" ]; then
  echo "REQUIRE_SERVICES=1 but the services do not answer: $problems" >&2
  exit 1
else
  pass2_skipped="PostgreSQL or Redis not answering ($problems)"
fi

echo "== pass 1: embedded defaults (SQLite, in-memory layer) =="
pass1=0
# shellcheck disable=SC2046
env -u DATABASE_URL -u REDIS_URL "$PY" -m pytest $(distributed "$WORKERS") "$@" || pass1=$?
echo "== pass 1 over after $(($(date +%s) - started)) s =="

pass2=0
if [ -n "$pass2_pid" ]; then
  wait "$pass2_pid" || pass2=$?
  pass2_pid=""
  echo "== pass 2: PostgreSQL + Redis (Django suite), run beside pass 1 =="
  cat "$pass2_log"
  echo "== pass 2 over; both passes took $(($(date +%s) - started)) s =="
else
  echo "== pass 2 skipped: $pass2_skipped =="
fi
if [ "$pass1" -ne 0 ]; then exit "$pass1"; fi
exit "$pass2"
