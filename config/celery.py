"""The Celery application. Workers run with ``make worker``; without
``REDIS_URL`` tasks run in-process (CELERY_TASK_ALWAYS_EAGER)."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("dominoes")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def load_the_computer_players(sender: object, **kwargs: object) -> None:
    """A worker that decides computer moves loads their compiled core before its first
    task (``games.apps.prepare_worker``)."""
    from games.apps import prepare_worker

    prepare_worker(sender, **kwargs)
