"""Every number and rule option the guide shows, read from the engine.

Nothing here is retyped from the specification: the set comes from
``games.engine.tiles``, the variants from ``PRESET_OPTIONS`` / ``PRESETS``,
hand sizes from ``Rules.deal_size`` of ``rules_for(...)``. The templates only
format these values, so the guide cannot drift from what the server enforces.
Each value keeps its raw form (``value``, for the tests and ``data-value``
attributes) next to the words shown (``label``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import timedelta
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from games.ai import LEVELS
from games.engine.rules import PRESET_OPTIONS, PRESETS, PresetOptions, Rules, rules_for
from games.engine.tiles import TILES
from games.live import clock
from games.play.modes import RANKED_MODES
from games.play.variants import VARIANT_NAMES, VARIANT_SUMMARIES
from games.verifier import arena, duplicate
from lobby import rooms
from tournaments import duplicate as tournament_duplicate
from tournaments import services as tournament_services

# The order the variants appear in: the presets' own order.
NEXT_OPENER_LABELS: dict[str, Promise] = {
    "next": _("the player after the previous round's opener, with any tile"),
    "winner": _(
        "the winner of the previous round, with any tile (after a round nobody won: "
        "the player after the previous round's opener)"
    ),
}

BLOCKED_TIE_LABELS: dict[str, Promise] = {
    "opener": _(
        "the round's opener wins if among the tied players, otherwise the tied player "
        "who comes first after the opener in turn order"
    ),
    "nobody": _("nobody scores; the next round is dealt"),
    "draw": _("the round is a draw (in a one-round game, so is the game)"),
}

TEAM_SCORING_LABELS: dict[str, Promise] = {
    "all_others": _("the pips of all three other hands, the partner's included"),
    "opponents": _("the pips of the two opponents' hands only"),
}

DRAW_LABELS: dict[bool, Promise] = {
    True: _("Draw game: a boneyard to draw from"),
    False: _("Block game: no drawing, you pass"),
}

YES_NO: dict[bool, Promise] = {
    True: pgettext_lazy("rule option", "Yes"),
    False: pgettext_lazy("rule option", "No"),
}


@dataclass(frozen=True)
class Fact:
    """One row of a variant table: a rule, its raw value and the words shown."""

    preset: str
    key: str
    name: Promise
    value: str
    label: Any
    anchor: str


@dataclass(frozen=True)
class Deal:
    """What a table at ``players`` (``teams``) gets: tiles per hand, the rest."""

    players: int
    teams: bool
    hand: int
    rest: int
    draw: bool

    @property
    def key(self) -> str:
        return "pairs" if self.teams else str(self.players)


@dataclass(frozen=True)
class Variant:
    """A preset as the guide shows it."""

    preset: str
    name: Promise | str
    summary: Promise | str
    rules: Rules
    options: PresetOptions
    facts: tuple[Fact, ...]
    deals: tuple[Deal, ...]

    @property
    def anchor(self) -> str:
        return f"variant-{self.preset}"

    @property
    def allows_pairs(self) -> bool:
        return True in self.options.teams

    @property
    def multi_round_targets(self) -> tuple[int, ...]:
        return tuple(t for t in self.options.targets if t)


def number_list(numbers: tuple[int, ...]) -> str:
    """ "2, 3 or 4" in the active language."""
    words = [number_format(n) for n in numbers]
    if len(words) == 1:
        return str(words[0])
    return str(format_lazy(_("{list} or {last}"), list=", ".join(words[:-1]), last=words[-1]))


def target_label(target: int) -> str:
    if target == 0:
        return str(_("a single round"))
    text: str = ngettext("first to %(n)s point", "first to %(n)s points", target)
    return text % {"n": number_format(target)}


def targets_label(targets: tuple[int, ...], default: int) -> str:
    """The game lengths a preset allows, default first."""
    ordered = (default, *[t for t in targets if t != default])
    words = [target_label(t) for t in ordered]
    text = (
        words[0]
        if len(words) == 1
        else str(format_lazy(_("{list} or {last}"), list=", ".join(words[:-1]), last=words[-1]))
    )
    return text[:1].upper() + text[1:]


def players_label(options: PresetOptions) -> str:
    players = number_list(options.players)
    pair_counts = tuple(p for p, teams in options.combinations() if teams)
    if pair_counts:
        return str(
            format_lazy(
                _("{players}; at {pairs}, also two pairs of partners"),
                players=players,
                pairs=number_list(pair_counts),
            )
        )
    return players


def deals_for(options: PresetOptions) -> tuple[Deal, ...]:
    """Tiles per hand and the rest, for every player count (and pairs) the preset allows."""
    deals = []
    for players, teams in options.combinations():
        rules = rules_for(options.name, players=players, teams=teams)
        hand = rules.deal_size
        deals.append(Deal(players, teams, hand, len(TILES) - hand * players, rules.draw))
    return tuple(deals)


def deal_sizes_label(deals: tuple[Deal, ...]) -> str:
    """ "7 tiles each at 2 players; 5 at 3 or 4" style summary."""
    by_size: dict[int, list[int]] = {}
    for deal in deals:
        if not deal.teams:
            by_size.setdefault(deal.hand, []).append(deal.players)
    if len(by_size) == 1:
        (size,) = by_size
        each: str = ngettext("%(n)s tile each", "%(n)s tiles each", size)
        return each % {"n": size}
    parts = []
    for size, players in by_size.items():
        parts.append(
            ngettext(
                "%(n)s tiles each at %(players)s player",
                "%(n)s tiles each at %(players)s players",
                players[-1],
            )
            % {"n": size, "players": number_list(tuple(players))}
        )
    # Translators: separates the parts of "7 tiles each at 2 players; 5 tiles each at 3 or 4 players".
    separator: str = pgettext("list of deals", "; ")
    return separator.join(parts)


def _fact(preset: str, key: str, name: Promise, value: object, label: Any, anchor: str) -> Fact:
    raw = value if isinstance(value, str) else _raw(value)
    return Fact(preset, key, name, raw, label, anchor)


def _raw(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(_raw(v) for v in value)
    return str(value)


def variant_facts(options: PresetOptions, deals: tuple[Deal, ...]) -> tuple[Fact, ...]:
    rules = options.rules
    rows = [
        _fact(options.name, "draw", _("Drawing"), rules.draw, DRAW_LABELS[rules.draw], "drawing"),
        _fact(options.name, "players", _("Players"), options.players, players_label(options), "setup"),
        _fact(
            options.name,
            "teams",
            _("Pairs of partners"),
            options.teams,
            YES_NO[True in options.teams],
            "pairs",
        ),
        _fact(
            options.name,
            "hand_size",
            _("Tiles per hand"),
            ",".join(f"{d.key}:{d.hand}" for d in deals),
            deal_sizes_label(deals),
            "setup",
        ),
        _fact(
            options.name,
            "targets",
            _("Game length"),
            options.targets,
            targets_label(options.targets, rules.target),
            "game-length",
        ),
        _fact(
            options.name,
            "next_opener",
            _("Opens later rounds"),
            rules.next_opener,
            NEXT_OPENER_LABELS[rules.next_opener],
            "opening",
        ),
        _fact(
            options.name,
            "blocked_tie",
            _("Tie in a blocked round"),
            rules.blocked_tie,
            BLOCKED_TIE_LABELS[rules.blocked_tie],
            "blocked",
        ),
        _fact(
            options.name,
            "closed_board",
            _("Closed board ends the round"),
            rules.closed_board,
            YES_NO[rules.closed_board],
            "closed-board",
        ),
        _fact(
            options.name,
            "redeal_five_doubles",
            _("Redeal a hand with five doubles or more"),
            rules.redeal_five_doubles,
            YES_NO[rules.redeal_five_doubles],
            "setup",
        ),
    ]
    if True in options.teams:
        rows.append(
            _fact(
                options.name,
                "team_scoring",
                _("A winning pair scores"),
                rules.team_scoring,
                TEAM_SCORING_LABELS[rules.team_scoring],
                "pairs",
            )
        )
    return tuple(rows)


def variants() -> tuple[Variant, ...]:
    """Every preset, in the engine's order, ready for the templates."""
    result = []
    for name, options in PRESET_OPTIONS.items():
        deals = deals_for(options)
        result.append(
            Variant(
                preset=name,
                name=VARIANT_NAMES.get(name, name),
                summary=VARIANT_SUMMARIES.get(name, ""),
                rules=PRESETS[name],
                options=options,
                facts=variant_facts(options, deals),
                deals=deals,
            )
        )
    return tuple(result)


