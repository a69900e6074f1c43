"""Hooks the lobby offers the apps above it (which connect receivers; the
lobby never imports them).

``matched_frame_parts(sender=None, table=<Table>)`` is sent when the lobby
builds a ``matched`` frame for a table (``lobby.selectors.matched_frame``:
a table the matcher opened, and the member's table resent when their lobby
socket connects, with ``"resume": true``); each receiver returns a dict of
keys to add to the frame (JSON types only), or {}. The tournaments answer
``{"tournament": <id>}`` for a tournament's table (docs/tournaments.md), so
that a player whose socket reconnected is still followed to their table.

``resumable_table(sender=None, user_id=<id>)`` is sent when the lobby looks
for the member's table to send them back to (``lobby.selectors.table_to_resume``)
beyond the ranked and room games it finds itself; each receiver returns a
live ``Table`` of the member's that the lobby would leave out (a private
table), or None. The tournaments answer the member's tournament table still
being played, rated or not (an unrated tournament plays private tables): a
game that its tournament ends for sure (the clocks, a duplicate round's close).
"""

from django.dispatch import Signal

matched_frame_parts = Signal()
resumable_table = Signal()
