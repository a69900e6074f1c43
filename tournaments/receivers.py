"""Receivers of the tournaments: the periodic tick runs their job
(``games.signals.periodic_tick``: the schedule, the starts, the waves, the
ends), the home page shows the next tournament (``home_page_panels``), the profile
a member's history and trophies (``accounts.hooks.profile_panels``), a finished game is scored and its
players paired again (``games.signals.game_finished``, after the commit), a
member closing their account is withdrawn from the tournaments not over
(``accounts.hooks.account_closing``), and the lobby's ``matched`` frame of a
tournament's table names the tournament (``lobby.hooks.matched_frame_parts``)
and is resent on the lobby socket's connect (``lobby.hooks.resumable_table``)."""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.hooks import account_closing, export_parts, profile_panels
from games.models import Game, Table
from games.play.modes import RANKED_MODES
from games.signals import game_finished, home_page_panels, periodic_tick, table_page_panels
from lobby.hooks import matched_frame_parts, resumable_table
from tournaments import selectors, services
from tournaments.models import Player, Tournament, TournamentGame

logger = logging.getLogger(__name__)


@receiver(periodic_tick, dispatch_uid="tournaments.tick")
def tournaments_tick(sender: Any, **_kwargs: Any) -> dict[str, dict[str, int]]:
    return {"tournaments": services.tick()}


@receiver(home_page_panels, dispatch_uid="tournaments.next")
def next_tournament_panel(sender: Any, request: HttpRequest, **_kwargs: Any) -> str:
    """The home page's card of the next public tournament (none: nothing)."""
    tournament = selectors.next_tournament()
    if tournament is None:
        return ""
    context = {
        "t": tournament,
        "mode": RANKED_MODES.get(tournament.mode),
        "seconds_left": selectors.seconds_left(tournament),
    }
    return render_to_string("tournaments/_home_panel.html", context, request=request)


@receiver(matched_frame_parts, dispatch_uid="tournaments.matched")
def matched_tournament(sender: Any, table: Table, **_kwargs: Any) -> dict[str, int]:
    """A tournament's table in a lobby ``matched`` frame (the one resent on the
    socket's connect) names its tournament, as the frames of the pairing do."""
    tournament_id = TournamentGame.objects.filter(table_id=table.pk).values_list("tournament_id", flat=True).first()
    return {} if tournament_id is None else {"tournament": tournament_id}


@receiver(resumable_table, dispatch_uid="tournaments.resume")
def tournament_table_to_resume(sender: Any, user_id: int, **_kwargs: Any) -> Table | None:
    """The member's tournament table still being played, which the lobby
    resends on its socket's connect like a ranked table: an unrated
    tournament's table is a private table, which the lobby itself leaves out.
    Its end is sure: the turn clocks, or the close of its duplicate round."""
    return (
        Table.objects.filter(seats__user_id=user_id, tournament_game__isnull=False, status__in=selectors.LIVE)
        .order_by("-created_at")
        .first()
    )


@receiver(table_page_panels, dispatch_uid="tournaments.table")
def table_tournament_panel(sender: Any, request: HttpRequest, table: Table, **_kwargs: Any) -> str:
    """At a tournament's table: its link, and for a player still in it (not
    withdrawn) the script that follows them to their next table when the
    tournament pairs them again (the lobby socket's ``matched`` frame)."""
    game = TournamentGame.objects.filter(table=table).select_related("tournament").first()
    if game is None:
        return ""
    tournament = game.tournament
    follow = (
        request.user.is_authenticated
        and tournament.status != tournament.Status.FINISHED
        and Player.objects.filter(tournament=tournament, user_id=request.user.pk, withdrawn=False).exists()
    )
    url = reverse("tournaments:detail", args=[tournament.pk])
    if tournament.private and follow:  # its players have its link; a spectator does not get it here
        url += f"?key={tournament.token}"
    context = {"tournament": tournament, "follow": follow, "url": url}
    return render_to_string("tournaments/_table_panel.html", context, request=request)


@receiver(profile_panels, dispatch_uid="tournaments.profile")
def profile_tournaments(sender: Any, request: HttpRequest, member: Any, **_kwargs: Any) -> str:
    """The member's trophies (podium places) and tournament history, on their
    profile (nothing before a first tournament)."""
    viewer_id = request.user.pk if request.user.is_authenticated else None
    entries = selectors.history(member.pk, viewer_id=viewer_id)
    if not entries:
        return ""
    context = {
        "member": member,
        "rows": [(entry, RANKED_MODES.get(entry.tournament.mode)) for entry in entries],
        "trophies": selectors.trophies(member.pk, viewer_id=viewer_id),
    }
    return render_to_string("tournaments/_profile.html", context, request=request)


@receiver(game_finished, dispatch_uid="tournaments.score")
def score_finished_game(sender: Any, game: Game, table: Table, **_kwargs: Any) -> None:
    try:
        services.after_game(table_id=table.pk)
    except Exception:
        # The periodic tick scores what a lost signal left (services.score_missed).
        logger.exception("could not score the tournament game of table %d", table.pk)


@receiver(export_parts, dispatch_uid="tournaments.export")
def export_tournament_data(sender: Any, member: Any, **_kwargs: Any) -> dict[str, Any]:
    """Every tournament the member joined, with their score, games and rank;
    every one they created."""
    created = Tournament.objects.filter(created_by_id=member.pk).order_by("created_at", "pk")
    return {
        "tournaments": selectors.member_entries(member.pk),
        "tournaments_created": [
            {
                "tournament": tournament.pk,
                "format": tournament.format,
                "mode": tournament.mode,
                "starts_at": tournament.starts_at.isoformat(),
                "status": tournament.status,
                "private": tournament.private,
            }
            for tournament in created
        ],
    }


@receiver(account_closing, dispatch_uid="tournaments.account_closing")
def withdraw_closing_member(sender: Any, member: Any, **_kwargs: Any) -> list[str]:
    # Inside the closing's transaction: undone if the closing is refused.
    services.withdraw_everywhere(user_id=member.pk)
    return []
