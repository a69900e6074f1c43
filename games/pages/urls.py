"""Game pages: home, play the computer, tables."""

from django.urls import path

from games.pages import game_pages

app_name = "games"
urlpatterns = [
    path("", game_pages.home, name="home"),
    path("play/computer/", game_pages.play_computer, name="play_computer"),
    path("table/<int:table_id>/", game_pages.table, name="table"),
    path("table/<int:table_id>/rematch/", game_pages.rematch, name="rematch"),
    path("table/<int:table_id>/claim/", game_pages.claim_win, name="claim_win"),
]
