"""Worked examples, computed by the real engine on hand-built deals.

Each example is a deal (hands by seat, the boneyard in drawing order) and the
tiles the players choose, in order. ``play_out`` starts the game with
``new_game``, lets the engine make the opening, applies every forced draw and
pass itself, and applies each chosen play with ``apply_action``: an example
that breaks a rule raises ``IllegalAction`` instead of showing a wrong game.
Everything the guide prints about an example (the line, the hands left, the
count, who won and how many points) is read from the final ``State``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.engine import (
    TILES,
    Draw,
    End,
    IllegalAction,
    Pass,
    Play,
    RoundResult,
    Rules,
    State,
    Tile,
    apply_action,
    legal_actions,
    new_game,
    rules_for,
)

NAMES = ("Anna", "Ben", "Chloé", "David")
"""Players of the examples, seat 0 to 3 in turn order (names, not translated)."""


def tiles(spec: str) -> tuple[Tile, ...]:
    """``tiles("66 54 30")`` -> (Tile(6, 6), Tile(4, 5), Tile(0, 3))."""
    return tuple(Tile(int(word[0]), int(word[1])) for word in spec.split())


@dataclass(frozen=True)
class Step:
    """One action of an example, as the guide narrates it."""

    seat: int
    name: str
    kind: str  # "open", "play", "draw", "pass"
    tile: tuple[int, int] | None  # a play: as laid, left half first
    end: str | None
    ends_after: tuple[int, int] | None


@dataclass(frozen=True)
class HandLeft:
    seat: int
    name: str
    tiles: tuple[tuple[int, int], ...]
    pips: int
    team: int | None


@dataclass(frozen=True)
class Dealt:
    """A hand-built deal of ``preset`` in the guide: who sits where, what each was dealt, who opened."""

    key: str
    preset: str
    rules: Rules
    names: tuple[str, ...]
    dealt: tuple[tuple[tuple[int, int], ...], ...]
    opener: int

    @property
    def opener_name(self) -> str:
        return self.names[self.opener]

    @property
    def dealt_hands(self) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
        """(name, tiles dealt) by seat."""
        return tuple(zip(self.names, self.dealt, strict=True))


@dataclass(frozen=True)
class WorkedRound(Dealt):
    """A round played out by the engine, ready for a template."""

    boneyard_dealt: int
    set_aside: int
    steps: tuple[Step, ...]
    line: tuple[tuple[int, int], ...]
    ends: tuple[int, int] | None
    hands: tuple[HandLeft, ...]
    boneyard_left: int
    result: RoundResult

    @property
    def winner_name(self) -> str | None:
        return None if self.result.winner is None else self.names[self.result.winner]

    @property
    def lightest(self) -> int:
        return min(hand.pips for hand in self.hands)

    @property
    def tied(self) -> tuple[HandLeft, ...]:
        """The hands sharing the lightest count (one hand when there is no tie)."""
        return tuple(hand for hand in self.hands if hand.pips == self.lightest)

    @property
    def tie(self) -> bool:
        return len(self.tied) > 1

    @property
    def others(self) -> tuple[HandLeft, ...]:
        """The hands the winner scores (their own excluded; teams: per team_scoring)."""
        winner = self.result.winner
        if winner is None:
            return ()
        if self.rules.teams and self.rules.team_scoring == "opponents":
            return tuple(hand for hand in self.hands if hand.team != self.result.team)
        return tuple(hand for hand in self.hands if hand.seat != winner)

    @property
    def partner(self) -> HandLeft | None:
        if not self.rules.teams or self.result.winner is None:
            return None
        return self.hands[(self.result.winner + 2) % 4]

    @property
    def closed_number(self) -> int | None:
        """The number closing the board, when the round ended that way."""
        if not self.result.blocked or self.ends is None or self.ends[0] != self.ends[1]:
            return None
        on_table = {Tile(a, b) for a, b in self.line}
        number = self.ends[0]
        if all(tile in on_table for tile in TILES if tile.has(number)):
            return number
        return None

    @property
    def sum_text(self) -> str:
        """The sum that makes the winner's points, "19 + 14 = " (empty for a single hand)."""
        if len(self.others) < 2:
            return ""
        return " + ".join(str(hand.pips) for hand in self.others) + " = "

    @property
    def pairs(self) -> tuple[str, str] | None:
        """The two pairs' names ("Anna & Chloé", "Ben & David"), pair 0 first."""
        if not self.rules.teams:
            return None
        return (f"{self.names[0]} & {self.names[2]}", f"{self.names[1]} & {self.names[3]}")

    @property
    def pair_pips(self) -> tuple[int, int] | None:
        if not self.rules.teams:
            return None
        return (self.hands[0].pips + self.hands[2].pips, self.hands[1].pips + self.hands[3].pips)

    @property
    def winning_pair(self) -> str | None:
        if self.pairs is None or self.result.team is None:
            return None
        return self.pairs[self.result.team]

    @property
    def winning_pair_pips(self) -> int | None:
        if self.pair_pips is None or self.result.team is None:
            return None
        return self.pair_pips[self.result.team]

    @property
    def losing_pair_pips(self) -> int | None:
        if self.pair_pips is None or self.result.team is None:
            return None
        return self.pair_pips[1 - self.result.team]

    @property
    def opener_tied(self) -> bool:
        return any(hand.seat == self.opener for hand in self.tied)

    @property
    def tied_names(self) -> str:
        return " & ".join(hand.name for hand in self.tied)

    @property
    def per_number(self) -> int:
        """How many tiles carry the closing number (all of them are on the table)."""
        number = self.closed_number
        return 0 if number is None else sum(1 for tile in TILES if tile.has(number))

    @property
    def drew(self) -> int:
        return sum(1 for step in self.steps if step.kind == "draw")