@dataclass(frozen=True)
class SetFacts:
    tiles: int
    per_number: int
    doubles: int
    total_pips: int
    heaviest: int
    numbers: tuple[int, ...]
    rows: tuple[tuple[tuple[int, int, int], ...], ...]  # per low number: (low, high, pips)


def set_facts() -> SetFacts:
    numbers = tuple(sorted({n for t in TILES for n in (t.low, t.high)}))
    per_number = {n: sum(1 for t in TILES if t.has(n)) for n in numbers}
    if len(set(per_number.values())) != 1:
        raise AssertionError("every number should be on the same count of tiles")
    rows = tuple(tuple((t.low, t.high, t.pips) for t in TILES if t.low == low) for low in numbers)
    return SetFacts(
        tiles=len(TILES),
        per_number=next(iter(per_number.values())),
        doubles=sum(1 for t in TILES if t.is_double),
        total_pips=sum(t.pips for t in TILES),
        heaviest=max(t.pips for t in TILES),
        numbers=numbers,
        rows=rows,
    )


def all_targets() -> tuple[int, ...]:
    """Every game length some preset offers, longest first (0 = one round last)."""
    targets = {t for options in PRESET_OPTIONS.values() for t in options.targets}
    return tuple(sorted(targets, key=lambda t: (t == 0, -t)))


