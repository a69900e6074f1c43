"""What every page shows a member from the lobby: their pending invitations
to private tables (read only when a template uses them)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from lobby import private, selectors
from lobby.models import Invitation


def invitations(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"lobby_invitations": []}

    def pending() -> list[tuple[Invitation, str]]:
        return [
            (invitation, private.invite_token(invitation.table))
            for invitation in selectors.pending_invitations(user)
        ]

    return {"lobby_invitations": SimpleLazyObject(pending)}


def chips(request: HttpRequest) -> dict[str, object]:
    """The member's chips and level for ``<body data-chips data-level>``
    (read only when a template uses them)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from lobby import room_selectors

    return {"chip_standing": SimpleLazyObject(lambda: room_selectors.standing(user.pk))}
