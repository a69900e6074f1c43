"""Member pages: profiles, leaderboard, friends, ranked queue, live tables,
private tables, replays."""

from django.urls import path

from accounts import play_views, replays, views

app_name = "accounts"
urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("friends/", views.friends, name="friends"),
    path("friends/add/", views.add_friend, name="add_friend"),
    path("friends/<int:friendship_id>/accept/", views.accept_friend, name="accept_friend"),
    path("friends/<int:user_id>/remove/", views.remove_friend, name="remove_friend"),
    path("ranked/", play_views.ranked, name="ranked"),
    path("live/", play_views.live, name="live"),
    path("private/new/", play_views.private_new, name="private_new"),
    path("private/<int:table_id>/", play_views.private_table, name="private_table"),
    path("private/<int:table_id>/status/", play_views.private_status, name="private_status"),
    path(
        "private/<int:table_id>/seat/<int:number>/computer/",
        play_views.private_seat_computer,
        name="private_seat_computer",
    ),
    path(
        "private/<int:table_id>/seat/<int:number>/free/",
        play_views.private_free_seat,
        name="private_free_seat",
    ),
    path("private/<int:table_id>/leave/", play_views.private_leave, name="private_leave"),
    path("private/<int:table_id>/invite/<int:user_id>/", play_views.private_invite, name="private_invite"),
    path("private/join/<str:token>/", play_views.private_join, name="private_join"),
    path("table/<int:table_id>/replay/", replays.replay, name="replay"),
    path("table/<int:table_id>/claim/", play_views.claim_win, name="claim_win"),
]
