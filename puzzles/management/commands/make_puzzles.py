"""``python manage.py make_puzzles``: search the finished games not searched
yet for puzzles; ``--self-play N`` first plays N seeded computer games (so a
young site has puzzles too)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine import PRESETS
from puzzles import generator, services


class Command(BaseCommand):
    help = "Make puzzles from finished games (and, with --self-play, from computer games played now)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=0, help="search at most this many games (0: all)")
        parser.add_argument("--self-play", type=int, default=0, help="first play this many computer games")
        parser.add_argument("--preset", default="duel-block", choices=sorted(PRESETS), help="their variant")
        parser.add_argument("--level", default="easy", choices=["easy", "medium", "hard"], help="their level")
        parser.add_argument("--seed", default="puzzles", help="their server seeds are SEED-0, SEED-1, ...")
        parser.add_argument(
            "--budget", type=int, default=generator.DEFAULT_NODE_BUDGET, help="solver nodes per position"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["self_play"] > 0:
            played = services.play_computer_games(
                options["self_play"], preset=options["preset"], level=options["level"], seed=options["seed"]
            )
            self.stdout.write(f"played {len(played)} computer games")
        limit = options["games"]
        made = searched = 0
        while True:
            batch = services.games_to_search(min(50, limit - searched) if limit else 50)
            if not batch:
                break
            for game in batch:
                made += len(services.search_game(game, options["budget"]))
                searched += 1
            if limit and searched >= limit:
                break
        self.stdout.write(f"searched {searched} games, made {made} puzzles")
