from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.signals import game_finished

        game_finished.connect(queue_review_when_finished, dispatch_uid="games.review")


def queue_review_when_finished(sender: object, game: object, **kwargs: object) -> None:
    """The post-game review of every finished game (sent after the commit)."""
    from games import dispatch

    dispatch.queue_review(game.pk)  # type: ignore[attr-defined]
