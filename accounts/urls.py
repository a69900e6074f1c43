"""Member pages: profiles, leaderboard, friends, replays, the account's settings, data and closing."""

from django.urls import path

from accounts import replays, views

app_name = "accounts"
urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("u/<str:username>/games.txt", views.games_export, name="games_export"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("friends/", views.friends, name="friends"),
    path("friends/add/", views.add_friend, name="add_friend"),
    path("friends/<int:friendship_id>/accept/", views.accept_friend, name="accept_friend"),
    path("friends/<int:user_id>/remove/", views.remove_friend, name="remove_friend"),
    path("table/<int:table_id>/replay/", replays.replay, name="replay"),
    path("table/<int:table_id>/ratings.json", views.table_ratings, name="table_ratings"),
    path("account/settings/", views.account_settings, name="settings"),
    path("account/export/", views.account_export, name="export"),
    path("account/close/", views.account_close, name="close"),
]
