from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import signals  # noqa: F401  (connects the receivers)
        from accounts.sites import sync_site

        # After the sites framework has created its default row.
        post_migrate.connect(sync_site, sender=apps.get_app_config("sites"), dispatch_uid="accounts.sync_site")
