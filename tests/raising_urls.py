"""A URL configuration for tests: the site's, plus a view that fails."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


urlpatterns = [path("broken/", broken), *site_urlpatterns]
