"""Game pages: home, play the computer, tables."""

from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("play/computer/", views.play_computer, name="play_computer"),
    path("table/<int:table_id>/", views.table, name="table"),
    path("table/<int:table_id>/rematch/", views.rematch, name="rematch"),
    path("table/<int:table_id>/claim/", views.claim_win, name="claim_win"),
]
