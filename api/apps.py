from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    """The API for programs (docs/api.md): tokens, challenges, streams."""

    name = "api"
    verbose_name = _("API for programs")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from api import receivers  # noqa: F401  (connects the receivers)
