"""The rules guide: one page, every number read from the engine."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.views.decorators.gzip import gzip_page

from games.engine import Tile, commit_seed
from games.fairplay.fairness import VERIFY_COMMAND
from rules_guide import facts
from rules_guide.examples import examples

# (anchor, title) of every section, in page order: the table of contents.
SECTIONS = (
    ("set", _("The set")),
    ("aim", _("The aim of the game")),
    ("variants", _("The variants at a glance")),
    ("setup", _("Set-up and dealing")),
    ("opening", _("Who opens")),
    ("matching", _("Matching tiles: where a tile may go")),
    ("must-play", _("You must play if you can")),
    ("drawing", _("Drawing and passing")),
    ("pass-check", _("The server checks every pass")),
    ("domino", _("“Domino!”")),
    ("blocked", _("Blocked rounds and ties")),
    ("closed-board", _("The closed board")),
    ("scoring", _("Scoring")),
    ("pairs", _("Playing in pairs")),
    ("game-length", _("Game length")),
    ("agreed-draw", _("Agreed draw")),
    ("variant-rules", _("The variants one by one")),
    ("computer", _("The computer opponents")),
    ("ranked", _("Ranked play: modes, timers and leaving a game")),
    ("rooms", _("Rooms: stakes, payouts and levels")),
    ("tournaments", _("Tournaments: the arena")),
    ("strategy", _("Strategy tips")),
    ("glossary", _("Glossary")),
    ("faq", _("Questions and answers")),
)

# A seed shown in the FAQ next to its published fingerprint.
EXAMPLE_SEED = "4185296307"


# Examples drawn in full in the general sections; the variants' sections link to them.
SHOWN_ABOVE = ("blocked", "closed-board", "pairs-domino", "pairs-blocked")


def guide_context() -> dict[str, Any]:
    """Everything the guide shows, read from the engine, the AI levels and the ranked modes."""
    example_tile = Tile(6, 4)
    worked = examples()
    derived = facts.guide_facts()
    variants = facts.variants()
    variant_sections = [
        {
            "variant": variant,
            "examples": [(w, w.key in SHOWN_ABOVE) for w in worked.by_variant.get(variant.preset, ())],
            "ranked": [row for row in derived["ranked_modes"] if row.variant.preset == variant.preset],
        }
        for variant in variants
    ]
    return {
        "sections": SECTIONS,
        "titles": dict(SECTIONS),
        "set": facts.set_facts(),
        "example_tile": example_tile,
        "variants": variants,
        "variant_names": {variant.preset: variant.name for variant in variants},
        "variant_sections": variant_sections,
        "examples": worked,
        "targets": facts.all_targets(),
        "example_seed": EXAMPLE_SEED,
        "example_commitment": commit_seed(EXAMPLE_SEED),
        "verify_command": VERIFY_COMMAND,
        "room": facts.room_facts(),
        "arena": facts.tournament_facts(),
        **derived,
    }


@lru_cache(maxsize=8)
def guide_body(language: str) -> str:
    """The guide's content in one language. It depends only on the code (engine,
    presets, modes, catalogues), so each process renders it once per language."""
    with translation.override(language):
        return str(render_to_string("rules_guide/_body.html", guide_context()))


@gzip_page
def guide(request: HttpRequest) -> HttpResponse:
    body = mark_safe(guide_body(translation.get_language()))  # noqa: S308 - our own rendered template
    return render(request, "rules_guide/guide.html", {"body": body})
