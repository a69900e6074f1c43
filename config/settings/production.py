"""Production: ``base`` tightened. Requires a real SECRET_KEY and a mail
backend that sends; serves over HTTPS behind a proxy that sets
X-Forwarded-Proto."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *
from .base import DEBUG, EMAIL_BACKEND, EMAIL_HOST, SECRET_KEY, SMTP_BACKEND, env_bool

# The placeholders of deploy/env.example and of the development settings:
# published, so anyone could sign sessions and invitation links with them.
EXAMPLE_SECRET_KEY_MARKERS = ("change-me", "dev-only-insecure", "tests-only")

if not SECRET_KEY or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("Set SECRET_KEY to a long random value (50+ characters) in production.")
if any(marker in SECRET_KEY for marker in EXAMPLE_SECRET_KEY_MARKERS):
    raise ImproperlyConfigured(
        "SECRET_KEY is the published example: generate your own "
        '(python -c "import secrets; print(secrets.token_urlsafe(64))").'
    )

# Password resets and sign-up mails must leave: no console, memory or dummy backend.
NON_SENDING_BACKENDS = ("console", "locmem", "dummy", "filebased")
if any(f".{name}." in EMAIL_BACKEND for name in NON_SENDING_BACKENDS):
    raise ImproperlyConfigured(
        f"EMAIL_BACKEND {EMAIL_BACKEND} sends nothing: set EMAIL_HOST (and EMAIL_HOST_USER, "
        "EMAIL_HOST_PASSWORD, DEFAULT_FROM_EMAIL) for SMTP, or EMAIL_BACKEND to a backend that sends."
    )
if EMAIL_BACKEND == SMTP_BACKEND and not EMAIL_HOST:
    raise ImproperlyConfigured("Set EMAIL_HOST (the SMTP server) in production.")

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
