# Dominoes club. `make run` serves the site; `make test` runs every test.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PORT

.PHONY: run test test-fast bench worker beat stack lint migrate check-migrations messages install js-install build-core

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

## The computer players' compiled core, into numba's cache (next to
## games/ai/_kernels.py, or under NUMBA_CACHE_DIR): compiled once, loaded by every
## process after; about a second when it is already built (docs/ai.md).
build-core: $(VENV)/.installed
	$(PY) -m games.ai.build

install: $(VENV)/.installed build-core

# The browser code's checker (TypeScript, pinned in package-lock.json) for
# `make lint`: npm ci into node_modules/. `make run` needs none of it.
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed for the browser code's type check (apt-get install -y nodejs npm)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

js-install: node_modules/.installed

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

## ruff, mypy strict (every package but its pages and migrations: [tool.mypy] of pyproject.toml),
## the import layers (docs/architecture.md), and tsc --checkJs on the browser code (tsconfig.json).
lint: install js-install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	node_modules/.bin/tsc -p tsconfig.json

## Regenerate and compile the translation catalogues (needs gettext).
messages: install
	$(PY) manage.py makemessages -l fr --ignore=.venv --ignore=staticfiles --ignore=node_modules
	$(PY) manage.py makemessages -d djangojs -l fr --ignore=.venv --ignore=staticfiles --ignore=node_modules
	$(PY) manage.py compilemessages -l fr --ignore=.venv
