"""Site-wide middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from config import views

HEALTH_PATH = "/healthz"


class HealthCheckMiddleware:
    """Answer ``/healthz`` before anything else runs.

    A process supervisor or the proxy's health check calls the process
    directly (``http://127.0.0.1:8000/healthz``): plain HTTP, its own address
    as ``Host``. Further down, ``SecurityMiddleware`` would redirect it to
    HTTPS and the host check would refuse that ``Host`` with 400. The answer
    holds only booleans and nothing depends on the host, so it is given here,
    first in ``MIDDLEWARE``; every other path keeps both protections."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH:
            return views.healthz(request)
        return self.get_response(request)
