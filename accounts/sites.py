"""The Sites framework's record of this site, from the settings.

allauth's mails name the site from the ``Site`` row ``SITE_ID`` (the framework
creates it as "example.com"). After every ``migrate`` (each deploy runs one)
it is set to ``SITE_DOMAIN`` and ``SITE_NAME``, which come from the
environment (config.settings.base)."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def sync_site(using: str = "default", **kwargs: Any) -> None:
    from django.contrib.sites.models import Site

    Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID, defaults={"domain": settings.SITE_DOMAIN, "name": settings.SITE_NAME}
    )
    Site.objects.clear_cache()
