from django.apps import AppConfig


class RulesGuideConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rules_guide"
    verbose_name = "Rules guide"
