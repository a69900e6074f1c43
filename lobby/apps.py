from django.apps import AppConfig


class LobbyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"
    verbose_name = "Lobby"

    def ready(self) -> None:
        from lobby import receivers  # noqa: F401  (connects the receivers)
