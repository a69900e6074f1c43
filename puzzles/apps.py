from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = "Puzzles"

    def ready(self) -> None:
        from puzzles import (
            receivers,  # noqa: F401  (connects the hooks of games)
            tasks,  # noqa: F401  (registers the task that puzzles.jobs queues by name)
        )