def presets_where(predicate: Callable[[PresetOptions], bool]) -> tuple[str, ...]:
    return tuple(name for name, options in PRESET_OPTIONS.items() if predicate(options))


RULES_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Rules))


LEVEL_NAMES: dict[str, Promise] = {
    "easy": pgettext_lazy("computer level", "Easy"),
    "medium": pgettext_lazy("computer level", "Medium"),
    "hard": pgettext_lazy("computer level", "Hard"),
}

LEVEL_DESCRIPTIONS: dict[str, Promise] = {
    "easy": _(
        "Lays any tile that fits, picked at random. It never plans ahead: a gentle first "
        "opponent while you learn the rules."
    ),
    "medium": _(
        "Plays by rules of thumb, like a careful club player: it sheds heavy tiles and "
        "doubles early, keeps the numbers it will be able to follow later, and leaves ends "
        "on numbers an opponent has shown they lack, to block them. In pairs it keeps open "
        "the numbers its partner can follow."
    ),
    "hard": _(
        "Thinks ahead. Before each choice it imagines the tiles it cannot see, dealt many "
        "different ways but always consistent with everything it has seen, plays each of its "
        "possible moves to the end of the round in every one of those deals, and keeps the move "
        "that does best. Near the end of a round, when few tiles are left, it works the best "
        "move out exactly."
    ),
}


@dataclass(frozen=True)
class Level:
    key: str
    name: Promise | str
    description: Promise | str


@dataclass(frozen=True)
class RankedRow:
    """A ranked mode as the guide shows it, its rules read from the engine."""

    key: str
    label: Any
    variant: Variant
    players: int
    teams: bool
    target: int
    hand: int
    rest: int
    draw: bool

    @property
    def deal(self) -> Deal:
        return Deal(self.players, self.teams, self.hand, self.rest, self.draw)

    @property
    def target_label(self) -> str:
        text = target_label(self.target)
        return text[:1].upper() + text[1:]


def levels() -> tuple[Level, ...]:
    """The computer levels the AI offers, with what each does."""
    return tuple(Level(key, LEVEL_NAMES.get(key, key), LEVEL_DESCRIPTIONS.get(key, "")) for key in LEVELS)


