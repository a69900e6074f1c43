"""A member's language preference (``Profile.language``), applied when they
log in: the login's answer sets the language cookie that Django's
LocaleMiddleware reads (and the sockets: games.socket.base), on any device. The
language chosen at the foot of a page by a logged-in member becomes their
preference too, so that the two never disagree."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from accounts import services

LANGUAGE_TO_APPLY = "accounts.language_to_apply"
"""Session key: the language the next answer sets (written at login)."""


def set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class MemberLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # Only a session changed by this request can hold the mark (a login
        # changes it), so other requests pay nothing.
        if session is not None and session.modified and LANGUAGE_TO_APPLY in session:
            set_language_cookie(response, str(session.pop(LANGUAGE_TO_APPLY)))
        elif request.method == "POST" and settings.LANGUAGE_COOKIE_NAME in response.cookies:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated and request.path == reverse("set_language"):
                services.save_language(user=user, language=response.cookies[settings.LANGUAGE_COOKIE_NAME].value)
        return response
