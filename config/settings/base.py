"""Settings shared by every mode, read from the environment.

Embedded defaults (no variables set): SQLite, the in-memory channel layer and
Celery tasks run in-process. With ``DATABASE_URL`` and ``REDIS_URL``:
PostgreSQL, the Redis channel layer and a real Celery broker.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "channels",
    # Before allauth, so that accounts/templates/account/ overrides its pages.
    "accounts",
    "allauth",
    "allauth.account",
    # Two-factor authentication (an authenticator app, recovery codes) under /accounts/2fa/.
    "allauth.mfa",
    "games",
    "community",
    "lobby",
    "puzzles",
    "tournaments",
    "api",
    "rules_guide",
]

MIDDLEWARE = [
    # /healthz for the proxy and the supervisor: before the HTTPS redirect and
    # the host check (config.middleware).
    "config.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # A member's language preference applied when they log in (accounts.middleware).
    "accounts.middleware.MemberLanguageMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "lobby.context_processors.invitations",
                "lobby.context_processors.chips",
                "tournaments.context_processors.reminder",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # No health check by default: Django would run it (a round trip) before
    # the first query of every websocket message that reaches the database,
    # a move included; a connection that fails is closed after its error and
    # the next call opens a new one (docs/performance.md, docs/stack.md).
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=60, conn_health_checks=env_bool("DATABASE_HEALTH_CHECKS", False)
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Several threads (requests, websockets, in-process tasks) write:
            # wait for the lock instead of failing, and take it up front.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery broker --------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# CHANNEL_LAYER=pubsub (channels_redis.pubsub.RedisPubSubChannelLayer, the
# default: half the CPU per move of the other, and it resubscribes after a
# Redis restart) or core (channels_redis.core.RedisChannelLayer): docs/performance.md.
CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in ("core", "pubsub"):
    raise ImproperlyConfigured(f"CHANNEL_LAYER must be core or pubsub, not {CHANNEL_LAYER!r}")
CHANNEL_LAYERS: dict[str, dict[str, Any]]
if REDIS_URL and CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis.pubsub.RedisPubSubChannelLayer with group_send_many.
            "BACKEND": "config.channel_layers.PubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}]},
        }
    }
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py's 5 s socket timeout races the layer's 5 s blocking
                # read, and its pool raises when exhausted (docs/stack.md).
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15, "max_connections": 4000}],
                "capacity": 2000,
                "expiry": 30,
                "group_expiry": 3600,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Without a broker the same task code runs in-process (see games.tasks).
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# At-least-once delivery of computer moves; the tasks are idempotent.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker died unacknowledged (kill -9, lost machine) goes back to
# the queue once it is older than the visibility timeout: keep it above the
# longest computer move (AI_MOVE_DELAY_MS + the hard player's thinking budget)
# or a slow move is redelivered while it runs (harmless, the task is
# idempotent, but wasted). kombu sweeps for such tasks only every
# interval x throttle seconds (10 x 10 by default): sweep every 2 s instead.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "30")),
    "unacked_restore_interval": int(os.environ.get("CELERY_RESTORE_INTERVAL", "2")),
    "unacked_restore_throttle": 1,
    # A Redis that vanishes without closing the TCP connection must not block
    # a publish (and so a websocket handler) forever.
    "socket_timeout": 15,
    "socket_connect_timeout": 5,
    "health_check_interval": 10,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Post-game reviews are long CPU work (a hard-level search per move): on their
# own queue, served by their own worker (Procfile "reviewer"), so that they
# never hold the slots computer moves wait for.
#
# The periodic lobby work (matchmaking, the counters, turn timers and absent
# players: one tick every LOBBY_TICK_SECONDS) has its own queue too, served
# by its own worker (Procfile "periodic"): a computer move sleeps through its
# human-like pause on a prefork worker, so a backlog of them would otherwise
# hold matchmaking and the turn timers behind it.
PERIODIC_QUEUE = "periodic"
CELERY_TASK_ROUTES = {
    "games.tasks.review_game": {"queue": "reviews"},
    # The puzzle search (puzzles.jobs): long CPU work too, beside the reviews.
    "puzzles.tasks.search_puzzles": {"queue": "reviews"},
    "lobby.tasks.lobby_tick": {"queue": PERIODIC_QUEUE},
    # The chips of a room game that ended (docs/rooms.md): lobby work too.
    "lobby.tasks.settle_room_table": {"queue": PERIODIC_QUEUE},
}
# Periodic tasks (`celery beat`, one in the whole site). The stalled-game
# sweep requeues computer turns whose task was lost (a Redis restart loses
# the queue; a worker killed before its task reached the queue): the database
# says whose turn it is. Apps add their own entries to this dict.
CELERY_BEAT_SCHEDULE = {
    "sweep-stalled-games": {
        "task": "games.tasks.sweep_stalled_games",
        "schedule": float(os.environ.get("CELERY_SWEEP_SECONDS", "10")),
        "options": {"expires": 10},
    },
    # Matchmaking, the lobby counters, turn timers and absent players
    # (lobby.periodic.tick; in-process in the embedded mode).
    "lobby-tick": {
        "task": "lobby.tasks.lobby_tick",
        "schedule": float(os.environ.get("LOBBY_TICK_SECONDS", "3")),
        "options": {"expires": 5},
    },
}
LOBBY_TICK_SECONDS = float(os.environ.get("LOBBY_TICK_SECONDS", "3"))

# New tables per visitor and per client address in a window (games.play.limits).
TABLES_PER_VISITOR = int(os.environ.get("TABLES_PER_VISITOR", "10"))
TABLES_PER_ADDRESS = int(os.environ.get("TABLES_PER_ADDRESS", "40"))
TABLE_LIMIT_WINDOW = 600

# The Ed25519 key that signs published replay files (games.fairplay.signing): 64 hex
# digits; unset, it is derived from SECRET_KEY.
REPLAY_SIGNING_KEY = os.environ.get("REPLAY_SIGNING_KEY", "")

# The pause before a computer move is shown, so that it reads like a person.
AI_MOVE_DELAY_MS = int(os.environ.get("AI_MOVE_DELAY_MS", "700"))

# The computer players' compiled core is loaded as a web process or a deciding
# worker starts (games.apps; built at installation: python -m games.ai.build).
AI_CORE_AT_START = True

# Threads of a web process that store the moves made through its table
# sockets, each with its own database connection, so that the commits (a
# disk flush each) of different tables overlap. 0 (the default): the one
# database thread of every other socket call. Four threads made more moves a
# second at saturation but a worse p99 at a steady pace (docs/performance.md).
MOVE_THREADS = int(os.environ.get("MOVE_THREADS", "0"))

# --- Auth (django-allauth) -------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
SITE_ID = 1
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
# Failed logins: 10 a minute per client address (see TRUSTED_PROXY_COUNT),
# 5 per 5 minutes per account (accounts.adapter: by account, whatever name
# or address is typed). /admin/login/ goes through the same page (config.urls).
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Sign-up does not reveal whether an address has an account (accounts.adapter).
ACCOUNT_FORMS = {"signup": "accounts.adapter.QuietSignupForm"}
# Two-factor authentication (allauth.mfa, docs/members.md): an authenticator
# app (TOTP) and recovery codes; once it is on, the login asks for a code.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
# The issuer an authenticator app shows next to the code: SITE_NAME (below).

# --- E-mail (sign-up, password resets) ---------------------------------------
# SMTP as soon as EMAIL_HOST is set; without it, mails are printed to the
# console (development). config.settings.production refuses to start without
# a backend that sends.
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND", SMTP_BACKEND if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)  # STARTTLS, port 587
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # implicit TLS, port 465
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    if "EMAIL_USE_TLS" in os.environ:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL are exclusive: set one of them.")
    EMAIL_USE_TLS = False
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "dominoes@localhost")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# The Sites framework's domain and name, written into the database at every
# ``migrate`` (accounts.sites): the mails say "dominoes.example", not the
# framework's "example.com".
SITE_DOMAIN = os.environ.get("SITE_DOMAIN", "") or (env_list("ALLOWED_HOSTS", []) or ["localhost:8000"])[0]
SITE_NAME = os.environ.get("SITE_NAME", "Dominoes club")
MFA_TOTP_ISSUER = SITE_NAME

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Guests are identified by their session: keep it a while.
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30

# --- Cache (throttling, counters) ------------------------------------------
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Internationalisation ---------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files (whitenoise) ----------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
}

# --- Behind a proxy: which address is the client's -------------------------
# Number of proxies in front of the web processes that write
# X-Forwarded-For (the nginx of deploy/nginx.conf: 1). The client's address
# is then the entry that many places from the right: the proxy wrote it, the
# client cannot. 0 (development, no proxy): the socket's peer address. Used by
# the login limits (allauth) and the table creation limit (games.play.limits).
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}

# --- Error reports (optional) -------------------------------------------------
# With SENTRY_DSN set, unhandled errors of the web processes and the Celery
# workers are sent to Sentry (config.observability).
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from config.observability import init_sentry

    init_sentry(SENTRY_DSN)

# --- The API for programs (docs/api.md) --------------------------------------
# Each token's allowance: requests per window of seconds (429 with Retry-After beyond).
API_RATE_LIMIT = (int(os.environ.get("API_RATE_REQUESTS", "600")), int(os.environ.get("API_RATE_SECONDS", "60")))
# A blank keep-alive line on a quiet stream after this many seconds.
API_KEEPALIVE_SECONDS = float(os.environ.get("API_KEEPALIVE_SECONDS", "5"))
# A game stream reads the move log at least this often (a broadcast wakes it at once).
API_STREAM_POLL_SECONDS = float(os.environ.get("API_STREAM_POLL_SECONDS", "2"))
# An event stream looks for new challenges and games this often.
API_EVENT_POLL_SECONDS = float(os.environ.get("API_EVENT_POLL_SECONDS", "1"))
# A stream ends after this many seconds (0: never); clients resume (a game stream from its seq).
API_STREAM_MAX_SECONDS = float(os.environ.get("API_STREAM_MAX_SECONDS", "0"))
