"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# What is loaded by now (Django, the apps, the URL and template machinery)
# lives as long as the process: moved out of the garbage collector's reach,
# so that its full collections, which pause every socket of the process,
# only go through what the sockets and games made since (docs/performance.md).
# SERVER_GC_FREEZE=0 leaves Python's collector as it is.
if os.environ.get("SERVER_GC_FREEZE", "1") != "0":
    gc.collect()
    gc.freeze()

# The computer players' compiled core: loaded from the install's build in the
# background, never compiled by a web process (games.apps, docs/ai.md).
from games.apps import prepare_web_process  # noqa: E402

prepare_web_process()