def _pair(tile: Tile) -> tuple[int, int]:
    return (tile.low, tile.high)


def play_out(
    key: str,
    preset: str,
    *,
    players: int,
    teams: bool = False,
    hands: tuple[str, ...],
    boneyard: str = "",
    plays: str = "",
) -> WorkedRound:
    """Play a round of ``preset`` from a hand-built deal with the engine.

    ``hands``: each seat's tiles ("66 54 ..."), ``boneyard``: the drawing
    order (draw games); ``plays``: the chosen plays after the automatic
    opening, in order, each a tile and an end ("64r 31l"). Draws and passes
    are forced moves and are applied when they are the only legal action.
    """
    rules = rules_for(preset, players=players, teams=teams)
    dealt = tuple(tiles(hand) for hand in hands)
    pile = tiles(boneyard)
    for seat, hand in enumerate(dealt):
        if len(hand) != rules.deal_size:
            raise ValueError(f"{key}: seat {seat} holds {len(hand)} tiles, the deal gives {rules.deal_size}")
    if rules.draw and len(pile) + sum(map(len, dealt)) != len(TILES):
        raise ValueError(f"{key}: in a draw game every undealt tile is in the boneyard")
    state = new_game(rules, hands=dealt, boneyard=pile, seed=0)
    choices = list(reversed(plays.split()))
    while not state.round_over:
        legal = legal_actions(state)
        if len(legal) == 1 and isinstance(legal[0], Draw | Pass):
            state = apply_action(state, legal[0])
            continue
        if not choices:
            raise IllegalAction(f"{key}: the example stops while {NAMES[state.to_move or 0]} must play")
        action = _play(state, choices.pop())
        if action not in legal:
            raise IllegalAction(f"{key}: {action} is not legal here ({legal})")
        state = apply_action(state, action)
    if choices:
        raise ValueError(f"{key}: the round ended with plays left over: {list(reversed(choices))}")
    return _worked(key, preset, rules, dealt, pile, state)


def _play(state: State, word: str) -> Play:
    """The play "64r" (tile 6-4 on the right) by the seat to move."""
    if state.to_move is None:
        raise IllegalAction(f"the round is over: nobody can play {word}")
    return Play(state.to_move, Tile(int(word[0]), int(word[1])), End.LEFT if word[2] == "l" else End.RIGHT)


def _steps(state: State) -> tuple[Step, ...]:
    """The round's actions so far, each with the ends it left."""
    history = state.history
    steps = []
    for number, entry in enumerate(history):
        after = history[number + 1].ends if number + 1 < len(history) else state.ends
        kind = "open" if number == 0 else entry.action
        tile = None if entry.tile is None else _pair(entry.tile)
        end = None if entry.end is None else str(entry.end)
        if entry.tile is not None and entry.action == "play" and entry.ends is not None:
            # as laid: the matching half against the end it was played on
            left, right = entry.ends
            tile = (entry.tile.other(left), left) if end == "left" else (right, entry.tile.other(right))
        steps.append(Step(entry.seat, NAMES[entry.seat], kind, tile, end, after))
    return tuple(steps)


