"""Hooks the members' pages offer the apps above them.

``profile_panels(sender=None, request=<HttpRequest>, member=<User>)`` is sent
by the profile page ``/u/<username>/``; each receiver returns a piece of
HTML (safe, already rendered) to show on it, or "" (the lobby answers with
the member's chips, level and chip history: docs/rooms.md).
"""

from django.dispatch import Signal

profile_panels = Signal()
