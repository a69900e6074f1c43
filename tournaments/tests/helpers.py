"""Helpers of the tournaments' tests: a tournament's tables, and rounds whose
deals do not end before anyone moves."""

from __future__ import annotations

import hashlib
import itertools

from games.engine import commit_seed, new_game
from games.models import Table
from games.play.modes import RANKED_MODES
from tournaments import selectors
from tournaments.models import Round, Tournament, TournamentGame


def live_tables(tournament: Tournament) -> list[Table]:
    """The tournament's tables still waiting or playing, oldest first."""
    return list(
        Table.objects.filter(tournament_game__tournament=tournament, status__in=selectors.LIVE).order_by("pk")
    )


def finished_count(tournament: Tournament) -> int:
    """The tournament's games over (those the test played, and any deal that ended at
    its automatic opening: about one duel-block deal in 110 blocks before anyone moves)."""
    return TournamentGame.objects.filter(tournament=tournament, table__status=Table.Status.FINISHED).count()


def rounds_played_by_people(tournament: Tournament) -> None:
    """Draw again, from the round's id, the seed (and commitment) of each round of a
    duplicate tournament whose deal would be over at its automatic opening (about
    one duel-block deal in 140 blocks before anyone moves, and every table of the
    round is then over, the round closed and its seed revealed at once). For the
    tests that watch a round while it is played: with a seed drawn at random they
    would fail about once in 140 runs. Deterministic: the same round id, the same seed."""
    rules = RANKED_MODES[tournament.mode].rules
    for round in Round.objects.filter(tournament=tournament, started_at__isnull=True):
        if not new_game(rules, round.seed).game_over:
            continue
        for attempt in itertools.count():
            seed = hashlib.sha256(f"test round {round.pk} {attempt}".encode()).hexdigest()[:32]
            if not new_game(rules, seed).game_over:
                break
        Round.objects.filter(pk=round.pk).update(seed=seed, commitment=commit_seed(seed))
