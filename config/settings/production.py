"""Production: ``base`` tightened. Requires SECRET_KEY; serves over HTTPS
behind a proxy that sets X-Forwarded-Proto."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *
from .base import DEBUG, SECRET_KEY, env_bool

if not SECRET_KEY or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("Set SECRET_KEY to a long random value (50+ characters) in production.")

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
