"""The table socket ``/ws/table/<id>/`` (docs/protocol.md), its route, and the
base every websocket of the site shares (``base.JsonSocket``)."""
