import logging
import threading
import time
from typing import Any

from django.apps import AppConfig
from django.conf import settings

from games import jobs

logger = logging.getLogger(__name__)


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import tasks  # noqa: F401  (registers the Celery tasks that games.jobs queues by name)
        from games.signals import game_finished

        game_finished.connect(queue_review_when_finished, dispatch_uid="games.coach.review")


def prepare_web_process() -> None:
    """A web process (``config/asgi.py``: Daphne, uvicorn, ``runserver``) never compiles the computer
    players' core: it loads what ``python -m games.ai.build`` put in numba's cache, in the
    background, for its hints (and, embedded, its computer moves). Missing or stale
    there, the pure-Python reference decides, and the log says how to build it
    (docs/ai.md, "The compiled core")."""
    if not getattr(settings, "AI_CORE_AT_START", True):
        return
    from games.ai import core

    core.forbid_compiling()
    threading.Thread(target=_load_core, args=("web process",), name="ai-core-load", daemon=True).start()


def prepare_worker(sender: Any, **_kwargs: object) -> None:
    """Celery's ``worker_init``: a worker that takes computer moves or reviews loads the
    core before it takes a task, in its main process before the pool forks (the pool's
    processes inherit it). Missing from the cache, the worker compiles it there (tens of
    seconds, once, with a warning: the install's build step was skipped)."""
    if not getattr(settings, "AI_CORE_AT_START", True):
        return
    consumed = set(getattr(sender.app.amqp.queues, "consume_from", None) or ())
    if consumed & deciding_queues():
        _load_core("worker")


def deciding_queues() -> set[str]:
    """The Celery queues whose tasks run the computer players (moves, reviews)."""
    default = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")
    routes = getattr(settings, "CELERY_TASK_ROUTES", {})
    return {
        routes.get(task, {}).get("queue", default)
        for task in ("games.tasks.compute_ai_move", "games.tasks.review_game")
    }


def _load_core(role: str) -> None:
    from games.ai import core, warm

    start = time.perf_counter()
    try:
        status = warm.load()
    except Exception:
        logger.exception("compiled core: loading failed in this %s; the pure-Python reference decides", role)
        return
    took = time.perf_counter() - start
    if status == "cached":
        logger.info("compiled core: loaded from numba's cache in %.1f s (%s)", took, role)
    elif status == "compiled":
        logger.warning(
            "compiled core: compiled by this %s in %.0f s (%d functions): the install's build step was "
            "skipped (python -m games.ai.build)", role, took, core.compilations()
        )
    elif status == "unbuilt":
        logger.warning(
            "compiled core: not built (missing or stale in numba's cache): this %s never compiles it and "
            "decides with the pure-Python reference, much slower. Build it (python -m games.ai.build, "
            "which make install runs), then restart", role
        )
    else:
        logger.info("compiled core: %s (%s)", status, role)


def queue_review_when_finished(sender: object, game: object, **kwargs: object) -> None:
    """The post-game review of every finished game (sent after the commit)."""
    jobs.queue_review(game.pk)  # type: ignore[attr-defined]
