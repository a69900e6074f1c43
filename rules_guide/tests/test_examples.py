"""The worked examples are real engine games, and the page shows what the engine computed."""

from __future__ import annotations

import hashlib

import pytest
from django.test import Client

from games.engine import (
    PRESETS,
    TILES,
    Draw,
    End,
    Pass,
    Play,
    Tile,
    new_game,
    replay,
    rules_for,
)
from games.engine.deal import deal_hands, shuffled_order
from games.engine.tiles import DOUBLES_MASK
from rules_guide.examples import WorkedRound, examples, play_out
from rules_guide.tests.html import parse
from rules_guide.views import EXAMPLE_SEED

ALL = examples()
WORKED = {w.key: w for group in ALL.by_variant.values() for w in group}


def actions_of(w: WorkedRound) -> list[Play | Draw | Pass]:
    """The example's moves after the automatic opening, as engine actions."""
    actions: list[Play | Draw | Pass] = []
    for step in w.steps[1:]:
        if step.kind == "play":
            actions.append(Play(step.seat, Tile(*step.tile), End(step.end)))
        elif step.kind == "draw":
            actions.append(Draw(step.seat))
        else:
            actions.append(Pass(step.seat))
    return actions


def replayed(w: WorkedRound):
    hands = [[Tile(a, b) for a, b in hand] for hand in w.dealt]
    dealt = {t for hand in hands for t in hand}
    boneyard = None
    if w.rules.draw:
        # the boneyard in drawing order: the drawn tiles first, in the order drawn, then the rest
        drawn = [Tile(*step.tile) for step in w.steps if step.kind == "draw"]
        rest = [t for t in TILES if t not in dealt and t not in drawn]
        boneyard = drawn + rest
    return replay(w.rules, 0, actions_of(w), hands=hands, boneyard=boneyard)


@pytest.mark.parametrize("key", sorted(WORKED))
def test_each_example_replays_to_the_result_shown(key: str) -> None:
    w = WORKED[key]
    state = replayed(w)
    assert state.round_over
    assert state.round_result == w.result
    assert [sum(t.pips for t in hand) for hand in state.hands] == [hand.pips for hand in w.hands]
    assert [pair for _tile, pair in state.line] == list(w.line)
    # the narration shows each tile as it lies in the line
    assert {step.tile for step in w.steps if step.kind in ("open", "play")} == set(w.line)
    assert w.rules == rules_for(w.preset, players=w.rules.players, teams=w.rules.teams)
    # the hands are a real deal of that variant
    assert all(len(hand) == w.rules.deal_size for hand in w.dealt)


def test_every_variant_has_a_worked_example() -> None:
    assert set(ALL.by_variant) == set(PRESETS)
    for name, group in ALL.by_variant.items():
        assert group
        assert all(w.preset == name for w in group)


def test_the_blocked_round_is_won_by_the_lightest_hand_with_the_others_pips() -> None:
    w = ALL.blocked
    assert w.result.blocked
    assert not w.tie
    winner = min(w.hands, key=lambda hand: hand.pips)
    assert w.result.winner == winner.seat
    assert w.result.points == sum(hand.pips for hand in w.hands) - winner.pips
    assert w.sum_text == " + ".join(str(h.pips) for h in w.hands if h.seat != winner.seat) + " = "
    assert ALL.closed_board.sum_text == ""  # two players: the one other hand, no sum to show


def test_tie_examples_show_each_variants_tie_rule() -> None:
    opener_tie = WORKED["tie-opener"]
    assert opener_tie.rules.blocked_tie == "opener"
    assert opener_tie.tie
    assert not opener_tie.opener_tied
    players = opener_tie.rules.players
    order = [(opener_tie.opener + k) % players for k in range(players)]
    tied = {hand.seat for hand in opener_tie.tied}
    assert opener_tie.result.winner == next(seat for seat in order if seat in tied)
    quick = WORKED["quick-tie"]
    assert quick.rules.blocked_tie == "nobody"
    assert quick.tie
    assert quick.result.winner is None
    assert quick.result.points == 0
    duel = WORKED["duel-tie"]
    assert duel.rules.blocked_tie == "draw"
    assert duel.tie
    assert duel.result.winner is None
    state = replayed(duel)
    assert state.game_over  # a one-round game: the drawn round draws the game
    assert state.winner is None


def test_the_closed_board_ends_the_round_with_tiles_still_in_the_boneyard() -> None:
    w = ALL.closed_board
    assert w.rules.draw
    assert w.closed_number is not None
    assert w.per_number == sum(1 for t in TILES if t.has(w.closed_number))
    assert w.boneyard_left > 0
    assert w.drew >= 1
    assert w.result.blocked