def _worked(
    key: str,
    preset: str,
    rules: Rules,
    dealt: tuple[tuple[Tile, ...], ...],
    pile: tuple[Tile, ...],
    state: State,
) -> WorkedRound:
    names = NAMES[: rules.players]
    steps = _steps(state)
    assert state.round_result is not None
    hands = tuple(
        HandLeft(seat, names[seat], tuple(map(_pair, hand)), sum(t.pips for t in hand), state.team_of(seat))
        for seat, hand in enumerate(state.hands)
    )
    dealt_count = sum(map(len, dealt))
    return WorkedRound(
        key=key,
        preset=preset,
        rules=rules,
        names=names,
        dealt=tuple(tuple(map(_pair, hand)) for hand in dealt),
        boneyard_dealt=len(pile) if rules.draw else 0,
        set_aside=0 if rules.draw else len(TILES) - dealt_count,
        steps=steps,
        line=tuple(pair for _tile, pair in state.line),
        ends=state.ends,
        hands=hands,
        boneyard_left=state.boneyard_count,
        result=state.round_result,
        opener=state.opener,
    )


@dataclass(frozen=True)
class Opening(Dealt):
    """Who opens the first round of a hand-built deal, as the engine decides."""

    rest: int
    tile: tuple[int, int]
    next_to_move: int
    doubles: tuple[tuple[int, int], ...]
    runner_up: tuple[int, int]

    @property
    def next_name(self) -> str:
        return self.names[self.next_to_move]


def opening(key: str, preset: str, *, players: int, hands: tuple[str, ...]) -> Opening:
    rules = rules_for(preset, players=players)
    dealt = tuple(tiles(hand) for hand in hands)
    state = new_game(rules, hands=dealt, boneyard=(), seed=0)
    first = state.history[0]
    assert first.tile is not None
    assert state.to_move is not None
    return Opening(
        key=key,
        preset=preset,
        rules=rules,
        names=NAMES[:players],
        dealt=tuple(tuple(map(_pair, hand)) for hand in dealt),
        rest=len(TILES) - sum(map(len, dealt)),
        opener=first.seat,
        tile=_pair(first.tile),
        next_to_move=state.to_move,
        doubles=tuple(sorted(_pair(tile) for hand in dealt for tile in hand if tile.is_double)),
        runner_up=_pair(max((t for hand in dealt for t in hand if t != first.tile), key=_weight_order)),
    )


def _weight_order(tile: Tile) -> tuple[int, int]:
    """Heaviest first, the higher number breaking equal weights (as the opening rule)."""
    return (tile.pips, tile.high)


@dataclass(frozen=True)
class Fit:
    """Where one tile of the hand may go: "left", "right", both, or nowhere."""

    tile: tuple[int, int]
    ends: tuple[str, ...]


@dataclass(frozen=True)
class Matching:
    """A position and, for each tile of the player to move, the ends it fits."""

    line: tuple[tuple[int, int], ...]
    ends: tuple[int, int]
    name: str
    fits: tuple[Fit, ...]
    steps: tuple[Step, ...]

    def fit(self, a: int, b: int) -> Fit:
        return next(fit for fit in self.fits if fit.tile == (min(a, b), max(a, b)))


def matching(preset: str, *, players: int, hands: tuple[str, ...], plays: str) -> Matching:
    """Play ``plays`` after the opening, then ask the engine where each tile may go."""
    rules = rules_for(preset, players=players)
    state = new_game(rules, hands=tuple(tiles(hand) for hand in hands), boneyard=(), seed=0)
    for word in plays.split():
        state = apply_action(state, _play(state, word))
    seat = state.to_move
    assert seat is not None
    assert state.ends is not None
    legal = legal_actions(state)
    fits = tuple(
        Fit(_pair(tile), tuple(str(a.end) for a in legal if isinstance(a, Play) and a.tile == tile))
        for tile in state.hands[seat]
    )
    return Matching(
        line=tuple(pair for _tile, pair in state.line),
        ends=state.ends,
        name=NAMES[seat],
        fits=fits,
        steps=_steps(state),
    )


@dataclass(frozen=True)
class Examples:
    opening_double: Opening
    opening_heaviest: Opening
    matching: Matching
    blocked: WorkedRound
    closed_board: WorkedRound
    pairs_domino: WorkedRound
    pairs_blocked: WorkedRound
    by_variant: dict[str, tuple[WorkedRound, ...]]