def ranked_rows(all_variants: tuple[Variant, ...]) -> tuple[RankedRow, ...]:
    """Every ranked mode (``games.play.modes.RANKED_MODES``) with its engine rules."""
    by_preset = {variant.preset: variant for variant in all_variants}
    rows = []
    for mode in RANKED_MODES.values():
        rules = mode.rules
        rows.append(
            RankedRow(
                key=mode.key,
                label=mode.label,
                variant=by_preset[mode.preset],
                players=rules.players,
                teams=rules.teams,
                target=rules.target,
                hand=rules.deal_size,
                rest=len(TILES) - rules.deal_size * rules.players,
                draw=rules.draw,
            )
        )
    return tuple(rows)


def _grouped(
    all_variants: tuple[Variant, ...], attribute: str, labels: dict[Any, Promise]
) -> list[dict[str, Any]]:
    """Variants grouped by one rule option, in the order of ``labels``."""
    groups = []
    for value, label in labels.items():
        members = [v for v in all_variants if getattr(v.rules, attribute) == value]
        if members:
            groups.append({"value": _raw(value), "label": label, "variants": members})
    return groups


def guide_facts() -> dict[str, Any]:
    """The derived facts the guide's prose needs, all read from the engine."""
    all_variants = variants()
    pair_variants = [v for v in all_variants if v.allows_pairs]
    no_boneyard = [
        (variant, deal)
        for variant in all_variants
        for deal in variant.deals
        if variant.rules.draw and deal.rest == 0
    ]
    ranked = ranked_rows(all_variants)
    return {
        "overview": overview_rows(all_variants),
        "setup_columns": setup_columns(all_variants),
        "setup_rows": setup_rows(all_variants),
        "draw_variants": [v for v in all_variants if v.rules.draw],
        "block_variants": [v for v in all_variants if not v.rules.draw],
        "closed_board_variants": [v for v in all_variants if v.rules.closed_board],
        "open_board_variants": [v for v in all_variants if not v.rules.closed_board],
        "redeal_variants": [v for v in all_variants if v.rules.redeal_five_doubles],
        "pair_variants": pair_variants,
        "team_scoring_groups": _grouped(tuple(pair_variants), "team_scoring", TEAM_SCORING_LABELS),
        "next_opener_groups": _grouped(all_variants, "next_opener", NEXT_OPENER_LABELS),
        "blocked_tie_groups": _grouped(all_variants, "blocked_tie", BLOCKED_TIE_LABELS),
        "no_boneyard": no_boneyard,
        "player_counts": tuple(sorted({p for v in all_variants for p in v.options.players})),
        "levels": levels(),
        "timers": timers(),
        "ranked_modes": ranked,
    }


def overview_rows(all_variants: tuple[Variant, ...]) -> list[dict[str, Any]]:
    """The at-a-glance table: one row per rule, one cell per variant (None: not applicable)."""
    keys: list[str] = []
    names: dict[str, Any] = {}
    anchors: dict[str, str] = {}
    for variant in all_variants:
        for fact in variant.facts:
            if fact.key not in names:
                keys.append(fact.key)
                names[fact.key] = fact.name
                anchors[fact.key] = fact.anchor
    rows = []
    for key in keys:
        cells = [next((f for f in v.facts if f.key == key), None) for v in all_variants]
        rows.append({"key": key, "name": names[key], "anchor": anchors[key], "cells": cells})
    return rows


def setup_columns(all_variants: tuple[Variant, ...]) -> list[dict[str, Any]]:
    """The dealing table's columns: each player count, then pairs when a variant has them."""
    counts = sorted({deal.players for v in all_variants for deal in v.deals if not deal.teams})
    columns: list[dict[str, Any]] = [
        {
            "key": str(n),
            "label": ngettext("%(n)s player", "%(n)s players", n) % {"n": n},
        }
        for n in counts
    ]
    if any(deal.teams for v in all_variants for deal in v.deals):
        columns.append({"key": "pairs", "label": _("Two pairs")})
    return columns


def setup_rows(all_variants: tuple[Variant, ...]) -> list[dict[str, Any]]:
    columns = setup_columns(all_variants)
    return [
        {
            "variant": v,
            "deals": [next((d for d in v.deals if d.key == column["key"]), None) for column in columns],
        }
        for v in all_variants
    ]


