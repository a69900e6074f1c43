"""An arena at scale (docs/tournaments.md, "Benchmark"), from 100 to 1,000 players
with simulated results. Prints numbers; asserts nothing.

- pairing a wave of half the players (tournaments/pairing.py): duels with
  random last opponents, duels where every free player's last opponent is
  their neighbour in the standings (the worst case: no shortcut, the matching
  runs in every window), and four-player tables whose last tables are
  neighbours in the standings; the median and the slowest of 7 runs;
- a standings update after a game (``services.score_seats``, the site's own:
  the row locks, the ranks before and after, two ``Score`` rows, two
  ``UPDATE``s, the commit), its announcement after the commit
  (``services.announce_standings``: the frame's shared part read and sent
  to the channel layer), and one viewer's part of the frame (their rank and
  the rows around it), on the database (a temporary SQLite file unless
  ``DATABASE_URL`` is set and migrated, or ``BENCH_MIGRATE=1``);
- the size of a viewer's standings frame in bytes, as the socket sends it,
  with ordinary names and with the longest ones (150 characters of 3 bytes).

The machine's yardstick (bench/machine.py: a fixed piece of Python, and the
CPU the hypervisor took) is printed at the start and the end.
``python bench/tournaments.py [--games N]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
_tmp = tempfile.TemporaryDirectory()
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(Path(_tmp.name) / "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench import machine  # noqa: E402
from games.models import Table  # noqa: E402
from games.verifier import arena  # noqa: E402
from tournaments import selectors, services  # noqa: E402
from tournaments.models import GameSeat, Player, Tournament, TournamentGame  # noqa: E402
from tournaments.pairing import Free, group_wave, pair_wave  # noqa: E402

SIZES = (100, 250, 500, 1000)


def timed(function, repeat: int, *, collect: bool = False) -> list[float]:
    """Milliseconds of each run; with ``collect``, a full garbage collection
    before each (a collection of the whole process's objects, some 65 ms with
    Django loaded, otherwise falls into whichever run allocates past the
    threshold: the slowest run then measures it, not the pairing)."""
    runs = []
    for _ in range(repeat):
        if collect:
            gc.collect()
        start = time.perf_counter()
        function()
        runs.append((time.perf_counter() - start) * 1000)
    return runs


def waves(players: int, rng: random.Random) -> dict[str, list[Free]]:
    """The free half of ``players``, ranked, with three kinds of last opponents."""
    ranks = rng.sample(range(1, players + 1), players // 2)
    ids = list(range(players // 2))
    by_rank = sorted(zip(ranks, ids, strict=True))
    neighbour = {}
    for index in range(0, len(by_rank) - 1, 2):
        (_ra, a), (_rb, b) = by_rank[index], by_rank[index + 1]
        neighbour[a], neighbour[b] = b, a
    tables: dict[int, frozenset[int]] = {}
    for index in range(0, len(by_rank), 4):
        group = frozenset(player for _rank, player in by_rank[index : index + 4])
        for player in group:
            tables[player] = group - {player}
    return {
        "random": [Free(i, r, rng.choice([None, *(j for j in ids if j != i)])) for r, i in by_rank],
        "neighbours": [Free(i, r, neighbour.get(i)) for r, i in by_rank],
        "four": [Free(i, r, last_table=tables[i]) for r, i in by_rank],
    }


def pairing() -> None:
    rng = random.Random(7)
    print("pairing a wave of half the players (ms: median / slowest of 7)")
    print(f"{'players':>8} {'wave':>6} {'duels, random':>16} {'duels, rematches':>18} {'tables of four':>16}")
    for players in SIZES:
        wave = waves(players, rng)
        cells = []
        for kind, function in (("random", pair_wave), ("neighbours", pair_wave), ("four", group_wave)):
            function(wave[kind])  # warm
            runs = timed(lambda function=function, free=wave[kind]: function(free), 7, collect=True)
            cells.append(f"{statistics.median(runs):6.1f} / {max(runs):6.1f}")
        print(f"{players:>8} {players // 2:>6} {cells[0]:>16} {cells[1]:>18} {cells[2]:>16}")


def arena_of(players: int, rng: random.Random, *, long_names: bool = False) -> Tournament:
    stamp = f"{players}{'L' if long_names else ''}{rng.randrange(10**6)}"
    tournament = Tournament.objects.create(
        mode="duel-block",
        minutes=60,
        starts_at=timezone.now(),
        ends_at=timezone.now() + timedelta(hours=1),
        status=Tournament.Status.STARTED,
    )
    names = [
        (f"{index:04d}{stamp}" + "語" * 150)[:150] if long_names else f"player{index:04d}-{stamp}"
        for index in range(players)
    ]
    users = User.objects.bulk_create([User(username=name) for name in names])
    users = list(User.objects.filter(username__in=names).order_by("pk"))
    Player.objects.bulk_create(
        [
            Player(
                tournament=tournament,
                user=user,
                score=rng.randrange(0, 60),
                wins=rng.randrange(0, 20),
                games=rng.randrange(20, 40),
                streak=rng.randrange(0, 4),
            )
            for user in users
        ]
    )
    return tournament


def one_game(
    tournament: Tournament, players: list[Player], rng: random.Random, announced: list[dict[str, object]]
) -> Callable[[], None]:
    """A finished game of two of ``players`` and its standings update, to time."""
    a, b = rng.sample(players, 2)
    table = Table.objects.create(kind=Table.Kind.PRIVATE, status=Table.Status.FINISHED)
    game_row = TournamentGame.objects.create(tournament=tournament, table=table)
    seats = [GameSeat(game=game_row, player=a, number=0), GameSeat(game=game_row, player=b, number=1)]
    outcome = rng.choice(["win", "draw", "loss"])
    other = {"win": "loss", "loss": "win", "draw": "draw"}[outcome]

    def update() -> None:
        # The announcement after the commit is recorded here and timed apart.
        services.announce_standings = lambda **kwargs: announced.append(kwargs)  # type: ignore[assignment]
        with transaction.atomic():
            locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
            services.score_seats(
                tournament=locked, game_row=game_row, seats=seats, facts=[arena.Facts(outcome), arena.Facts(other)]
            )

    return update


def standings(games: int) -> None:
    rng = random.Random(11)
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"\nthe standings after a game (database {database}, layer {layer}; ms: median / p95 of {games})")
    print(
        f"{'players':>8} {'update (stored)':>16} {'announce':>15} {'a viewer part':>15}"
        f" {'frame bytes':>12} {'longest names':>14}"
    )
    announce = services.announce_standings
    for players in SIZES:
        tournament = arena_of(players, rng)
        members = list(Player.objects.filter(tournament=tournament))
        updates, announces, viewers = [], [], []
        for _ in range(games):
            announced: list[dict[str, object]] = []
            update = one_game(tournament, members, rng, announced)
            updates.extend(timed(update, 1))
            services.announce_standings = announce  # type: ignore[assignment]
            (call,) = announced
            announces.extend(timed(lambda call=call: announce(**call), 1))
            viewer = rng.choice(members)
            viewers.extend(
                timed(
                    lambda viewer=viewer, tournament_id=tournament.pk: selectors.viewer_part(
                        tournament_id, viewer.user_id, streak_after=arena.STREAK_AFTER
                    ),
                    1,
                )
            )
        middle = selectors.ranked_players(tournament)[players // 2]
        frame = selectors.standings_frame(tournament, middle.user_id, streak_after=arena.STREAK_AFTER)
        size = len(json.dumps(frame).encode())
        longest = arena_of(players, rng, long_names=True)
        middle = selectors.ranked_players(longest)[players // 2]
        long_frame = selectors.standings_frame(longest, middle.user_id, streak_after=arena.STREAK_AFTER)
        long_size = len(json.dumps(long_frame).encode())
        p95 = lambda values: sorted(values)[int(0.95 * (len(values) - 1))]  # noqa: E731
        print(
            f"{players:>8} {statistics.median(updates):7.2f} / {p95(updates):5.2f}"
            f" {statistics.median(announces):6.2f} / {p95(announces):5.2f}"
            f" {statistics.median(viewers):6.2f} / {p95(viewers):5.2f} {size:>12} {long_size:>14}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    if os.environ.get("DATABASE_URL") and not os.environ.get("BENCH_MIGRATE"):
        print("DATABASE_URL is set: migrate it first (or set BENCH_MIGRATE=1)")
    if not os.environ.get("DATABASE_URL") or os.environ.get("BENCH_MIGRATE"):
        call_command("migrate", verbosity=0)
    before = machine.cpu_times()
    print(f"yardstick at the start: probe {machine.probe_ms()} ms")
    pairing()
    standings(args.games)
    print(
        f"\nyardstick at the end: probe {machine.probe_ms()} ms,"
        f" steal {machine.steal_pct(before, machine.cpu_times())} % of the CPU over the run"
    )


if __name__ == "__main__":
    main()
