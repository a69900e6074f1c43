"""The rooms, their stakes and payouts, the fee and the level curve, as data.

One pure structure (no database) read by the room pages, the settlement of
room games (lobby.chips), the room queue and the rules guide; docs/rooms.md
explains it with the same figures (a test checks that they agree).

Chips are play money: never bought, never cashed out. Every player at a room
table stakes the room's stake when they sit down; at the end of the game the
pot (every stake) is paid out by place as the room's payout table says, and
the house keeps the rest: ``FEE_PERCENT`` of the pot. A drawn game and an
aborted game return every stake, with no fee. Experience counts the rounds
played; the same two members' repeated games count less; what is won from
new accounts is capped (docs/rooms.md).

Payouts are given in percent of the stake per place, the same in every room,
so that every room pays the same way at its own scale; the stakes are
multiples of 20 so that every payout is a whole number of chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.rules import Rules, rules_for

# --- Chips ---------------------------------------------------------------------

STARTING_GRANT = 1000
"""Chips every member receives once, at sign-up."""

DAILY_FLOOR = 200
"""A member whose balance is below this may claim, once per day (UTC), the
chips that bring them back up to it: nobody is ever locked out."""

FEE_PERCENT = 5
"""What the house keeps of the pot of a game played to its end."""

PRESET = "arena"
"""The variant of every room table opened from a room page (the seed's
international rules with a boneyard; docs/rules-engine.md)."""


# --- Kinds of game, lengths ----------------------------------------------------


@dataclass(frozen=True)
class GameKind:
    """A kind of room game: how many players, in pairs or not, and the
    payout per place (percent of the stake, best place first)."""

    key: str
    players: int
    teams: bool
    payout_percent: tuple[int, ...]  # per place, for each player of that place
    xp: tuple[int, ...]  # experience per place, for each round played
    label: Promise

    @property
    def sides(self) -> int:
        return 2 if self.teams else self.players


KINDS: dict[str, GameKind] = {
    kind.key: kind
    for kind in (
        GameKind("duel", 2, False, (190, 0), (20, 6), _("2 players")),
        GameKind("pairs", 4, True, (190, 0), (20, 6), _("Pairs")),
        GameKind("three", 3, False, (210, 75, 0), (24, 12, 6), _("3 players")),
        GameKind("four", 4, False, (250, 110, 20, 0), (28, 16, 10, 6), _("4 players")),
    )
}
"""Kind key -> GameKind. Pairs: both partners of the winning pair take the
first place's payout, both losers the second's."""


@dataclass(frozen=True)
class Length:
    target: int  # 0 = a single round
    label: Promise


LENGTHS: dict[int, Length] = {
    length.target: length
    for length in (
        Length(0, _("single round")),
        Length(50, _("50 points")),
        Length(100, _("100 points")),
    )
}
"""The lengths of a room game (the target). Neither the chips nor the
experience depend on the length chosen: experience counts the rounds played
to their end (games.outcome), so that a long game ended at once by agreement
gives nothing."""

DRAW_XP_PLACE = -1
"""A drawn game gives everyone the experience of the last place."""


# The ranked modes of the lobby socket (docs/protocol.md), as room games: the
# room queue plays each mode's own rules.
MODE_KINDS: dict[str, str] = {
    "duel-block": "duel",
    "duel-draw": "duel",
    "three": "three",
    "four": "four",
    "pairs": "pairs",
}


# --- Rooms ---------------------------------------------------------------------


@dataclass(frozen=True)
class Room:
    slug: str
    name: Promise
    stake: int
    min_level: int

    def payouts(self, kind: str) -> tuple[int, ...]:
        """Chips paid per place of ``kind`` (each player of that place)."""
        return tuple(self.stake * percent // 100 for percent in KINDS[kind].payout_percent)

    def pot(self, kind: str) -> int:
        return self.stake * KINDS[kind].players

    def fee(self, kind: str) -> int:
        """The house's share of a game played to the end without shared places."""
        game_kind = KINDS[kind]
        per_place = self.payouts(kind)
        players_per_place = 2 if game_kind.teams else 1
        return self.pot(kind) - players_per_place * sum(per_place)

    def net(self, kind: str) -> tuple[int, ...]:
        """What each place wins or loses, stake included."""
        return tuple(chips - self.stake for chips in self.payouts(kind))


ROOMS: dict[str, Room] = {
    room.slug: room
    for room in (
        Room("passport", pgettext_lazy("room", "Passport"), 20, 1),
        Room("tourist", pgettext_lazy("room", "Tourist"), 100, 3),
        Room("priority", pgettext_lazy("room", "Priority"), 500, 6),
        Room("business", pgettext_lazy("room", "Business"), 2000, 10),
        Room("luxury", pgettext_lazy("room", "Luxury"), 10000, 15),
    )
}
"""Slug -> Room, from the smallest stake to the largest."""


def room_rules(kind: str, target: int) -> Rules:
    """The rules of a room table opened from a room page."""
    game_kind = KINDS[kind]
    return rules_for(PRESET, players=game_kind.players, teams=game_kind.teams, target=target)


def kind_of(players: int, teams: bool) -> str:
    """The kind key of a table of ``players`` (in pairs or not)."""
    for kind in KINDS.values():
        if kind.players == players and kind.teams == teams:
            return kind.key
    raise ValueError(f"no room game for {players} players (pairs: {teams})")


# --- Experience and levels -----------------------------------------------------

LEVEL_STEP = 25
MAX_LEVEL = 50


def xp_for_level(level: int) -> int:
    """Experience needed to reach ``level``: 25 x (level - 1) x level
    (level 1 from the start, 2 at 50, 3 at 150, 6 at 750, 10 at 2,250, 15
    at 5,250)."""
    if level < 1:
        raise ValueError("levels start at 1")
    return LEVEL_STEP * (level - 1) * level


