"""Signals of the lobby, for the apps above it.

``periodic_tick(sender=None)`` is sent by every round of the periodic tick
(``lobby.periodic.tick``) after the lobby's own jobs, so that an app above
the lobby (the tournaments) runs its periodic jobs without the lobby
importing it. Each receiver returns a dict, job name -> what it did, merged
into the tick's report; a receiver that raises is logged and the others
still run.
"""

from django.dispatch import Signal

periodic_tick = Signal()
