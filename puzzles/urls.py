from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("puzzles/", views.next_puzzle, name="next"),
    path("puzzles/daily/", views.daily, name="daily"),
    path("puzzles/streak/", views.streak, name="streak"),
    path("puzzles/export.csv", views.export_csv, name="export"),
    path("puzzles/history/", views.my_history, name="history"),
    path("puzzles/<int:puzzle_id>/", views.puzzle_page, name="puzzle"),
    path("puzzles/<int:puzzle_id>.json", views.puzzle_json, name="json"),
    path("puzzles/<int:puzzle_id>/solve/", views.solve, name="solve"),
]
