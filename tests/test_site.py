"""The foundation: health check, home page, languages and the two run modes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_healthz_answers_200_when_database_and_layer_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": True, "channel_layer": True}


@pytest.mark.services
async def test_the_health_check_leaves_no_channel_subscribed_on_the_pubsub_layer(
    settings, redis_url: str
) -> None:
    from channels.layers import channel_layers, get_channel_layer

    from config import views

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layers.PubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": redis_url, "socket_timeout": 15}]},
        }
    }
    channel_layers.backends.clear()
    layer = get_channel_layer()
    try:
        assert await views._layer_round_trip()
        assert await views._layer_round_trip()
        inner = layer._get_layer()
        assert [channel for channel in inner.channels if "healthz" in channel] == []
    finally:
        await layer.flush()
        channel_layers.backends.clear()


@pytest.mark.services
async def test_the_pubsub_layer_sends_to_many_groups_in_one_call(redis_url: str) -> None:
    import asyncio

    from config.channel_layers import PubSubChannelLayer

    layer = PubSubChannelLayer(hosts=[{"address": redis_url, "socket_timeout": 15}])
    try:
        channels = [await layer.new_channel() for _ in range(3)]
        for index, channel in enumerate(channels):
            await layer.group_add(f"many.{index % 2}", channel)
        await layer.group_send_many([("many.0", {"type": "a", "n": 0}), ("many.1", {"type": "b", "n": 1})])
        received = [await asyncio.wait_for(layer.receive(channel), 5) for channel in channels]
        assert [message["n"] for message in received] == [0, 1, 0]
    finally:
        await layer.flush()


@pytest.mark.django_db
def test_healthz_answers_503_when_the_channel_layer_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("config.views.get_channel_layer", lambda: None)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["channel_layer"] is False


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_fails(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_cursor() -> None:
        raise RuntimeError("database down")

    monkeypatch.setattr("config.views.connection.cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] is False


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"), [("en", "Play dominoes online"), ("fr", "Jouer aux dominos en ligne")]
)
def test_home_page_speaks_the_browser_language(client: Client, language: str, title: str) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert title in html


@pytest.mark.django_db
def test_language_switcher_sets_the_language_cookie(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "fr"
    assert "Jouer aux dominos en ligne" in client.get("/").content.decode()


def _settings_in_subprocess(env: dict[str, str], module: str = "config.settings.local") -> dict:
    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'],"
        "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'],"
        "'eager': settings.CELERY_TASK_ALWAYS_EAGER, 'broker': settings.CELERY_BROKER_URL,"
        "'debug': settings.DEBUG}))"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "CHANNEL_LAYER"}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE=module)
    output = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def test_embedded_defaults_need_no_service() -> None:
    settings = _settings_in_subprocess({})
    assert settings == {
        "engine": "django.db.backends.sqlite3",
        "layer": "channels.layers.InMemoryChannelLayer",
        "eager": True,
        "broker": "memory://",
        "debug": True,
    }


def test_database_and_redis_urls_switch_to_the_production_services() -> None:
    settings = _settings_in_subprocess(
        {"DATABASE_URL": "postgres://u@db.example:5432/dominoes", "REDIS_URL": "redis://cache.example:6379/1"}
    )
    assert settings["engine"] == "django.db.backends.postgresql"
    assert settings["layer"] == "config.channel_layers.PubSubChannelLayer"
    assert settings["eager"] is False
    assert settings["broker"] == "redis://cache.example:6379/1"


def test_channel_layer_core_switches_to_the_list_based_redis_layer() -> None:
    settings = _settings_in_subprocess({"REDIS_URL": "redis://cache.example:6379/1", "CHANNEL_LAYER": "core"})
    assert settings["layer"] == "channels_redis.core.RedisChannelLayer"


def test_production_settings_pass_the_deploy_check() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="a-long-and-random-production-secret-key-for-the-deploy-check-0123456789",
        DEBUG="0",
        ALLOWED_HOSTS="dominoes.example",
        EMAIL_HOST="smtp.example.net",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_a_missing_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production")
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_compiled_french_catalogue_is_committed() -> None:
    assert (ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.mo").stat().st_size > 0


@pytest.mark.parametrize(("value", "frozen"), [(None, True), ("0", False)])
def test_a_web_process_freezes_what_it_loaded_at_start(value: str | None, frozen: bool) -> None:
    """config/asgi.py moves the start-up heap out of the collector's reach
    (SERVER_GC_FREEZE, docs/deploy.md)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "SERVER_GC_FREEZE"}}
    if value is not None:
        env["SERVER_GC_FREEZE"] = value
    env.update(DJANGO_SETTINGS_MODULE="config.settings.local", DOMINOES_AI_CORE="python")
    code = "import gc, config.asgi; print(gc.get_freeze_count())"
    output = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout
    count = int(output.strip().splitlines()[-1])
    assert (count > 10_000) is frozen
