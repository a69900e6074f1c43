"""The tournaments' pages (docs/tournaments.md)."""

from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("tournaments/", views.index, name="index"),
    path("tournaments/new/", views.new, name="new"),
    path("tournaments/<int:tournament_id>/", views.detail, name="detail"),
    path("tournaments/<int:tournament_id>/standings/", views.standings, name="standings"),
    path("tournaments/<int:tournament_id>/chat/", views.chat, name="chat"),
    path("tournaments/<int:tournament_id>/join/", views.join, name="join"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("tournaments/<int:tournament_id>/pause/", views.pause, name="pause"),
    path("tournaments/<int:tournament_id>/berserk/", views.berserk, name="berserk"),
    path("tournaments/<int:tournament_id>/notify/", views.notify, name="notify"),
    path("tournaments/<int:tournament_id>/results.json", views.results, name="results"),
]
