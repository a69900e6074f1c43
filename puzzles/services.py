"""The puzzles' writes: searching finished games for puzzles, the computer's
self-play games that feed a young site, and the answers (with the ratings)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Q

from accounts.ratings import Skill, display_rating, rate_match
from games.engine import PRESETS, Rules, State
from games.fairplay.fairness import is_published
from games.models import Game, Table
from games.play import selectors as game_selectors
from games.play import services as table_services
from puzzles import generator, inference, selectors
from puzzles.models import Attempt, Puzzle, PuzzleRating, SearchedGame

logger = logging.getLogger(__name__)

ENDS = ("left", "right")


class BadAnswer(ValueError):
    """An answer that is not a play of the puzzle's position (nothing is written)."""


def position_of(state: State) -> dict[str, Any]:
    """What a puzzle page draws of a position: every hand, the line, the boneyard."""
    return {
        "hands": [[[tile.low, tile.high] for tile in hand] for hand in state.hands],
        "line": [[a, b] for _tile, (a, b) in state.line],
        "boneyard": [[tile.low, tile.high] for tile in state.boneyard],
        "scores": list(state.scores),
    }


def seen_position(state: State, seat: int) -> dict[str, Any]:
    """What an inference puzzle's page draws: the seat's own hand only (the
    others' would give the answer away), the line, the counts."""
    return {
        "hands": [[[tile.low, tile.high] for tile in hand] if n == seat else [] for n, hand in enumerate(state.hands)],
        "counts": [len(hand) for hand in state.hands],
        "line": [[a, b] for _tile, (a, b) in state.line],
        "boneyard": [],
        "boneyard_count": len(state.boneyard),
        "scores": list(state.scores),
    }


def searchable(game: Game) -> bool:
    """Whether a game's positions may become puzzles: a game of a public table
    whose deal is published (``is_published``: over, its table finished, not
    sealed while other tables of a duplicate round still play the same deal),
    so that anyone can rebuild the position from its replay."""
    return game.table.public and not game.aborted and is_published(game)


def search_game(game: Game, node_budget: int = generator.DEFAULT_NODE_BUDGET) -> list[Puzzle]:
    """Search one finished game for puzzles, once: the puzzles it gives are
    written with a ``SearchedGame`` row (a second call finds the row and
    writes nothing). Aborted games and those of private tables give none
    (and are marked searched); a game whose deal is not published yet
    (unfinished, its table still playing, sealed) is left for later."""
    if SearchedGame.objects.filter(game=game).exists():
        return []
    if game.table.public and not game.aborted and not is_published(game):
        return []
    found: list[generator.Found] = []
    inferred: list[inference.Inferred] = []
    states: dict[int, State] = {}
    if searchable(game):
        for move, state in game_selectors.iter_states(game):
            states[move.seq if move is not None else 0] = state
        found = generator.find_puzzles(states.items(), node_budget)
        inferred = inference.find_inferences(states.items())
    made: list[Puzzle] = []
    try:
        with transaction.atomic():
            SearchedGame.objects.create(
                game=game, found=len(found) + len(inferred), nodes=sum(p.nodes for p in found)
            )
            for puzzle in found:
                rules = states[puzzle.seq].rules
                made.append(
                    Puzzle.objects.create(
                        table_id=game.table_id,
                        seq=puzzle.seq,
                        round=puzzle.round,
                        kind=puzzle.kind,
                        preset=game.preset,
                        players=rules.players,
                        teams=rules.teams,
                        to_move=puzzle.to_move,
                        solution_tile=[puzzle.solution.tile.low, puzzle.solution.tile.high],
                        solution_ends=list(puzzle.solution.ends),
                        alternatives=[alt.to_dict() for alt in puzzle.alternatives],
                        line=list(puzzle.line),
                        position=position_of(states[puzzle.seq]),
                        nodes=puzzle.nodes,
                    )
                )
            for question in inferred:
                rules = states[question.seq].rules
                made.append(
                    Puzzle.objects.create(
                        table_id=game.table_id,
                        seq=question.seq,
                        round=question.round,
                        kind=Puzzle.Kind.INFER,
                        preset=game.preset,
                        players=rules.players,
                        teams=rules.teams,
                        to_move=question.seat,
                        solution_tile=[],
                        solution_ends=[],
                        alternatives=[],
                        line=[],
                        position=seen_position(states[question.seq], question.seat),
                        nodes=0,
                        inference=question.to_dict(),
                    )
                )
    except IntegrityError:
        # Another process searched it meanwhile.
        return []
    return made


# The games to search now: a private table's or an aborted one (marked searched
# with none), or a public table's whose deal is published (``is_published``).
READY = Q(table__public=False) | Q(result__aborted=True) | Q(
    table__status=Table.Status.FINISHED, sealed=False, state__isnull=False
)


def games_to_search(limit: int) -> list[Game]:
    """Finished games not searched yet, oldest first: a sealed game (a duplicate
    round's, other tables still playing its deal) waits until it is unsealed."""
    return list(
        Game.objects.filter(READY, finished_at__isnull=False, puzzle_search__isnull=True)
        .select_related("table")
        .order_by("finished_at", "id")[:limit]
    )


