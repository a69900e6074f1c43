"""What a real deployment needs (docs/deploy.md): hashed static files whose
module imports are hashed too, a health check the proxy and the supervisor
can reach, settings that refuse what is unsafe, e-mail and the site's
domain from the environment, error reports and error pages."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from config.settings import base

ROOT = Path(__file__).resolve().parent.parent

MODULE_IMPORT = re.compile(r"""(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']""")


@pytest.mark.slow
def test_collected_scripts_import_each_other_by_their_hashed_names(tmp_path: Path) -> None:
    # A proxy caches /static/ for a year as immutable: after a deploy, an
    # unhashed "./table_render.js" imported by the new table.<hash>.js would
    # be the old file.
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=base.STORAGES, WHITENOISE_USE_FINDERS=False):
        call_command("collectstatic", "--noinput", "-v", "0")
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    hashed = set(paths.values())
    scripts = [name for name in paths if name.endswith(".js")]
    checked = 0
    for name in scripts:
        collected = tmp_path / paths[name]
        for found in MODULE_IMPORT.finditer(collected.read_text()):
            target = found.group(1) or found.group(2)
            if not target.startswith("."):
                continue
            resolved = (collected.parent / target).resolve().relative_to(tmp_path.resolve()).as_posix()
            assert resolved in hashed, f"{paths[name]} imports {target}, not a hashed file"
            checked += 1
    assert checked >= 10, "the table page's scripts import each other"


PRODUCTION_LIKE = {
    "SECURE_SSL_REDIRECT": True,
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "ALLOWED_HOSTS": ["dominoes.example"],
}


@pytest.mark.django_db
@override_settings(**PRODUCTION_LIKE)
def test_healthz_answers_the_supervisor_on_127_0_0_1_without_redirect_or_host_check() -> None:
    client = Client()
    # What a supervisor or the proxy's health check sends: plain HTTP, the
    # process's own address as Host.
    response = client.get("/healthz", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 200, response
    assert response.json()["ok"] is True
    # Every other path keeps both protections.
    assert client.get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400
    redirect = client.get("/rules/", HTTP_HOST="dominoes.example")
    assert redirect.status_code == 301
    assert redirect["Location"].startswith("https://dominoes.example/")


@pytest.mark.django_db
@override_settings(**PRODUCTION_LIKE)
def test_healthz_refuses_other_methods_before_the_host_check() -> None:
    client = Client()
    assert client.post("/healthz", HTTP_HOST="127.0.0.1").status_code == 405


# --- settings -----------------------------------------------------------------

GOOD_KEY = "k" * 20 + "-an-unpublished-production-secret-0123456789"
MAIL = {"EMAIL_HOST": "smtp.example.net", "EMAIL_HOST_USER": "club", "EMAIL_HOST_PASSWORD": "pw"}


def example_env() -> dict[str, str]:
    """deploy/env.example as a dictionary."""
    values = {}
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _sep, value = line.partition("=")
            values[name.strip()] = value.strip().strip("\"")
    return values


def load_settings(module: str, names: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """Import a settings module in a fresh interpreter with exactly ``env``
    (plus PATH) and print the settings ``names`` as JSON."""
    code = (
        "import importlib, json, sys\n"
        f"s = importlib.import_module({module!r})\n"
        f"print(json.dumps({{name: getattr(s, name) for name in {names!r}}}, default=str))\n"
    )
    clean = {"PATH": "/usr/bin:/bin", **env}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)


def test_production_refuses_the_example_secret_key() -> None:
    published = example_env()["SECRET_KEY"]
    refused = load_settings("config.settings.production", ["SECRET_KEY"], SECRET_KEY=published, **MAIL)
    assert refused.returncode != 0
    assert "SECRET_KEY is the published example" in refused.stderr
    accepted = load_settings("config.settings.production", ["SECRET_KEY"], SECRET_KEY=GOOD_KEY, **MAIL)
    assert accepted.returncode == 0, accepted.stderr


def test_production_refuses_to_start_without_a_mail_backend_that_sends() -> None:
    nothing = load_settings("config.settings.production", ["EMAIL_BACKEND"], SECRET_KEY=GOOD_KEY)
    assert nothing.returncode != 0
    assert "EMAIL_HOST" in nothing.stderr
    console = load_settings(
        "config.settings.production",
        ["EMAIL_BACKEND"],
        SECRET_KEY=GOOD_KEY,
        EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend",
    )
    assert console.returncode != 0
    assert "sends nothing" in console.stderr


def test_mail_and_the_sites_domain_come_from_the_environment() -> None:
    loaded = load_settings(
        "config.settings.production",
        [
            "EMAIL_BACKEND",
            "EMAIL_HOST",
            "EMAIL_PORT",
            "EMAIL_HOST_USER",
            "EMAIL_HOST_PASSWORD",
            "EMAIL_USE_TLS",
            "EMAIL_USE_SSL",
            "DEFAULT_FROM_EMAIL",
            "SERVER_EMAIL",
            "SITE_DOMAIN",
            "SITE_NAME",
            "TRUSTED_PROXY_COUNT",
            "ALLAUTH_TRUSTED_PROXY_COUNT",
        ],
        SECRET_KEY=GOOD_KEY,
        EMAIL_HOST="smtp.example.net",
        EMAIL_PORT="465",
        EMAIL_USE_SSL="1",
        EMAIL_HOST_USER="club",
        EMAIL_HOST_PASSWORD="secret",
        DEFAULT_FROM_EMAIL="Dominoes <club@dominoes.example>",
        ALLOWED_HOSTS="dominoes.example,www.dominoes.example",
        TRUSTED_PROXY_COUNT="1",
    )
    assert loaded.returncode == 0, loaded.stderr
    values = json.loads(loaded.stdout)
    assert values == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.net",
        "EMAIL_PORT": 465,
        "EMAIL_HOST_USER": "club",
        "EMAIL_HOST_PASSWORD": "secret",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": True,
        "DEFAULT_FROM_EMAIL": "Dominoes <club@dominoes.example>",
        "SERVER_EMAIL": "Dominoes <club@dominoes.example>",
        "SITE_DOMAIN": "dominoes.example",
        "SITE_NAME": "Dominoes club",
        "TRUSTED_PROXY_COUNT": 1,
        "ALLAUTH_TRUSTED_PROXY_COUNT": 1,
    }


