"""Project configuration. The Celery app is loaded with Django so that
``@shared_task`` functions bind to it."""

from .celery import app as celery_app

__all__ = ("celery_app",)
