"""Personal access tokens (docs/api.md): made with scopes, shown once, stored
as their SHA-256 digest, listed with their last use, revocable; and the rate
limit per token. The only code that writes ``AccessToken`` rows."""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from api.models import AccessToken, Scope

PREFIX = "dom_"
SCOPES: tuple[str, ...] = tuple(Scope.values)
# The last use is written at most once a minute per token (one write per request would be one too many).
LAST_USE_EVERY = timedelta(seconds=60)


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class NewToken:
    """A token just made: ``raw`` is shown once and never stored."""

    token: AccessToken
    raw: str


def create_token(*, user: User, description: str, scopes: list[str]) -> NewToken:
    """A new token of ``user`` with these scopes (each one of ``SCOPES``)."""
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if unknown or not scopes:
        raise ValueError(f"unknown or missing scopes: {unknown}")
    raw = PREFIX + secrets.token_urlsafe(32)
    ordered = " ".join(scope for scope in SCOPES if scope in scopes)
    token = AccessToken.objects.create(
        user=user, description=description.strip(), scopes=ordered, digest=digest(raw), prefix=raw[:10]
    )
    return NewToken(token, raw)


def tokens_of(user: User) -> QuerySet[AccessToken]:
    return AccessToken.objects.filter(user=user).order_by("-created_at", "-pk")


def revoke(*, user: User, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; False when they have no such live token."""
    with transaction.atomic():
        updated = AccessToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    return updated == 1


def authenticate(raw: str) -> AccessToken | None:
    """The live token whose digest matches ``raw`` (with its member), its last use noted."""
    if not raw.startswith(PREFIX) or len(raw) > 100:
        return None
    token = (
        # The member's profile with it: whether it is a bot, asked by every bot or board route.
        AccessToken.objects.select_related("user", "user__profile")
        .filter(digest=digest(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USE_EVERY:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def rate_limit() -> tuple[int, int]:
    """(requests, seconds): each token's allowance per window (``API_RATE_LIMIT``)."""
    requests, seconds = getattr(settings, "API_RATE_LIMIT", (600, 60))
    return int(requests), int(seconds)


def take_request(token: AccessToken) -> int:
    """Count one request of the token in the current window: 0 when allowed,
    else the seconds until the window ends (the ``Retry-After``)."""
    allowed, window = rate_limit()
    now = time.time()
    start = int(now // window) * window
    key = f"api:rate:{token.digest[:24]}:{start}"
    cache.add(key, 0, timeout=window + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=window + 5)
        count = 1
    if count <= allowed:
        return 0
    return max(1, int(start + window - now + 0.999))
