"""Error reports to Sentry (optional: only when ``SENTRY_DSN`` is set)."""

from __future__ import annotations

import os


def init_sentry(dsn: str) -> None:
    """Report unhandled errors of Django views, websocket consumers (ASGI) and
    Celery tasks through the official SDK. No personal data is sent
    (``send_default_pii`` off: no cookies, user names or addresses);
    performance tracing only when ``SENTRY_TRACES_SAMPLE_RATE`` is above 0."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        release=os.environ.get("SENTRY_RELEASE") or None,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        send_default_pii=False,
        integrations=[DjangoIntegration(), CeleryIntegration()],
    )
