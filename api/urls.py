"""The API (``/api/``) and the token page (``/account/tokens/``)."""

from django.urls import path, re_path

from api import views
from api.routes import api

urlpatterns = [
    path("api/", api.urls),
    # After the API's routes: the rest of /api/ answers the API's JSON 404.
    re_path(r"^api/(?P<rest>.*)$", views.api_not_found),
    path("account/tokens/", views.tokens_page, name="api_tokens"),
    path("account/tokens/<int:token_id>/revoke/", views.revoke_token, name="api_revoke_token"),
]
