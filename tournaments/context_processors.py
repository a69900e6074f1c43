"""What every page shows a member from the tournaments: the reminder of the
next tournament they joined (a countdown to its start, then a link to it once
it runs). One indexed query for a member, read only when a template uses it;
none for a guest (docs/tournaments.md, "Reminders")."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from tournaments import selectors


def reminder(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"tournament_reminder": None}
    return {"tournament_reminder": SimpleLazyObject(lambda: selectors.reminder_for(user.pk))}