LEVEL_CURVE: tuple[int, ...] = tuple(xp_for_level(level) for level in range(1, MAX_LEVEL + 1))
"""LEVEL_CURVE[n - 1]: the experience that reaches level n."""


def level_for(xp: int) -> int:
    """The level of a member with ``xp`` experience points."""
    level = 1
    while level < MAX_LEVEL and xp >= LEVEL_CURVE[level]:
        level += 1
    return level


@dataclass(frozen=True)
class Progress:
    level: int
    xp: int
    floor: int  # experience of the current level
    next: int | None  # experience of the next level (None at the top)

    @property
    def percent(self) -> int:
        if self.next is None:
            return 100
        return (self.xp - self.floor) * 100 // (self.next - self.floor)

    @property
    def to_next(self) -> int:
        return 0 if self.next is None else self.next - self.xp


def progress(xp: int) -> Progress:
    level = level_for(xp)
    following = LEVEL_CURVE[level] if level < MAX_LEVEL else None
    return Progress(level=level, xp=xp, floor=LEVEL_CURVE[level - 1], next=following)


def xp_for(kind: str, place: int, rounds: int = 1) -> int:
    """Experience of a player finishing at ``place`` (1 = best; -1: a draw)
    a game of ``rounds`` rounds played to their end."""
    table = KINDS[kind].xp
    return table[place - 1 if place > 0 else len(table) - 1] * rounds


# --- Games that count less -------------------------------------------------------

REPEAT_WINDOW = timedelta(hours=24)
"""The k-th room game of the same two members within this window gives 1/k
of its experience (``repeat_weight``; the ratings count ranked games the same
way, docs/members.md)."""


def repeat_weight(k: int) -> Fraction:
    """1, 1/2, 1/3, ...: the weight of the ``k``-th game (1-based) of a pair."""
    if k < 1:
        raise ValueError("games are counted from 1")
    return Fraction(1, k)


NEWCOMER_DAYS = 7
NEWCOMER_LEVEL = 3
"""An account younger than ``NEWCOMER_DAYS`` days, or below level
``NEWCOMER_LEVEL``, is new: what others win from it is capped."""

NEWCOMER_PAIR_CAP = 100
"""Chips one member may win from one new account in ``NEWCOMER_WINDOW``."""

NEWCOMER_DAILY_CAP = 300
"""Chips one member may win from all new accounts together in ``NEWCOMER_WINDOW``."""

NEWCOMER_WINDOW = timedelta(hours=24)


def is_newcomer(*, joined: datetime, xp: int, now: datetime) -> bool:
    """A new account (docs/rooms.md, "New accounts"): younger than a week, or below level 3."""
    return now - joined < timedelta(days=NEWCOMER_DAYS) or level_for(xp) < NEWCOMER_LEVEL


def shares_of(nets: Sequence[int]) -> dict[tuple[int, int], int]:
    """Who won what from whom in one game: (winner seat, loser seat) ->
    chips. Each winner's gain (a positive net) is taken from the losers in
    proportion to their losses (rounded down, so that the shares never
    exceed what was lost)."""
    lost = sum(-net for net in nets if net < 0)
    shares: dict[tuple[int, int], int] = {}
    if lost == 0:
        return shares
    for winner, gain in enumerate(nets):
        if gain <= 0:
            continue
        for loser, loss in enumerate(nets):
            if loss < 0:
                shares[(winner, loser)] = gain * -loss // lost
    return shares


# --- Settlement (pure) ---------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    """What a finished room game pays: chips and experience per seat, and the
    house's fee."""

    chips: tuple[int, ...]  # per seat, stake included (0 for a loser)
    xp: tuple[int, ...]
    places: tuple[int, ...]  # per seat, 1 = best; all 1 for a draw
    fee: int
    drawn: bool


def settle(room: Room, kind: str, places: Sequence[int], rounds: int = 1) -> Settlement:
    """Share the pot of a game by the sides' ``places`` (1 = best, equal
    places shared; per side: seat, or pair with pairs). Players of tied
    places share those places' payouts equally; a chip that does not divide
    goes to the house. A game where every side shares the first place is a
    draw: every stake returns, no fee. Experience: each place's points for
    each of the ``rounds`` played to their end."""
    game_kind = KINDS[kind]
    if len(places) != game_kind.sides:
        raise ValueError(f"{game_kind.sides} places expected, got {len(places)}")
    seats = game_kind.players
    side_of = [seat % 2 if game_kind.teams else seat for seat in range(seats)]
    if all(place == 1 for place in places):
        draw_xp = xp_for(kind, DRAW_XP_PLACE, rounds)
        return Settlement(
            chips=(room.stake,) * seats, xp=(draw_xp,) * seats, places=(1,) * seats, fee=0, drawn=True
        )
    per_place = room.payouts(kind)
    side_chips: dict[int, int] = {}
    side_xp: dict[int, int] = {}
    for side, place in enumerate(places):
        tied = [other for other, other_place in enumerate(places) if other_place == place]
        shares = range(place - 1, place - 1 + len(tied))
        side_chips[side] = sum(per_place[index] for index in shares) // len(tied)
        side_xp[side] = max(xp_for(kind, index + 1, rounds) for index in shares)
    chips = tuple(side_chips[side_of[seat]] for seat in range(seats))
    return Settlement(
        chips=chips,
        xp=tuple(side_xp[side_of[seat]] for seat in range(seats)),
        places=tuple(places[side_of[seat]] for seat in range(seats)),
        fee=room.pot(kind) - sum(chips),
        drawn=False,
    )
