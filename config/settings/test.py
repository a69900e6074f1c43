"""Tests: fast hashing, no pause before computer moves, in-process tasks
unless a test starts a real worker."""

from .local import *

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AI_MOVE_DELAY_MS = 0
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
# Post-game reviews (games.review) run after every finished game: keep them light.
REVIEW_BUDGET_MS = 20
REVIEW_DEALS = 30