def test_pairs_examples() -> None:
    domino = ALL.pairs_domino
    assert domino.rules.teams
    assert not domino.result.blocked
    assert domino.result.team == domino.result.winner % 2
    if domino.rules.team_scoring == "all_others":
        assert domino.partner is not None
        assert domino.partner.pips > 0  # the partner's pips really count
        assert domino.result.points == sum(h.pips for h in domino.hands if h.seat != domino.result.winner)
    blocked = ALL.pairs_blocked
    assert blocked.result.blocked
    # the lightest single hand decides, although its pair holds more pips in all
    assert blocked.winning_pair_pips > blocked.losing_pair_pips
    assert blocked.hands[blocked.result.winner].pips == blocked.lightest


def test_opening_examples_match_new_game() -> None:
    for ex in (ALL.opening_double, ALL.opening_heaviest):
        hands = [[Tile(a, b) for a, b in hand] for hand in ex.dealt]
        state = new_game(ex.rules, hands=hands, boneyard=[], seed=0)
        first = state.history[0]
        assert (first.seat, (first.tile.low, first.tile.high)) == (ex.opener, ex.tile)
        assert state.to_move == ex.next_to_move
    assert ALL.opening_double.tile[0] == ALL.opening_double.tile[1]
    assert ALL.opening_double.tile == max(ALL.opening_double.doubles)
    heaviest = ALL.opening_heaviest
    assert not heaviest.doubles
    assert Tile(*heaviest.tile).pips == Tile(*heaviest.runner_up).pips
    assert max(heaviest.tile) > max(heaviest.runner_up)


def test_matching_example_lists_what_the_engine_allows() -> None:
    ex = ALL.matching
    assert {fit.ends for fit in ex.fits} >= {("left", "right"), ("left",), ("right",), ()}
    assert any(fit.tile[0] == fit.tile[1] and fit.ends for fit in ex.fits)  # a double that fits


def test_an_example_that_breaks_a_rule_is_refused() -> None:
    from games.engine import IllegalAction

    with pytest.raises(IllegalAction):  # 5-5 does not match the 6 at the ends
        play_out(
            "bad",
            "duel-block",
            players=2,
            hands=("66 01 02 03 04 05 06", "55 11 12 13 14 15 16"),
            plays="55r",
        )


def test_five_doubles_are_redealt_and_four_are_not() -> None:
    """The guide says "five doubles or more" forces a redeal: check it against the dealer."""
    rules = PRESETS["classic-draw"]
    size = rules.deal_size
    found = {4: None, 5: None}
    for seed in range(200_000):
        order = shuffled_order(seed, 1, 0)
        most = max(
            sum(1 for index in order[s * size : (s + 1) * size] if DOUBLES_MASK >> index & 1)
            for s in range(rules.players)
        )
        if most in found and found[most] is None:
            found[most] = seed
        if all(found.values()):
            break
    assert all(seed is not None for seed in found.values()), found

    def first_attempt(seed: int) -> tuple[int, ...]:
        order = shuffled_order(seed, 1, 0)
        return tuple(sum(1 << i for i in order[s * size : (s + 1) * size]) for s in range(rules.players))

    assert deal_hands(rules, found[4], 1)[0] == first_attempt(found[4])
    assert deal_hands(rules, found[5], 1)[0] != first_attempt(found[5])


def test_the_page_shows_the_engines_results(client: Client) -> None:
    tree = parse(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    for key, w in WORKED.items():
        figure = tree.one("figure", data_example=key)
        outcome = figure.one("p", **{"class": "outcome"})
        assert outcome.attrs["data-points"] == str(w.result.points)
        assert outcome.attrs["data-winner"] == ("" if w.result.winner is None else str(w.result.winner))
        if w.result.points:
            assert str(w.result.points) in outcome.text()
        rows = figure.select("tr", data_seat=True)
        assert [int(row.attrs["data-pips"]) for row in rows] == [hand.pips for hand in w.hands]
        line = figure.one("div", **{"class": "line line--static"})
        shown = [node.attrs["data-tile"] for node in line.select("span", data_tile=True)]
        assert shown == [f"{min(a, b)}-{max(a, b)}" for a, b in w.line]
    for ex in (ALL.opening_double, ALL.opening_heaviest):
        figure = tree.one("figure", data_example=ex.key)
        assert figure.attrs["data-opener"] == str(ex.opener)
        assert figure.attrs["data-tile"] == f"{ex.tile[0]}-{ex.tile[1]}"
    fits = tree.one("figure", data_example="matching").select("li", data_ends=True)
    assert {(li.attrs["data-tile"], li.attrs["data-ends"]) for li in fits} == {
        (f"{f.tile[0]}-{f.tile[1]}", ",".join(f.ends)) for f in ALL.matching.fits
    }


def test_the_published_fingerprint_is_the_sha256_of_the_seed(client: Client) -> None:
    tree = parse(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    code = tree.one("code", data_seed=EXAMPLE_SEED)
    assert code.text() == hashlib.sha256(EXAMPLE_SEED.encode()).hexdigest()
