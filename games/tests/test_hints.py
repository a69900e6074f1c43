"""Hints: the hard level's choice for the asking player's own view, in unranked games only."""

from __future__ import annotations

import json
import re

import pytest

from games.coach import hints
from games.engine import PRESETS, Play, Tile, apply_action, dump_state, legal_actions, new_game, view_for
from games.models import Game, Table
from games.play import services
from games.tests.engine.helpers import ts
from games.tests.factories import make_table
from games.tests.test_fairness import new_session_key

HANDS_A = [ts("6-6 5-5 6-5 4-1 1-1 0-0 2-2"), ts("6-4 4-4 3-3 2-3 1-3 0-3 2-4")]
# Seat 1 holds other tiles: seat 0 cannot tell the two deals apart.
HANDS_B = [HANDS_A[0], ts("6-4 5-4 3-3 2-3 1-2 0-3 0-2")]


def position(hands):
    """Seat 0 to choose between 6-5 and 4-1 after 6-6, 6-4 (block duel)."""
    state = new_game(PRESETS["duel-block"], 0, hands=hands)
    return apply_action(state, Play(1, Tile(6, 4), "right"))


def table_at(state, *, kind: str = Table.Kind.PRIVATE, key: str | None = None) -> Game:
    """A live table whose current state is ``state`` (seat 0 a guest)."""
    table = make_table(
        preset="duel-block",
        kind=kind,
        seats=[services.SeatSpec(guest_key=key or new_session_key()), services.SeatSpec(guest_key=new_session_key())],
    )
    game = Game.objects.get(table=table)
    game.state = dump_state(state)
    game.to_move = state.to_move
    game.save(update_fields=["state", "to_move"])
    return game


def tiles_in(frame: dict) -> set[Tile]:
    """Every tile a frame mentions, as [a, b] lists or "a-b" text."""
    text = json.dumps(frame)
    found = {Tile(int(a), int(b)) for a, b in re.findall(r"\[(\d), (\d)\]", text)}
    found |= {Tile(int(a), int(b)) for a, b in re.findall(r"\b(\d)-(\d)\b", text)}
    return found


@pytest.mark.django_db
def test_a_hint_is_the_hard_choice_from_the_players_view_and_shows_no_hidden_tile(settings) -> None:
    settings.HINT_BUDGET_MS = 30
    settings.HINT_DEALS = 60
    state = position(HANDS_A)
    game = table_at(state)
    frame = hints.hint_for(game_id=game.pk, seat=0)
    assert frame["type"] == "hint"
    assert frame["seq"] == game.seq
    assert frame["action"]["type"] == "play"
    assert Tile(*frame["action"]["tile"]) in {Tile(6, 5), Tile(4, 1)}
    assert frame["action"] in [
        {"type": "play", "tile": a.tile.to_list(), "end": str(a.end)} for a in legal_actions(state)
    ]
    assert frame["why"]
    visible = set(state.hands[0]) | {tile for tile, _pair in state.line}
    assert tiles_in(frame) <= visible
    assert not tiles_in(frame) & (set(state.hands[1]) - visible)
    # Another deal behind the same view: the very same hint.
    other = table_at(position(HANDS_B))
    assert view_for(position(HANDS_B), 0) == view_for(state, 0)
    assert hints.hint_for(game_id=other.pk, seat=0) == {**frame, "seq": other.seq}


@pytest.mark.django_db
def test_hints_are_refused_in_ranked_games_and_out_of_turn() -> None:
    state = position(HANDS_A)
    ranked = table_at(state, kind=Table.Kind.RANKED)
    with pytest.raises(services.NotAllowed) as refused:
        hints.hint_for(game_id=ranked.pk, seat=0)
    assert refused.value.code == "not_allowed"
    game = table_at(state)
    with pytest.raises(services.NotYourTurn):
        hints.hint_for(game_id=game.pk, seat=1)


