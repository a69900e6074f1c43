"""Hooks the members' pages offer the apps above them (which connect
receivers; accounts never imports them).

``profile_panels(sender=None, request=<HttpRequest>, member=<User>)`` is sent
by the profile page ``/u/<username>/``; each receiver returns a piece of
HTML (safe, already rendered) to show on it, or "" (the lobby answers with
the member's chips, level and chip history: docs/rooms.md).

``export_parts(sender=None, member=<User>)`` is sent by the data download
``/account/export/``; each receiver returns a dict of sections to add to the
member's file (``{"chips": {...}, "chip_ledger": [...]}``), values made of
JSON types only, or {}. A section's name is unique across the apps (two
receivers giving the same name is an error, not an overwrite). An app that
keeps data about a member must answer with every kind of it (docs/members.md).

``account_closing(sender=None, member=<User>, by_moderator=<bool>)`` is
sent by ``accounts.services.close_account`` (``by_moderator=False``) inside
the closing's transaction, after the password was checked and before
anything is erased: each receiver settles or erases what its app keeps about
the member (the lobby leaves the queues, drops invitations, settles the
member's room tables; the tournaments withdraw them), and returns a list of
reasons (translated texts) why the account cannot be closed yet, or [].
Any reason rolls the whole closing back (what the receivers did too). It is
sent too, with ``by_moderator=True``, by ``accounts.services.deactivate_account``
when a moderator closes the account: then a receiver takes the member out of
play (queues, invitations, tournaments not over) but erases nothing of
theirs (the staff may reopen the account); a reason refuses that closing too.

``replay_panels(sender=None, request=<HttpRequest>, table=<Table>, game=<Game>)``
is sent by the replay page ``/table/<id>/replay/``; each receiver returns
HTML (safe) or "" (the community app: the game's chat as the viewer could
read it live, docs/moderation.md).

``unwanted_contacts(sender=None, member_id=<int>)`` is sent when a friend
request may reach a member; each receiver returns the ids of the members
whose contact that member does not want (the community: those they
blocked). Their requests are taken as always but never shown to the member,
and the sender is never told (``accounts.selectors.unwanted_by``).
"""

from django.dispatch import Signal

profile_panels = Signal()
export_parts = Signal()
account_closing = Signal()
replay_panels = Signal()
unwanted_contacts = Signal()
