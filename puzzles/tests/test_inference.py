"""Inference puzzles: the generator against an independent reading of the
passes (block games), the truth always among the answer's tiles, the same
states giving the same puzzles; then the site: made by the search with the
others, the page, a right and a wrong answer, a bad one refused, the JSON
and the CSV."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.urls import reverse

from accounts.ratings import MU
from games.engine import PRESETS, State, apply_action, legal_actions, new_game, view_for
from games.play.modes import RANKED_MODES
from puzzles import inference, services
from puzzles.models import Attempt, Puzzle, PuzzleRating


def _round_states(rules, seed: int) -> list[tuple[int, State]]:
    state = new_game(rules, seed)
    rng = random.Random(seed)
    states = [(0, state)]
    while not state.round_over:
        state = apply_action(state, rng.choice(legal_actions(state)))
        states.append((len(states), state))
    return states


def _heavier_than_opening(tile: tuple[int, int], opening: tuple[int, int]) -> bool:
    """The forced first opening: the highest double, else (no double dealt) the heaviest tile."""

    def key(t: tuple[int, int]) -> tuple[int, int, int]:
        return (1, t[1], 0) if t[0] == t[1] else (0, t[0] + t[1], t[1])

    return key(tile) > key(opening)


def _by_the_passes(state: State, seat: int, opponent: int) -> set[tuple[int, int]]:
    """Independently, in a block game (nothing drawn: the hand now is part of
    the hand at each pass): the unseen tiles showing no number the opponent
    passed on, and (first round) none heavier than the forced opening."""
    mine = {(t.low, t.high) for t in state.hands[seat]}
    laid = {(min(a, b), max(a, b)) for _tile, (a, b) in state.line}
    unseen = {(a, b) for a in range(7) for b in range(a, 7)} - mine - laid
    lacked: set[int] = set()
    history = list(view_for(state, seat).history)
    for entry in history:
        if entry.seat == opponent and entry.action == "pass" and entry.ends is not None:
            lacked |= set(entry.ends)
    possible = {tile for tile in unseen if not (set(tile) & lacked)}
    if state.round == 1 and history and history[0].action == "play" and history[0].tile is not None:
        opening = (history[0].tile.low, history[0].tile.high)
        possible = {tile for tile in possible if not _heavier_than_opening(tile, opening)}
    return possible


@pytest.mark.parametrize("preset", ["duel-block", "classic-block"])
def test_in_block_games_the_answer_is_the_tiles_the_passes_leave(preset):
    rules = PRESETS[preset]
    made = 0
    for seed in range(30):
        states = dict(_round_states(rules, seed))
        for puzzle in inference.find_inferences(states.items()):
            state = states[puzzle.seq]
            assert state.to_move == puzzle.seat
            assert set(puzzle.possible) == _by_the_passes(state, puzzle.seat, puzzle.opponent)
            assert len(puzzle.unseen) - len(puzzle.possible) >= inference.MIN_RULED_OUT
            made += 1
    assert made >= 5


@pytest.mark.parametrize(
    "rules",
    [PRESETS["classic-draw"], PRESETS["duel-block"], RANKED_MODES["pairs"].rules],
    ids=["draw", "duel", "pairs"],
)
def test_the_opponents_real_hand_is_always_among_the_answer(rules):
    made = 0
    for seed in range(25):
        states = _round_states(rules, seed)
        found = inference.find_inferences(states)
        assert found == inference.find_inferences(states)  # deterministic
        by_seq = dict(states)
        for puzzle in found:
            truth = {(t.low, t.high) for t in by_seq[puzzle.seq].hands[puzzle.opponent]}
            assert truth <= set(puzzle.possible) < set(puzzle.unseen)
            assert puzzle.held == len(truth)
            assert not any(entry["seat"] != puzzle.seat and entry["action"] == "draw" and entry["tile"] for entry in puzzle.history)
            made += 1
    assert made >= 5


@pytest.fixture
def inferences(db) -> list[Puzzle]:
    for game in services.play_computer_games(6, seed="infer"):
        services.search_game(game)
    made = list(Puzzle.objects.filter(kind=Puzzle.Kind.INFER))
    assert made, "six duels gave no inference puzzle"
    return made


@pytest.mark.django_db
def test_an_inference_puzzle_is_solved_by_choosing_the_tiles(client, make_member, inferences):
    puzzle = inferences[0]
    question = puzzle.inference
    assert question is not None
    html = client.get(reverse("puzzles:puzzle", args=[puzzle.pk])).content.decode()
    assert "data-infer" in html
    for low, high in question["unseen"]:
        assert f'data-pick="{low}-{high}"' in html
    french = client.get(reverse("puzzles:puzzle", args=[puzzle.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ce que la manche a montré" in french
    assert "Lisez les passes et les pioches" in french
    # The opponent's tiles are not on the page (only the viewer's own hand and the line).
    assert puzzle.position["hands"][question["opponent"]] == []
    answer = " ".join(f"{a}-{b}" for a, b in question["possible"])
    url = reverse("puzzles:solve", args=[puzzle.pk])
    reply = client.post(url, {"tiles": " ".join(reversed(answer.split()))}).json()
    assert reply["correct"] is True
    assert reply["tiles"] == question["possible"]
    assert sum(1 for row in reply["alternatives"] if row["best"]) == len(question["possible"])
    member = make_member("reader")
    client.force_login(member)
    reply = client.post(url, {"tiles": " ".join(answer.split()[1:])}, HTTP_ACCEPT_LANGUAGE="fr").json()
    assert reply["correct"] is False
    assert reply["rating"]["after"] < reply["rating"]["before"]
    assert reply["verdict"].startswith("Pas tout à fait : l\u2019adversaire peut avoir exactement ")
    # A tile the player can see (in their hand) is refused, nothing written.
    own = "-".join(map(str, puzzle.position["hands"][puzzle.to_move][0]))
    before = Attempt.objects.count()
    bad = client.post(url, {"tiles": f"{answer} {own}"})
    assert bad.status_code == 400
    assert bad.json()["error"]
    assert Attempt.objects.count() == before
    data = client.get(f"/puzzles/{puzzle.pk}.json").json()
    assert data["kind"] == "infer"
    assert data["solution"] == {"tiles": question["possible"]}
    assert (data["source_table"], data["seq"], data["to_move"]) == (puzzle.table_id, puzzle.seq, puzzle.to_move)
    rows = list(csv.reader(io.StringIO(b"".join(client.get("/puzzles/export.csv").streaming_content).decode())))
    row = next(row for row in rows[1:] if int(row[0]) == puzzle.pk)
    assert row[5] == answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"tiles": ""},  # nothing chosen
        {},
        {"tile": "POSSIBLE", "end": "left"},  # a play's shape
        {"tile": "POSSIBLE", "end": "left", "tiles": "POSSIBLE"},
        {"end": "left", "tiles": "POSSIBLE"},
    ],
)
def test_an_inference_answer_of_the_wrong_shape_or_empty_is_refused(client, make_member, inferences, fields):
    puzzle = inferences[0]
    assert puzzle.inference is not None
    low, high = puzzle.inference["possible"][0]
    client.force_login(make_member("shape"))
    data = {key: value.replace("POSSIBLE", f"{low}-{high}") for key, value in fields.items()}
    reply = client.post(reverse("puzzles:solve", args=[puzzle.pk]), data)
    assert reply.status_code == 400
    assert reply.json()["error"]
    assert not Attempt.objects.exists()
    assert not PuzzleRating.objects.exists()
    puzzle.refresh_from_db()
    assert (puzzle.attempts, puzzle.mu) == (0, MU)