@pytest.mark.django_db
def test_a_forced_move_is_explained_without_a_search(settings) -> None:
    rules = PRESETS["duel-block"]
    state = new_game(rules, 0, hands=[ts("6-6 5-5 6-5 0-1 1-1 0-0 2-2"), ts("6-4 4-4 3-3 2-3 1-3 0-3 2-4")])
    state = apply_action(state, Play(1, Tile(6, 4), "right"))  # seat 0: only 6-5 fits
    game = table_at(state)
    frame = hints.hint_for(game_id=game.pk, seat=0)
    assert frame["action"] == {"type": "play", "tile": [5, 6], "end": "left"}
    assert frame["why"] == "It is the only move you can make."




def test_the_choice_and_the_figures_of_a_hint_come_from_one_search() -> None:
    """Issue 19, defect 2: the recommended move and the figures came from two searches,
    so a hint could read "1-2 on the left ... +3.8 points; the best other move, 1-2 on
    the right, +4.4". Now the figures are those of the search that chose, and the move
    named after it is the next in that search's ranking, never better on both counts."""
    from random import Random

    from games.ai import HardOptions, HardPlayer, choose_action
    from games.ai.base import candidates
    from games.ai.hard import best_of
    from games.ai.knowledge import read_view
    from games.coach import analysis
    from games.engine import rules_for

    checked = 0
    for preset, players, teams in (("duel-block", 2, False), ("arena", 4, True), ("classic-draw", 2, False)):
        for game in range(3):
            state = new_game(rules_for(preset, players=players, teams=teams), seed=f"one-search-{game}")
            step = 0
            while not state.round_over:
                view = view_for(state, state.to_move)
                if len(analysis.distinct_plays(view)) > 1:
                    found = analysis.analyse(view, seed=step, budget_ms=20, deals=60)
                    know = read_view(view)
                    cands = candidates(list(view.legal), know)
                    player = HardPlayer(options=HardOptions(budget_ms=20, min_deals=60))
                    values = player.evaluate(know, cands, Random(step))
                    assert found.best == analysis.canonical(view, cands[best_of(know, cands, values)].action)
                    assert found.deals == player.stats.deals
                    figures = {
                        analysis.play_key(analysis.canonical(view, c.action)): (
                            round(player.stats.points[k], 2), round(player.stats.wins[k], 3)
                        )
                        for k, c in enumerate(cands)
                    }
                    assert {analysis.play_key(o.action): (o.points, o.wins) for o in found.options} == figures
                    chosen, named = found.options[0], found.options[1]
                    assert chosen == found.option_of(found.best)
                    assert not (named.wins >= chosen.wins and named.points > chosen.points), (chosen, named)
                    text = hints.why_text(view, found)
                    assert review_points(chosen.points) in text
                    assert review_points(named.points) in text
                    checked += 1
                state = apply_action(state, choose_action(view, "medium", seed=step))
                step += 1
    assert checked > 40


def review_points(points: float) -> str:
    from games.coach import wording

    return wording.points_text(points)


def test_an_analysis_searches_with_the_options_it_is_given() -> None:
    """``analyse(..., options=)`` searches as those options (``bench/ai_core.py --versions``
    times each version's hint); without them, as the current version."""
    from dataclasses import replace
    from random import Random

    from games.ai import HardPlayer
    from games.ai.base import candidates
    from games.ai.hard import VERSION_OPTIONS
    from games.ai.knowledge import read_view
    from games.coach import analysis
    from games.engine import rules_for

    state = new_game(rules_for("arena", players=4, teams=True), seed="analysis-options")
    differ = 0
    step = 0
    while not state.round_over:
        view = view_for(state, state.to_move)
        if len(analysis.distinct_plays(view)) > 1:
            old = analysis.analyse(view, seed=step, budget_ms=20, deals=60, options=VERSION_OPTIONS["2"])
            know = read_view(view)
            player = HardPlayer(options=replace(VERSION_OPTIONS["2"], budget_ms=20, min_deals=60))
            player.evaluate(know, candidates(list(view.legal), know), Random(step))
            assert old.deals == player.stats.deals
            current = analysis.analyse(view, seed=step, budget_ms=20, deals=60)
            differ += current.options != old.options
        state = apply_action(state, legal_actions(state)[0])
        step += 1
    assert differ >= 1