SEARCH_LOCK = "puzzles:search"


def search_finished_games(
    limit: int = 2, node_budget: int = generator.DEFAULT_NODE_BUDGET, *, seconds: float | None = None
) -> int:
    """The periodic search (``puzzles.tasks.search_puzzles``): up to ``limit``
    finished games not searched yet (oldest first), one process at a time
    (a lock in the cache; another search finds it taken and returns 0). With
    ``seconds``, no game is begun once they are over (the first always is;
    a game begun is searched whole: generation stays deterministic). Each
    game's puzzles are written in a short transaction of their own. Returns
    the puzzles made."""
    if not cache.add(SEARCH_LOCK, 1, timeout=int(seconds or 600) + 600):
        return 0
    made = 0
    start = time.monotonic()
    try:
        for n, game in enumerate(games_to_search(limit)):
            if n and seconds is not None and time.monotonic() - start >= seconds:
                break
            made += len(search_game(game, node_budget))
    finally:
        cache.delete(SEARCH_LOCK)
    return made


def play_computer_games(
    count: int,
    *,
    preset: str = "duel-block",
    level: str = "easy",
    seed: str = "puzzles",
    rules: Rules | None = None,
) -> list[Game]:
    """Play ``count`` whole games between computers at public tables (the
    preset's rules, or ``rules``: a table's choices of it, ``rules_for``), dealt
    from the server seeds ``f"{seed}-{n}"`` for n = 0, 1, ... (a seed that
    dealt a game already is passed over: a seed deals one game; the same seed
    gives the same game), through the table services: their replays are published
    like any other game's, so a puzzle from them can be checked by anyone."""
    rules = rules or PRESETS[preset]
    games: list[Game] = []
    n = 0
    while len(games) < count:
        try:
            table = table_services.create_table(
                kind=Table.Kind.COMPUTER,
                rules=rules,
                preset=preset,
                seats=[table_services.SeatSpec(level=level) for _ in range(rules.players)],
                public=True,
                server_seed=f"{seed}-{n}",
            )
        except table_services.NotAllowed:
            n += 1  # this seed dealt a game already (an earlier run): the next one
            continue
        n += 1
        game = Game.objects.get(table=table)
        for _ in range(5000):
            game.refresh_from_db()
            if game.finished:
                break
            decision = table_services.decide_computer_turn(game_id=game.pk, seq=game.seq)
            if decision is not None:
                table_services.apply_computer_turn(decision)
        else:  # pragma: no cover - a game of dominoes always ends
            raise RuntimeError(f"the computer game {game.pk} did not end")
        games.append(game)
    return games


@dataclass(frozen=True)
class Answer:
    correct: bool
    puzzle: Puzzle
    given: list[Any]  # the answer as kept: the tile [a, b], or an inference's tiles
    rated: bool = False
    rating_before: int | None = None
    rating_after: int | None = None


def parse_play(puzzle: Puzzle, tile: str, end: str) -> tuple[list[int], str]:
    """``"a-b"`` and ``"left"|"right"`` as one of the position's plays, or ``BadAnswer``."""
    try:
        a, b = (int(part) for part in tile.split("-"))
    except ValueError as error:
        raise BadAnswer("tile must be written a-b, e.g. 3-5") from error
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise BadAnswer("tile numbers go from 0 to 6")
    if end not in ENDS:
        raise BadAnswer('end must be "left" or "right"')
    pair = sorted([a, b])
    for alt in puzzle.alternatives:
        if alt["tile"] == pair and (
            end in alt["ends"] or (len(alt["ends"]) == 1 and not puzzle.position["line"])
        ):
            return pair, end
    raise BadAnswer("that tile cannot be played on that end in this position")


def parse_tiles(puzzle: Puzzle, tiles: str) -> list[list[int]]:
    """An inference answer: the tiles chosen (``"a-b a-b ..."``), each among
    the position's unseen tiles, or ``BadAnswer``."""
    assert puzzle.inference is not None
    unseen = {tuple(tile) for tile in puzzle.inference["unseen"]}
    chosen: set[tuple[int, int]] = set()
    for word in tiles.replace(",", " ").split():
        try:
            a, b = (int(part) for part in word.split("-"))
        except ValueError as error:
            raise BadAnswer("tile must be written a-b, e.g. 3-5") from error
        if not (0 <= a <= 6 and 0 <= b <= 6):
            raise BadAnswer("tile numbers go from 0 to 6")
        pair = (min(a, b), max(a, b))
        if pair not in unseen:
            raise BadAnswer("that tile is not one the player to move cannot see")
        chosen.add(pair)
    return [list(pair) for pair in sorted(chosen)]


def is_solution(puzzle: Puzzle, tile: list[int], end: str) -> bool:
    return bool(tile == puzzle.solution_tile and (end in puzzle.solution_ends or not puzzle.position["line"]))


