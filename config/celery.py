"""The Celery application. Workers run with ``make worker``; without
``REDIS_URL`` tasks run in-process (CELERY_TASK_ALWAYS_EAGER)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("dominoes")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
