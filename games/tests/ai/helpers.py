"""Games between computer players and hand-built views, for the AI tests."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from games.engine import (
    PRESET_OPTIONS,
    Draw,
    End,
    HistoryEntry,
    Pass,
    Play,
    PlayerView,
    Rules,
    State,
    Tile,
    apply_action,
    new_game,
    rules_for,
    view_for,
)


def t(spec: str) -> Tile:
    a, b = spec.split("-")
    return Tile(int(a), int(b))


def ts(specs: str) -> tuple[Tile, ...]:
    return tuple(t(s) for s in specs.split())


def every_setup(target: int = 0) -> Iterator[tuple[str, Rules]]:
    """Every preset at every player count it allows, pairs included."""
    for name, options in PRESET_OPTIONS.items():
        for players, teams in options.combinations():
            rules = rules_for(name, players=players, teams=teams)
            label = f"{name}-{players}{'-pairs' if teams else ''}"
            yield label, replace(rules, target=target)


def play_round(state: State, choose) -> Iterator[tuple[State, object]]:
    """Yield (state, action chosen) until the round is over; ``choose(view)`` acts for every seat."""
    while not state.round_over:
        view = view_for(state, state.to_move)
        action = choose(view)
        yield state, action
        state = apply_action(state, action)


def initial_deal(state: State) -> tuple[list[list[Tile]], list[Tile]]:
    """(hands, pile) of a fresh round-1 state, with the automatic opening tile put back."""
    hands = [list(h) for h in state.hands]
    first = state.history[0]
    hands[first.seat].append(first.tile)
    return hands, list(state.boneyard)


def legal_for(seat: int, hand: tuple[Tile, ...], ends: tuple[int, int] | None, boneyard: int) -> tuple:
    """The legal actions of a hand-built position, as the engine orders them."""
    out = []
    for tile in sorted(hand):
        if ends is None:
            out.append(Play(seat, tile, End.LEFT))
            continue
        if ends[0] in tile:
            out.append(Play(seat, tile, End.LEFT))
        if ends[1] in tile:
            out.append(Play(seat, tile, End.RIGHT))
    if out:
        return tuple(out)
    return (Draw(seat),) if boneyard else (Pass(seat),)


def make_view(
    rules: Rules,
    *,
    seat: int,
    hand: str,
    line: list[tuple[int, int]],
    hand_counts: tuple[int, ...],
    history: list[HistoryEntry],
    boneyard: int = 0,
    round_no: int = 2,
    opener: int = 0,
    scores: tuple[int, ...] | None = None,
) -> PlayerView:
    """A view built by hand (a later round, so no forced opening is inferred)."""
    tiles = ts(hand)
    ends = (line[0][0], line[-1][1]) if line else None
    on_table = len(line)
    undealt = 28 - on_table - sum(hand_counts) - boneyard
    counts = list(hand_counts)
    counts[seat] = len(tiles)
    return PlayerView(
        seat=seat,
        hand=tiles,
        line=tuple(line),
        ends=ends,
        hand_counts=tuple(counts),
        boneyard_count=boneyard,
        undealt_count=undealt,
        to_move=seat,
        scores=scores or (0,) * rules.sides,
        round=round_no,
        history=tuple(history),
        rules=rules,
        round_over=False,
        game_over=False,
        opener=opener,
        legal=legal_for(seat, tiles, ends, boneyard),
        round_result=None,
        winner=None,
    )


def played(seat: int, spec: str, end: str | None, ends: tuple[int, int] | None) -> HistoryEntry:
    return HistoryEntry(seat, "play", t(spec), None if end is None else End(end), ends)


def passed(seat: int, ends: tuple[int, int]) -> HistoryEntry:
    return HistoryEntry(seat, "pass", None, None, ends)


__all__ = ["every_setup", "initial_deal", "make_view", "new_game", "passed", "play_round", "played", "t", "ts"]