def answer(
    puzzle: Puzzle,
    *,
    user: AbstractBaseUser | AnonymousUser | None,
    session_key: str,
    tile: str,
    end: str,
    tiles: str = "",
) -> Answer:
    """Record an answer (an inference puzzle's is ``tiles``, at least one,
    right when it is exactly the tiles the opponent may hold; a play
    puzzle's is ``tile`` and ``end``; an answer of the other family's shape
    is a ``BadAnswer``, and nothing is written). A member's first answer to a
    puzzle moves their puzzle rating and the puzzle's (OpenSkill: a win for
    whoever was right); later answers and guests' answers count in the
    puzzle's figures only."""
    given: list[Any]
    if puzzle.kind == Puzzle.Kind.INFER:
        if tile or end:
            raise BadAnswer("this puzzle asks for tiles, not a play")
        given = parse_tiles(puzzle, tiles)
        if not given:
            raise BadAnswer("no tile chosen")
        end = ""
        assert puzzle.inference is not None
        correct = given == sorted(list(tile) for tile in puzzle.inference["possible"])
    else:
        if tiles:
            raise BadAnswer("this puzzle asks for a play, not tiles")
        pair, end = parse_play(puzzle, tile, end)
        given = pair
        correct = is_solution(puzzle, pair, end)
    member = user if user is not None and user.is_authenticated else None
    with transaction.atomic():
        locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        Puzzle.objects.filter(pk=puzzle.pk).update(
            attempts=F("attempts") + 1, solved=F("solved") + (1 if correct else 0)
        )
        rated = False
        before = after = None
        if member is not None and not Attempt.objects.filter(puzzle=locked, user_id=member.pk).exists():
            rating, _ = PuzzleRating.objects.select_for_update().get_or_create(user_id=member.pk)
            before = rating.mu
            (mine,), (theirs,) = rate_match(
                [[Skill(rating.mu, rating.sigma)], [Skill(locked.mu, locked.sigma)]],
                [1, 2] if correct else [2, 1],
            )
            rating.mu, rating.sigma = mine.mu, mine.sigma
            if correct:
                rating.solved += 1
            else:
                rating.failed += 1
            rating.save()
            Puzzle.objects.filter(pk=puzzle.pk).update(mu=theirs.mu, sigma=theirs.sigma)
            after = rating.mu
            rated = True
        Attempt.objects.create(
            puzzle=locked,
            user_id=member.pk if member is not None else None,
            session_key="" if member is not None else session_key,
            tile=given,
            end=end,
            correct=correct,
            rated=rated,
            rating_before=before,
            rating_after=after,
        )
    return Answer(
        correct=correct,
        puzzle=puzzle,
        given=given,
        rated=rated,
        rating_before=display_rating(before) if before is not None else None,
        rating_after=display_rating(after) if after is not None else None,
    )


# The streak mode's run, kept in the viewer's session (guests have one too):
# {"current": right answers so far, "puzzle": the puzzle dealt and not yet
# answered (or None), "after": [mu, id] of the last puzzle dealt, "done":
# the run's puzzles, "best": a guest's best run}.
STREAK_KEY = "puzzles.streak"


def new_streak(best: int = 0) -> dict[str, Any]:
    return {"current": 0, "puzzle": None, "after": None, "done": [], "best": best}


def deal_streak_puzzle(run: dict[str, Any]) -> Puzzle | None:
    """The run's puzzle: the one dealt and not answered yet, else the next
    harder one (``run`` is updated). None when no puzzle is left."""
    if run["puzzle"] is not None:
        current = Puzzle.objects.filter(pk=run["puzzle"]).first()
        if current is not None:
            return current
    after = (float(run["after"][0]), int(run["after"][1])) if run["after"] is not None else None
    puzzle = selectors.streak_next(after=after, done=run["done"])
    run["puzzle"] = puzzle.pk if puzzle is not None else None
    if puzzle is not None:
        run["after"] = [puzzle.mu, puzzle.pk]
    return puzzle


@dataclass(frozen=True)
class StreakResult:
    current: int
    best: int
    over: bool


def streak_answer(
    run: dict[str, Any], puzzle: Puzzle, correct: bool, *, user_id: int | None
) -> StreakResult | None:
    """Count an answer in the streak run when ``puzzle`` is the one the run
    dealt (else None and nothing changes). Right: the run goes on, one
    longer; wrong: it is over and a new one starts at the next visit. A
    member's best run is kept in their puzzle rating's row, a guest's in the
    run itself."""
    if run.get("puzzle") != puzzle.pk:
        return None
    run["puzzle"] = None
    run["done"] = [*run["done"], puzzle.pk]
    length = run["current"] + 1 if correct else run["current"]
    best = int(run.get("best", 0))
    if user_id is not None:
        with transaction.atomic():
            rating, _ = PuzzleRating.objects.select_for_update().get_or_create(user_id=user_id)
            if length > rating.best_streak:
                rating.best_streak = length
                rating.save(update_fields=["best_streak", "updated_at"])
            best = rating.best_streak
    else:
        best = max(best, length)
    if correct:
        run["current"] = length
        run["best"] = best
        return StreakResult(current=length, best=best, over=False)
    run.clear()
    run.update(new_streak(best if user_id is None else 0))
    return StreakResult(current=length, best=best, over=True)
