"""Delete the puzzles made from games whose deal is not public: a private
table's (never to be searched), or a game still sealed (a duplicate round's,
other tables still playing its deal) or whose table is not finished, which
is searched again once it is published (docs/puzzles.md)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def forget_unpublished(apps: Any, schema_editor: Any) -> None:
    Puzzle = apps.get_model("puzzles", "Puzzle")
    SearchedGame = apps.get_model("puzzles", "SearchedGame")
    for searched in SearchedGame.objects.select_related("game__table"):
        game = searched.game
        aborted = bool((game.result or {}).get("aborted"))
        published = game.table.status == "finished" and game.state is not None and not game.sealed
        if not game.table.public:
            Puzzle.objects.filter(table_id=game.table_id).delete()
            SearchedGame.objects.filter(pk=searched.pk).update(found=0, nodes=0)
        elif not published and not aborted:
            Puzzle.objects.filter(table_id=game.table_id).delete()
            SearchedGame.objects.filter(pk=searched.pk).delete()  # searched again once published


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_game_duplicate_round"),
        ("puzzles", "0003_inference"),
    ]

    operations = [migrations.RunPython(forget_unpublished, migrations.RunPython.noop)]
