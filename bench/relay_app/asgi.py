"""ASGI entry point of the relay yardstick (websocket only, plus /healthz)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.relay_app.settings")

import django

django.setup()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from bench.relay_app.consumers import RelayConsumer  # noqa: E402


async def health(scope, receive, send):
    """Answer 200 to every HTTP request (the bench waits on /healthz)."""
    if scope["type"] != "http":
        return
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter(
    {
        "http": health,
        "websocket": URLRouter([path("ws/table/<int:table_id>/", RelayConsumer.as_asgi())]),
    }
)
