"""Settings of the relay yardstick: the site's channel layer, nothing else."""

import os

SECRET_KEY = "relay-bench-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
INSTALLED_APPS = ["channels"]
USE_TZ = True
ASGI_APPLICATION = "bench.relay_app.asgi.application"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # The same layer configuration as config/settings/base.py.
    from config.settings.base import CHANNEL_LAYERS
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