@dataclass(frozen=True)
class ExampleDeal:
    """A hand-built round for ``play_out``: one hand per seat, the boneyard in
    drawing order (draw games) and the plays chosen after the opening."""

    preset: str
    hands: tuple[str, ...]
    plays: str
    boneyard: str = ""
    teams: bool = False

    def play(self, key: str) -> WorkedRound:
        return play_out(
            key,
            self.preset,
            players=len(self.hands),
            teams=self.teams,
            hands=self.hands,
            boneyard=self.boneyard,
            plays=self.plays,
        )


WORKED_DEALS: dict[str, ExampleDeal] = {
    "closed-board": ExampleDeal(
        "classic-draw",
        hands=("00 11 12 14 26 35 44", "01 05 22 24 34 45 46"),
        boneyard="04 16 33 66 03 25 02 36 06 55 13 15 23 56",
        plays="45r 35r 46l 26l 24l 14l 01l 00l 34r 04l",
    ),
    "tie-opener": ExampleDeal(
        "classic-block",
        hands=("05 11 12 16 24 34 36", "00 01 04 25 26 35 46", "02 03 14 22 55 56 66"),
        plays="16l 01l 02l 12l 46r 14r 11l",
    ),
    "blocked": ExampleDeal(
        "classic-block",
        hands=("02 04 06 13 14 15 16", "05 33 34 35 36 45 66", "00 03 22 23 24 25 55"),
        plays="16r 36l 23l 14r 34r 24l 13r 45l 55l 15l",
    ),
    "pairs-domino": ExampleDeal(
        "arena",
        teams=True,
        hands=(
            "00 01 03 12 14 23 24",
            "06 13 16 25 34 55 66",
            "02 26 33 35 45 46 56",
            "04 05 11 15 22 36 44",
        ),
        plays="26r 22r 23r 06l 33r 05l 03r 55l 35l 04r 24r 13l 02r 15l 00r 25l 12l 16l 46l 44l 01r 34l",
    ),
    "pairs-blocked": ExampleDeal(
        "arena",
        teams=True,
        hands=(
            "06 13 22 23 25 55 66",
            "04 11 15 26 34 35 45",
            "00 03 14 16 24 44 56",
            "01 02 05 12 33 36 46",
        ),
        plays="26l 16r 02l 06l 15r 56r 36l 23l 24l 46l",
    ),
    "quick-tie": ExampleDeal(
        "quick",
        hands=("02 11 15 33 45", "06 23 26 44 56", "00 01 03 12 25"),
        boneyard="04 05 35 14 34 22 66 36 13 24 16 46 55",
        plays="04r 02r 23r 03r 45l 56l 01r 15r 06l 00l 05r",
    ),
    "duel-tie": ExampleDeal(
        "duel-block",
        hands=("00 01 04 23 24 44 45", "03 06 12 14 33 34 36"),
        plays="34r 24l 36r 23l 03l 04l 14l 01l 06l",
    ),
}
"""The worked rounds of the guide by key; each variant shows its rounds in this order."""


@cache
def examples() -> Examples:
    """Every worked example of the guide (computed once per process)."""
    rounds = {key: deal.play(key) for key, deal in WORKED_DEALS.items()}
    by_variant: dict[str, tuple[WorkedRound, ...]] = {}
    for worked in rounds.values():
        by_variant[worked.preset] = (*by_variant.get(worked.preset, ()), worked)
    return Examples(
        opening_double=opening(
            "opening-double",
            "classic-draw",
            players=3,
            hands=("01 13 24 26 35 44 56", "00 05 12 16 23 34 46", "02 11 14 15 25 36 55"),
        ),
        opening_heaviest=opening(
            "opening-heaviest",
            "classic-block",
            players=2,
            hands=("01 02 13 15 26 34 45", "03 04 12 14 24 25 36"),
        ),
        matching=matching(
            "classic-block",
            players=2,
            hands=("01 03 12 24 35 44 46", "05 11 13 15 25 26 66"),
            plays="46l 26r",
        ),
        blocked=rounds["blocked"],
        closed_board=rounds["closed-board"],
        pairs_domino=rounds["pairs-domino"],
        pairs_blocked=rounds["pairs-blocked"],
        by_variant=by_variant,
    )
