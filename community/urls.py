"""The community's routes (docs/moderation.md)."""

from django.urls import path

from community import views

app_name = "community"
urlpatterns = [
    path("u/<str:username>/block/", views.block, name="block"),
    path("u/<str:username>/unblock/", views.unblock, name="unblock"),
    path("u/<str:username>/report/", views.report, name="report"),
    path("u/<str:username>/mute/", views.mute, name="mute"),
]
