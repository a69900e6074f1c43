"""Routes of fair play (games.fair_views): the published replay and the review."""

from django.urls import path

from games import fair_views

app_name = "fair_play"
urlpatterns = [
    path("table/<int:table_id>/replay.json", fair_views.replay_json, name="replay_json"),
    path("table/<int:table_id>/review/", fair_views.review_fragment, name="review"),
    path("game/<int:table_id>/export", fair_views.export_text, name="export"),
    path("game/<int:table_id>/export.json", fair_views.export_json, name="export_json"),
    path("fair-play/key.json", fair_views.signing_key, name="signing_key"),
]
