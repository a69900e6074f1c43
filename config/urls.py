"""URL routes of the site."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config import views

# The admin's own login form has no throttling and ignores the member login's
# lock: it sends visitors to the member login instead (allauth's
# secure_admin_login), where both apply; a logged-in member who is not staff
# gets 403.
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico where a page names no icon (the site's pages name favicon.svg).
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("rules/", include("rules_guide.urls")),
    path("", include("community.urls")),
    path("", include("api.urls")),
    path("", include("accounts.urls")),
    path("", include("tournaments.urls")),
    path("", include("lobby.urls")),
    path("", include("puzzles.urls")),
    path("", include("games.pages.urls")),
    path("", include("games.pages.fair_urls")),
]
