"""URL routes of the site."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("rules/", include("rules_guide.urls")),
    path("", include("accounts.urls")),
    path("", include("lobby.urls")),
    path("", include("games.urls")),
    path("", include("games.fair_urls")),
]
