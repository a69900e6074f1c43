"""What the API answers the members' pages: its part of a member's data file
(``accounts.hooks.export_parts``): their access tokens (never the digest,
which is all the site keeps of a token, nor its prefix) and the challenges
they sent and received."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.dispatch import receiver

from accounts.hooks import export_parts
from accounts.selectors import shown_name
from api.models import AccessToken, Challenge


@receiver(export_parts, dispatch_uid="api.export")
def export_api_data(sender: Any, member: Any, **_kwargs: Any) -> dict[str, Any]:
    tokens = AccessToken.objects.filter(user_id=member.pk).order_by("created_at", "pk")
    challenges = (
        Challenge.objects.filter(Q(challenger_id=member.pk) | Q(dest_id=member.pk))
        .select_related("challenger", "dest")
        .order_by("created_at", "pk")
    )
    return {
        "api_tokens": [
            {
                "description": token.description,
                "scopes": token.scope_list,
                "created_at": token.created_at.isoformat(),
                "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
                "revoked_at": token.revoked_at.isoformat() if token.revoked_at else None,
            }
            for token in tokens
        ],
        "challenges": [
            {
                "direction": "sent" if challenge.challenger_id == member.pk else "received",
                "member": shown_name(challenge.dest if challenge.challenger_id == member.pk else challenge.challenger),
                "preset": challenge.preset,
                "players": challenge.players,
                "teams": challenge.teams,
                "target": challenge.target,
                "rated": challenge.rated,
                "status": challenge.status,
                "table": challenge.table_id,
                "created_at": challenge.created_at.isoformat(),
            }
            for challenge in challenges
        ],
    }
