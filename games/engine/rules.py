"""The rules object, the five named presets, and what each preset lets a table choose.

Everything that differs between the reference sites is one field of ``Rules``
(docs/rules-engine.md). A preset fixes the rule options; a table then picks the
number of players, pairs or not, and the target among the values its preset
allows (``PRESET_OPTIONS``), through ``rules_for``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

__all__ = [
    "BLOCKED_TIES",
    "NEXT_OPENERS",
    "PRESETS",
    "PRESET_OPTIONS",
    "TEAM_SCORINGS",
    "PresetOptions",
    "Rules",
    "rules_for",
]

NextOpener = Literal["next", "winner"]
BlockedTie = Literal["opener", "nobody", "draw"]
TeamScoring = Literal["all_others", "opponents"]

NEXT_OPENERS: tuple[str, ...] = ("next", "winner")
BLOCKED_TIES: tuple[str, ...] = ("opener", "nobody", "draw")
TEAM_SCORINGS: tuple[str, ...] = ("all_others", "opponents")


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's rules. Defaults are the reference rules ("classic-draw").

    - ``draw``: True = boneyard game (draw until a tile fits, pass only when the
      boneyard is empty); False = block game (pass; undealt tiles never used).
    - ``players``: 2, 3 or 4, seated in turn order 0, 1, 2, 3.
    - ``teams``: 4 players in two pairs, seats 0+2 (team 0) and 1+3 (team 1).
    - ``hand_size``: tiles dealt to each player; None = automatic: 5 in the
      draw game at 3-4 players, else 7 (see ``deal_size``).
    - ``target``: points that win the game; 0 = a single round.
    - ``redeal_five_doubles``: a dealt hand with more than four doubles is redealt.
    - ``next_opener``: who opens rounds after the first ("next" = the seat after
      the previous opener, "winner" = the previous round's winner).
    - ``blocked_tie``: a blocked round whose lightest hands tie: "opener" = the
      opener or the tied seat nearest after them wins, "nobody" = nobody
      scores, "draw" = the round (and a single-round game) is drawn.
    - ``closed_board``: the round ends as blocked as soon as both ends show one
      number whose seven tiles are all on the table.
    - ``team_scoring``: the winning pair scores "all_others" (every other hand,
      partner included) or "opponents" (the two opposing hands).
    """

    draw: bool = True
    players: int = 2
    teams: bool = False
    hand_size: int | None = 7
    target: int = 100
    redeal_five_doubles: bool = True
    next_opener: NextOpener = "next"
    blocked_tie: BlockedTie = "opener"
    closed_board: bool = True
    team_scoring: TeamScoring = "all_others"

    def __post_init__(self) -> None:
        for name in ("draw", "teams", "redeal_five_doubles", "closed_board"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False")
        if not _is_int(self.players) or self.players not in (2, 3, 4):
            raise ValueError("players must be 2, 3 or 4")
        if self.teams and self.players != 4:
            raise ValueError("teams (pairs) need exactly 4 players")
        if self.hand_size is not None:
            if not _is_int(self.hand_size) or self.hand_size < 1:
                raise ValueError("hand_size must be a positive integer or None")
            if self.hand_size * self.players > 28:
                raise ValueError(f"{self.players} hands of {self.hand_size} tiles need more than 28 tiles")
        if not _is_int(self.target) or self.target < 0:
            raise ValueError("target must be an integer >= 0 (0 = a single round)")
        if self.next_opener not in NEXT_OPENERS:
            raise ValueError(f"next_opener must be one of {NEXT_OPENERS}")
        if self.blocked_tie not in BLOCKED_TIES:
            raise ValueError(f"blocked_tie must be one of {BLOCKED_TIES}")
        if self.team_scoring not in TEAM_SCORINGS:
            raise ValueError(f"team_scoring must be one of {TEAM_SCORINGS}")

    @property
    def deal_size(self) -> int:
        """Tiles dealt to each player (``hand_size`` with None resolved)."""
        if self.hand_size is not None:
            return self.hand_size
        return 5 if self.draw and self.players >= 3 else 7

    @property
    def sides(self) -> int:
        """How many scores the game keeps: 2 with pairs, else one per player."""
        return 2 if self.teams else self.players

    @property
    def single_round(self) -> bool:
        return self.target == 0

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: a dict of the fields."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from ``to_dict`` output; unknown keys are refused, missing ones take defaults."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rules fields: {sorted(unknown)}")
        return cls(**data)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class PresetOptions:
    """What a table may choose within a preset (data for forms and the rules guide).

    ``rules`` is the preset's default Rules; ``players``, ``teams`` and
    ``targets`` list the allowed values (pairs only ever at 4 players).
    ``source`` names the reference site (seed number) the preset reproduces.
    """

    name: str
    rules: Rules
    players: tuple[int, ...]
    teams: tuple[bool, ...]
    targets: tuple[int, ...]
    source: str

    def allows(self, *, players: int, teams: bool, target: int) -> bool:
        return (
            players in self.players
            and teams in self.teams
            and target in self.targets
            and (not teams or players == 4)
        )

    def combinations(self) -> tuple[tuple[int, bool], ...]:
        """Every allowed (players, teams) pair, in a stable order."""
        return tuple((p, t) for p in self.players for t in self.teams if not t or p == 4)


_CLASSIC_DRAW = Rules()
PRESET_OPTIONS: dict[str, PresetOptions] = {
    "classic-draw": PresetOptions("classic-draw", _CLASSIC_DRAW, (2, 3, 4), (False,), (100, 50), "000"),
    "classic-block": PresetOptions(
        "classic-block", replace(_CLASSIC_DRAW, draw=False), (2, 3, 4), (False,), (100, 50), "000"
    ),
    "arena": PresetOptions(
        "arena",
        Rules(draw=True, blocked_tie="opener", team_scoring="all_others"),
        (2, 3, 4),
        (False, True),
        (100, 50, 0),
        "001",
    ),
    "quick": PresetOptions(
        "quick",
        Rules(draw=True, hand_size=None, next_opener="winner", blocked_tie="nobody"),
        (2, 3, 4),
        (False,),
        (100, 0),
        "003",
    ),
    "duel-block": PresetOptions(
        "duel-block",
        Rules(draw=False, players=2, blocked_tie="draw", target=0),
        (2,),
        (False,),
        (0, 50, 100),
        "004",
    ),
}
"""Per preset: its default Rules and the players / pairs / targets a table may pick."""

PRESETS: dict[str, Rules] = {name: options.rules for name, options in PRESET_OPTIONS.items()}
"""Per preset: its default Rules (two players, the preset's default target)."""


def rules_for(
    preset: str,
    *,
    players: int | None = None,
    teams: bool | None = None,
    target: int | None = None,
) -> Rules:
    """The Rules of ``preset`` with a table's choices, validated against the preset.

    Omitted choices keep the preset's default; ``teams=True`` alone implies 4
    players. Raises ValueError for an unknown preset or a choice it does not allow.
    """
    try:
        options = PRESET_OPTIONS[preset]
    except KeyError:
        raise ValueError(f"unknown preset {preset!r}; known: {sorted(PRESET_OPTIONS)}") from None
    base = options.rules
    teams_value = base.teams if teams is None else bool(teams)
    if players is None:
        players = 4 if teams_value else base.players
    target_value = base.target if target is None else target
    if not options.allows(players=players, teams=teams_value, target=target_value):
        raise ValueError(
            f"preset {preset!r} allows players {options.players}, pairs {options.teams} "
            f"(pairs at 4 players only), targets {options.targets}; "
            f"got players={players}, teams={teams_value}, target={target_value}"
        )
    return replace(base, players=players, teams=teams_value, target=target_value)