def duration_label(delta: timedelta) -> str:
    """ "30 seconds", "1 minute", "5 minutes", "1 minute 30 seconds"."""
    total = round(delta.total_seconds())
    minutes, seconds = divmod(total, 60)
    parts = []
    if minutes:
        minute_text: str = ngettext("%(n)s minute", "%(n)s minutes", minutes)
        parts.append(minute_text % {"n": minutes})
    if seconds or not minutes:
        second_text: str = ngettext("%(n)s second", "%(n)s seconds", seconds)
        parts.append(second_text % {"n": seconds})
    return " ".join(parts)


def timers() -> dict[str, str]:
    """The clock of tables with several people (``games.live.clock``), as durations."""
    return {
        "turn": duration_label(clock.turn_time()),
        "grace": duration_label(clock.grace_time()),
        "abandon": duration_label(clock.abandon_time()),
        "next_round": duration_label(clock.next_round_time()),
    }


# --- Rooms with stakes (lobby.rooms) ------------------------------------------------


@dataclass(frozen=True)
class RoomPayoutRow:
    room: Any  # lobby.rooms.Room
    places: list[tuple[int, int]]  # (chips paid, net) per place
    fee: int


@dataclass(frozen=True)
class RoomKindTable:
    kind: Any  # lobby.rooms.GameKind
    places: list[int]
    rows: list[RoomPayoutRow]


def room_facts() -> dict[str, Any]:
    """The rooms, their payouts per kind of game, experience and the level
    curve, read from lobby.rooms (the same data the room pages use)."""
    payouts = [
        RoomKindTable(
            kind=kind,
            places=list(range(1, len(kind.payout_percent) + 1)),
            rows=[
                RoomPayoutRow(
                    room=room,
                    places=list(zip(room.payouts(kind.key), room.net(kind.key), strict=True)),
                    fee=room.fee(kind.key),
                )
                for room in rooms.ROOMS.values()
            ],
        )
        for kind in rooms.KINDS.values()
    ]
    most = max(len(kind.xp) for kind in rooms.KINDS.values())
    experience = [
        (kind, [rooms.xp_for(kind.key, place) if place <= len(kind.xp) else None for place in range(1, most + 1)])
        for kind in rooms.KINDS.values()
    ]
    return {
        "rooms": list(rooms.ROOMS.values()),
        "payouts": payouts,
        "experience": experience,
        "places": list(range(1, most + 1)),
        "levels": [(level, rooms.xp_for_level(level)) for level in range(1, 21)],
        "level_step": rooms.LEVEL_STEP,
        "max_level": rooms.MAX_LEVEL,
        "fee_percent": rooms.FEE_PERCENT,
        "newcomer_pair_cap": rooms.NEWCOMER_PAIR_CAP,
        "newcomer_daily_cap": rooms.NEWCOMER_DAILY_CAP,
        "newcomer_days": rooms.NEWCOMER_DAYS,
        "newcomer_level": rooms.NEWCOMER_LEVEL,
        "grant": rooms.STARTING_GRANT,
        "floor": rooms.DAILY_FLOOR,
    }


# --- Tournaments (games/verifier/arena.py, the scoring the site and the verifier use) ---


@dataclass(frozen=True)
class ArenaStep:
    number: int
    outcome: str  # arena.WINNING, DRAWN or LOST
    label: Promise
    berserk: bool
    tiles_laid: int
    on_fire: bool  # the streak doubled this result
    points: int
    total: int


ARENA_OUTCOME_LABELS: dict[str, Promise] = {
    arena.WINNING: _("win"),
    arena.DRAWN: _("draw"),
    arena.LOST: _("loss"),
}

# A worked series of results, scored by arena.Sheet itself.
ARENA_SERIES = (
    arena.Facts(arena.WINNING, tiles_laid=5),
    arena.Facts(arena.WINNING, tiles_laid=4),
    arena.Facts(arena.DRAWN, tiles_laid=6),
    arena.Facts(arena.WINNING, tiles_laid=5),
    arena.Facts(arena.WINNING, tiles_laid=3, berserk=True),
    arena.Facts(arena.WINNING, tiles_laid=6, berserk=True),
    arena.Facts(arena.LOST, tiles_laid=2),
)


