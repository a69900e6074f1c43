"""The bare Channels relay: the yardstick of bench/ws_load.py.

It speaks just enough of the table protocol (docs/protocol.md) for the
same load generator to drive it: one frame in, ``group_send`` to the same
groups as the site (``table.<id>.seat.<n>`` and ``table.<id>.public``) with
frames of the same size (built once from a real mid-round engine state), on
the same channel layer. No database, no session, no rules: what is left is
the cost of Channels, the layer and the websocket server.

    DJANGO_SETTINGS_MODULE=bench.relay_app.settings REDIS_URL=redis://... \
        daphne -p 8500 bench.relay_app.asgi:application
"""