def test_the_example_environment_starts_production_once_its_placeholders_are_replaced() -> None:
    env = {**example_env(), "SECRET_KEY": GOOD_KEY}
    loaded = load_settings("config.settings.production", ["EMAIL_HOST", "SITE_DOMAIN"], **env)
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout)["SITE_DOMAIN"] == "dominoes.example"


@pytest.mark.django_db(transaction=True)
def test_password_reset_mails_name_the_configured_site_not_example_com(
    client: Client, mailoutbox: list, django_user_model: type
) -> None:
    django_user_model.objects.create_user("alice", "alice@mail.example", "a-long-pass-phrase-42")
    with override_settings(SITE_DOMAIN="dominoes.example", SITE_NAME="Dominoes club"):
        call_command("migrate", "--noinput", "-v", "0")  # every deploy migrates
        response = client.post("/accounts/password/reset/", {"email": "alice@mail.example"})
    assert response.status_code == 302
    (mail,) = mailoutbox
    assert "example.com" not in mail.subject + mail.body
    assert "Dominoes club" in mail.subject + mail.body


# --- error pages and reports ----------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"), [("en", "This page does not exist"), ("fr", "Cette page n\u2019existe pas")]
)
def test_404_page_has_the_sites_look_in_both_languages(client: Client, language: str, title: str) -> None:
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert 'class="site-header"' in html
    assert 'data-error="404"' in html
    assert title in html


@pytest.mark.django_db
@override_settings(ROOT_URLCONF="tests.raising_urls")
@pytest.mark.parametrize(
    ("language", "title"), [("en", "Something went wrong"), ("fr", "Quelque chose s\u2019est mal passé")]
)
def test_500_page_has_the_sites_look_in_both_languages(language: str, title: str) -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/broken/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 500
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert 'class="site-header"' in html
    assert 'data-error="500"' in html
    assert title in html


SENTRY_PROBE = """
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings
import sentry_sdk
with override_settings(ROOT_URLCONF="tests.raising_urls", ALLOWED_HOSTS=["testserver"]):
    status = Client(raise_request_exception=False).get("/broken/").status_code
sentry_sdk.flush(timeout=10)
print("status", status)
"""


def test_unhandled_errors_go_to_sentry_when_sentry_dsn_is_set(tmp_path: Path) -> None:
    import gzip
    import http.server
    import threading

    received: list[bytes] = []

    class Collector(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            received.append(body)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DEBUG": "0",
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            "SENTRY_DSN": f"http://publickey@127.0.0.1:{server.server_port}/42",
        }
        probe = subprocess.run(
            [sys.executable, "-c", SENTRY_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    finally:
        server.shutdown()
    assert "status 500" in probe.stdout, probe.stderr
    payload = b"\n".join(received)
    assert b"a bug in a view" in payload
    assert b"RuntimeError" in payload
    # No personal data: the default of send_default_pii is kept off.
    assert b"sessionid" not in payload


def test_no_sentry_without_sentry_dsn() -> None:
    import sentry_sdk

    loaded = load_settings("config.settings.local", ["SENTRY_DSN"])
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout) == {"SENTRY_DSN": ""}
    assert not sentry_sdk.is_initialized()


# --- queues -------------------------------------------------------------------------


def test_every_task_route_names_a_real_task_and_the_lobby_tick_has_its_own_queue() -> None:
    from django.conf import settings

    from config.celery import app

    app.loader.import_default_modules()
    for name in settings.CELERY_TASK_ROUTES:
        assert name in app.tasks, f"CELERY_TASK_ROUTES names {name}, which is no task"
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks

    def queue_of(task: str) -> str:
        route = app.amqp.router.route({}, task, args=(), kwargs={})
        return route["queue"].name

    assert queue_of("lobby.tasks.lobby_tick") == "periodic"
    assert queue_of("games.tasks.compute_ai_move") == "celery"
    assert queue_of("games.tasks.review_game") == "reviews"
    assert queue_of("puzzles.tasks.search_puzzles") == "reviews"
    # Every queue has its worker in the Procfile.
    procfile = (ROOT / "Procfile").read_text()
    for queue in ("celery", "reviews", "periodic"):
        assert f"--queues={queue} " in procfile