def arena_series() -> tuple[ArenaStep, ...]:
    sheet = arena.Sheet(player="", order=0)
    steps = []
    for number, facts in enumerate(ARENA_SERIES, start=1):
        on_fire = sheet.streak >= arena.STREAK_AFTER
        points = sheet.add(facts)
        steps.append(
            ArenaStep(
                number=number,
                outcome=facts.outcome,
                label=ARENA_OUTCOME_LABELS[facts.outcome],
                berserk=facts.berserk,
                tiles_laid=facts.tiles_laid,
                on_fire=on_fire,
                points=points,
                total=sheet.points,
            )
        )
    return tuple(steps)


@dataclass(frozen=True)
class DuplicateExample:
    """One table of the guide's worked duplicate round (the same seat's tiles everywhere)."""

    table: int
    outcome: str
    label: Promise
    margin: int
    matchpoints: int
    top: int
    percent: str


DUPLICATE_EXAMPLE = (
    (arena.WINNING, 30),
    (arena.WINNING, 12),
    (arena.WINNING, 12),
    (arena.LOST, -8),
)
"""Four tables' results from one seat of one duplicate round: (outcome, margin)."""


def duplicate_example() -> tuple[DuplicateExample, ...]:
    results = [
        duplicate.Result(player=str(number), seat=0, outcome=outcome, margin=margin)
        for number, (outcome, margin) in enumerate(DUPLICATE_EXAMPLE, start=1)
    ]
    return tuple(
        DuplicateExample(
            table=number,
            outcome=item.result.outcome,
            label=ARENA_OUTCOME_LABELS[item.result.outcome],
            margin=item.result.margin,
            matchpoints=item.matchpoints,
            top=item.top,
            percent=duplicate.shown(item.percent),
        )
        for number, item in enumerate(duplicate.score_round(results), start=1)
    )


def duplicate_facts() -> dict[str, Any]:
    """Duplicate matchpoints, read from games.verifier.duplicate (the functions
    that score the rounds and check the published standings)."""
    return {
        "beaten": duplicate.BEATEN,
        "tied": duplicate.TIED,
        "alone": duplicate.ALONE_PERCENT,
        "computer_level": tournament_duplicate.COMPUTER_LEVEL,
        "max_rounds": tournament_duplicate.ROUNDS[1],
        "example": duplicate_example(),
    }


def tournament_facts() -> dict[str, Any]:
    """The arena's scoring, streak and berserk, read from games.verifier.arena
    (the functions that score the games and check the published standings)
    and the turn clock (games.live.clock)."""
    return {
        "win": arena.WIN,
        "draw": arena.DRAW,
        "loss": arena.LOSS,
        "win_on_fire": arena.score(arena.Facts(arena.WINNING), arena.STREAK_AFTER)[0],
        "draw_on_fire": arena.score(arena.Facts(arena.DRAWN), arena.STREAK_AFTER)[0],
        "streak_after": arena.STREAK_AFTER,
        "berserk_bonus": arena.BERSERK_BONUS,
        "berserk_tiles": arena.BERSERK_TILES,
        "berserk_percent": arena.BERSERK_TURN_PERCENT,
        "turn": duration_label(clock.turn_time()),
        "berserk_turn": duration_label(clock.turn_time(arena.BERSERK_TURN_PERCENT)),
        "grace": duration_label(tournament_services.grace()),
        "modes": [RANKED_MODES[key] for key in tournament_services.ARENA_MODES],
        "series": arena_series(),
        # The four-player free-for-all arena: points by place.
        "places": list(arena.PLACE_POINTS),
        "four_draw": arena.FOUR_DRAW,
        "first_on_fire": arena.score(
            arena.Facts(arena.WINNING, players=arena.FOUR_PLAYERS, place=1), arena.STREAK_AFTER
        )[0],
        "duplicate": duplicate_facts(),
    }
