"""Hooks the members' pages offer the apps above them.

``profile_panels(sender=None, request=<HttpRequest>, member=<User>)`` is sent
by the profile page ``/u/<username>/``; each receiver returns a piece of
HTML (safe, already rendered) to show on it, or "" (the lobby answers with
the member's chips, level and chip history: docs/rooms.md).

``replay_panels(sender=None, request=<HttpRequest>, table=<Table>, game=<Game>)``
is sent by the replay page ``/table/<id>/replay/``; each receiver returns
HTML (safe) or "" (the community app: the game's chat as the viewer could
read it live, docs/moderation.md).
"""

from django.dispatch import Signal

profile_panels = Signal()
replay_panels = Signal()
