"""Lobby pages: the ranked queue, live tables, private tables and their invitations."""

from django.urls import path

from lobby import views

app_name = "lobby"
urlpatterns = [
    path("ranked/", views.ranked, name="ranked"),
    path("live/", views.live, name="live"),
    path("private/new/", views.private_new, name="private_new"),
    path("private/<int:table_id>/", views.private_table, name="private_table"),
    path("private/<int:table_id>/status/", views.private_status, name="private_status"),
    path(
        "private/<int:table_id>/seat/<int:number>/computer/",
        views.private_seat_computer,
        name="private_seat_computer",
    ),
    path("private/<int:table_id>/seat/<int:number>/free/", views.private_free_seat, name="private_free_seat"),
    path("private/<int:table_id>/leave/", views.private_leave, name="private_leave"),
    path("private/<int:table_id>/invite/<int:user_id>/", views.private_invite, name="private_invite"),
    path("private/join/<str:token>/", views.private_join, name="private_join"),
    path("rooms/", views.rooms_index, name="rooms"),
    path("rooms/topup/", views.chips_topup, name="chips_topup"),
    path("rooms/table/<int:table_id>/", views.room_table, name="room_table"),
    path("rooms/table/<int:table_id>/status/", views.room_table_status, name="room_table_status"),
    path("rooms/table/<int:table_id>/join/", views.room_join, name="room_join"),
    path("rooms/table/<int:table_id>/leave/", views.room_leave, name="room_leave"),
    path("rooms/<slug:slug>/", views.room, name="room"),
    path("rooms/<slug:slug>/open/", views.room_open, name="room_open"),
]
