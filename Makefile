# Dominoes club. `make run` serves the site; `make test` runs every test.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PORT

.PHONY: run test test-fast bench worker beat stack lint migrate check-migrations messages install

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

## Serve the site on http://127.0.0.1:$(PORT) through Daphne (ASGI).
run: migrate
	@echo "Dominoes club on http://127.0.0.1:$(PORT)/"
	$(PY) -m daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

## Every test: the embedded defaults and, beside them, the Django suite on
## PostgreSQL + Redis, each pass spread over worker processes (scripts/test.sh).
test: install
	bash scripts/test.sh

## The quick loop: every test but the browser and stack tests, on the embedded
## defaults, over as many workers as cores (TEST_WORKERS=N for another count).
test-fast: install
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest -n $${TEST_WORKERS:-auto} -m "not browser and not stack"

## Every benchmark, printing numbers.
bench: install
	$(PY) bench/run_all.py

## A Celery worker computing computer moves, against REDIS_URL.
worker: install
	@test -n "$(REDIS_URL)" || { echo "Set REDIS_URL (e.g. redis://127.0.0.1:6379/0)"; exit 1; }
	$(PY) -m celery -A config worker --loglevel=INFO --queues=celery,reviews,periodic --concurrency=$${CELERY_CONCURRENCY:-2}

## The periodic scheduler (matchmaking, timers).
beat: install
	@test -n "$(REDIS_URL)" || { echo "Set REDIS_URL (e.g. redis://127.0.0.1:6379/0)"; exit 1; }
	$(PY) -m celery -A config beat --loglevel=INFO

## Production-like stack in the foreground (the Procfile under supervisord: a
## process that dies is restarted alone): two uvicorn processes, the workers, beat.
stack: install
	@test -n "$(DATABASE_URL)" -a -n "$(REDIS_URL)" || { echo "Set DATABASE_URL and REDIS_URL"; exit 1; }
	$(PY) scripts/stack.py

## Fails when a model change has no migration (CI runs it).
check-migrations: install
	$(PY) manage.py makemigrations --check --dry-run

# mypy --strict on the engine, the computer players and every app's writes and
# reads (pyproject.toml); import-linter checks the layers (docs/architecture.md).
TYPED := games/engine games/ai games/services games/selectors.py games/clock.py games/presence.py \
	games/locks.py games/sockets.py accounts/services.py accounts/selectors.py lobby/services.py \
	lobby/selectors.py lobby/private.py lobby/matchmaking.py lobby/broadcast.py \
	lobby/rooms.py lobby/chips.py lobby/room_tables.py lobby/room_selectors.py \
	games/chain.py games/signing.py games/limits.py config/middleware.py

## ruff, mypy strict and the import layers.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy $(TYPED)
	$(VENV)/bin/lint-imports

## Regenerate and compile the translation catalogues (needs gettext).
messages: install
	$(PY) manage.py makemessages -l fr --ignore=.venv --ignore=staticfiles
	$(PY) manage.py makemessages -d djangojs -l fr --ignore=.venv --ignore=staticfiles
	$(PY) manage.py compilemessages -l fr --ignore=.venv
