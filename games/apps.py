import sys
import threading
from pathlib import Path

from django.apps import AppConfig

from games import jobs


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import tasks  # noqa: F401  (registers the Celery tasks that games.jobs queues by name)
        from games.signals import game_finished

        game_finished.connect(queue_review_when_finished, dispatch_uid="games.coach.review")
        if _serving():
            # The computer players' compiled core loads (or compiles, once per machine) in
            # the background, not at the first computer move or hint (docs/ai.md).
            from games.ai.warm import warm_up

            threading.Thread(target=warm_up, name="ai-warm-up", daemon=True).start()


def _serving() -> bool:
    """True in a process that serves games (Daphne, Uvicorn, a Celery worker, runserver),
    not in tests or management commands."""
    if "pytest" in sys.modules:
        return False
    if Path(sys.argv[0]).name == "manage.py":
        return len(sys.argv) > 1 and sys.argv[1] == "runserver"
    return True


def queue_review_when_finished(sender: object, game: object, **kwargs: object) -> None:
    """The post-game review of every finished game (sent after the commit)."""
    jobs.queue_review(game.pk)  # type: ignore[attr-defined]
