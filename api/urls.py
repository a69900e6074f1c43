"""The API (``/api/``) and the token page (``/account/tokens/``)."""

from django.urls import path

from api import views
from api.routes import api

urlpatterns = [
    path("api/", api.urls),
    path("account/tokens/", views.tokens_page, name="api_tokens"),
    path("account/tokens/<int:token_id>/revoke/", views.revoke_token, name="api_revoke_token"),
]
