from django.apps import AppConfig


class CommunityConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "community"
    verbose_name = "Community"

    def ready(self) -> None:
        from community import receivers  # noqa: F401  (connects the signals)
