"""Routes of fair play (games.pages.fair_pages): the published replay and the review."""

from django.urls import path

from games.pages import fair_pages

app_name = "fair_play"
urlpatterns = [
    path("table/<int:table_id>/replay.json", fair_pages.replay_json, name="replay_json"),
    path("table/<int:table_id>/review/", fair_pages.review_fragment, name="review"),
    path("game/<int:table_id>/export", fair_pages.export_text, name="export"),
    path("game/<int:table_id>/export.json", fair_pages.export_json, name="export_json"),
    path("fair-play/key.json", fair_pages.signing_key, name="signing_key"),
]
