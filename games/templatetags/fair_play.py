"""``{% fair_play_panel game %}``: the fair-play part of a finished game's
replay page (published seed, replay.json, the verify command, the review)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from games.coach import review_page
from games.fairplay import fairness, signing
from games.models import Game

register = template.Library()


@register.inclusion_tag("games/_fair_play.html", takes_context=True)
def fair_play_panel(context: template.Context, game: Game) -> dict[str, Any]:
    table_id = game.table_id
    filename = fairness.replay_filename(game.table)
    return {
        **review_page.panel_context(game),
        "request": context.get("request"),
        "published": fairness.is_published(game),
        "replay_url": reverse("fair_play:replay_json", args=[table_id]),
        "download_url": reverse("fair_play:replay_json", args=[table_id]) + "?download=1",
        "review_url": reverse("fair_play:review", args=[table_id]),
        "export_url": reverse("fair_play:export", args=[table_id]),
        "export_json_url": reverse("fair_play:export_json", args=[table_id]),
        "filename": filename,
        "command": fairness.verify_command(game.table),
        "command_computer": f"{fairness.VERIFY_COMMAND} --computer {filename}",
        "public_key": signing.public_key_hex(),
        "key_url": reverse("fair_play:signing_key"),
        "chain_head": game.chain,
    }
