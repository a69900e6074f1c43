"""The puzzle pages: thin (parse, call a service or a selector, answer)."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games.models import Seat
from games.play import selectors as game_selectors
from puzzles import selectors, services
from puzzles.models import Puzzle
from puzzles.wording import explain, history_text, infer_rows, infer_verdict, step_text, verdict


def _puzzle_or_404(puzzle_id: int) -> Puzzle:
    puzzle = selectors.get_puzzle(puzzle_id)
    if puzzle is None:
        raise Http404("no such puzzle")
    return puzzle


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def next_puzzle(request: HttpRequest) -> HttpResponse:
    seen = (
        [] if request.user.is_authenticated else selectors.seen_by_session(request.session.session_key or "")
    )
    puzzle = selectors.next_puzzle(user_id=_user_id(request), seen=seen)
    if puzzle is None:
        return render(request, "puzzles/none.html", status=200)
    return redirect("puzzles:puzzle", puzzle_id=puzzle.pk)


def daily(request: HttpRequest) -> HttpResponse:
    puzzle = selectors.daily_puzzle()
    if puzzle is None:
        return render(request, "puzzles/none.html")
    return _page(request, puzzle, daily=True)


def puzzle_page(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    return _page(request, _puzzle_or_404(puzzle_id), daily=False)


def _streak_run(request: HttpRequest) -> dict[str, Any]:
    run = request.session.get(services.STREAK_KEY)
    return dict(run) if isinstance(run, dict) else services.new_streak()


def streak(request: HttpRequest) -> HttpResponse:
    """The streak mode: puzzles of rising rating, one after the other, until
    the first wrong answer."""
    run = _streak_run(request)
    puzzle = services.deal_streak_puzzle(run)
    request.session[services.STREAK_KEY] = run
    best = _best_streak(request, run)
    if puzzle is None:
        return render(request, "puzzles/streak_done.html", {"current": run["current"], "best": best})
    return _page(request, puzzle, daily=False, streak={"current": run["current"], "best": best})


def _best_streak(request: HttpRequest, run: dict[str, Any]) -> int:
    if request.user.is_authenticated:
        return selectors.best_streak(request.user.pk)
    return int(run.get("best", 0))


def _page(
    request: HttpRequest, puzzle: Puzzle, *, daily: bool, streak: dict[str, int] | None = None
) -> HttpResponse:
    names = game_selectors.seat_names(Seat.objects.filter(table_id=puzzle.table_id))
    position = puzzle.position
    if puzzle.kind == Puzzle.Kind.INFER:
        return _infer_page(request, puzzle, names, daily=daily, streak=streak)
    hands = [
        {
            "seat": seat,
            "name": names.get(seat, str(seat + 1)),
            "tiles": tiles,
            "to_move": seat == puzzle.to_move,
        }
        for seat, tiles in enumerate(position["hands"])
    ]
    ends: dict[tuple[int, ...], list[str]] = {}
    same: set[tuple[int, ...]] = set()
    for alt in puzzle.alternatives:
        ends.setdefault(tuple(alt["tile"]), []).extend(alt["ends"])
        if len(alt["ends"]) > 1:
            same.add(tuple(alt["tile"]))
    mine = [
        {"tile": tile, "ends": ends.get(tuple(tile), []), "same": tuple(tile) in same}
        for tile in position["hands"][puzzle.to_move]
    ]
    context: dict[str, Any] = {
        "puzzle": puzzle,
        "daily": daily,
        "hands": hands,
        "mine": mine,
        "line": [tuple(pair) for pair in position["line"]],
        "boneyard": position["boneyard"],
        "ends": _line_ends(position["line"]),
        "to_move_name": names.get(puzzle.to_move, str(puzzle.to_move + 1)),
        "rating": selectors.puzzle_rating(puzzle),
        "member_rating": selectors.member_rating(request.user.pk) if request.user.is_authenticated else None,
        "streak": streak,
        "best_streak": streak["best"] if streak else _best_streak(request, _streak_run(request)),
    }
    return render(request, "puzzles/puzzle.html", context)


def _infer_page(
    request: HttpRequest, puzzle: Puzzle, names: dict[int, str], *, daily: bool, streak: dict[str, int] | None
) -> HttpResponse:
    question = puzzle.inference or {}
    position = puzzle.position
    seat, opponent = int(question["seat"]), int(question["opponent"])
    context: dict[str, Any] = {
        "puzzle": puzzle,
        "daily": daily,
        "streak": streak,
        "best_streak": streak["best"] if streak else _best_streak(request, _streak_run(request)),
        "mine": position["hands"][seat],
        "line": [tuple(pair) for pair in position["line"]],
        "ends": _line_ends(position["line"]),
        "counts": [
            {"seat": n, "name": names.get(n, str(n + 1)), "count": count}
            for n, count in enumerate(position["counts"])
            if n != seat
        ],
        "boneyard_count": position.get("boneyard_count", 0),
        "history": [history_text(entry, names) for entry in question["history"]],
        "unseen": question["unseen"],
        "name": names.get(seat, str(seat + 1)),
        "opponent_name": names.get(opponent, str(opponent + 1)),
        "held": question["held"],
        "rating": selectors.puzzle_rating(puzzle),
        "member_rating": selectors.member_rating(request.user.pk) if request.user.is_authenticated else None,
    }
    return render(request, "puzzles/infer.html", context)


def _line_ends(line: list[list[int]]) -> tuple[int, int] | None:
    if not line:
        return None
    return line[0][0], line[-1][1]


def puzzle_json(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    return JsonResponse(selectors.puzzle_json(_puzzle_or_404(puzzle_id)))


@require_POST
def solve(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    puzzle = _puzzle_or_404(puzzle_id)
    if not request.session.session_key:
        request.session.save()
    try:
        result = services.answer(
            puzzle,
            user=request.user,
            session_key=request.session.session_key or "",
            tile=str(request.POST.get("tile", "")),
            end=str(request.POST.get("end", "")),
            tiles=str(request.POST.get("tiles", "")),
        )
    except services.BadAnswer as error:
        return JsonResponse({"error": _bad_answer(str(error))}, status=400)
    names = game_selectors.seat_names(Seat.objects.filter(table_id=puzzle.table_id))
    data: dict[str, Any]
    if puzzle.kind == Puzzle.Kind.INFER:
        assert puzzle.inference is not None
        data = {
            "correct": result.correct,
            "solution": list(puzzle.inference["possible"]),
            "tiles": list(puzzle.inference["possible"]),
            "verdict": infer_verdict(puzzle, result.correct),
            "steps": [],
            "alternatives": infer_rows(puzzle, result.given),
        }
    else:
        data = _play_reply(puzzle, result.correct, names)
    if result.rated:
        data["rating"] = {"before": result.rating_before, "after": result.rating_after}
        data["rating_text"] = _("Your puzzle rating: %(before)s → %(after)s.") % {
            "before": result.rating_before,
            "after": result.rating_after,
        }
    if request.POST.get("streak") == "1":
        run = _streak_run(request)
        counted = services.streak_answer(run, puzzle, result.correct, user_id=_user_id(request))
        if counted is not None:
            request.session[services.STREAK_KEY] = run
            data["streak"] = {"current": counted.current, "best": counted.best, "over": counted.over}
            data["streak_text"] = _streak_text(counted)
    return JsonResponse(data)


def _play_reply(puzzle: Puzzle, correct: bool, names: dict[int, str]) -> dict[str, Any]:
    return {
        "correct": correct,
        "solution": list(puzzle.line),
        "tile": list(puzzle.solution_tile),
        "end": puzzle.solution_ends[0],
        "verdict": verdict(puzzle, correct),
        "steps": [step_text(step, names) for step in puzzle.line],
        "alternatives": explain(puzzle),
    }


def _streak_text(counted: services.StreakResult) -> str:
    if counted.over:
        text = ngettext(
            "Streak over: %(n)d puzzle solved in a row.",
            "Streak over: %(n)d puzzles solved in a row.",
            counted.current,
        ) % {"n": counted.current}
    else:
        text = ngettext(
            "Streak: %(n)d puzzle solved in a row.", "Streak: %(n)d puzzles solved in a row.", counted.current
        ) % {"n": counted.current}
    return f"{text} " + _("Your best streak: %(best)d.") % {"best": counted.best}


def _bad_answer(reason: str) -> str:
    if reason.startswith("tile must"):
        return _("Write the tile as two numbers, e.g. 3-5.")
    if reason.startswith("tile numbers"):
        return _("A tile's numbers go from 0 to 6.")
    if reason.startswith("end must"):
        return _("Choose the left or the right end.")
    if reason.startswith("this puzzle asks for tiles"):
        return _("This puzzle asks which tiles the opponent may hold: choose tiles, not a play.")
    if reason.startswith("this puzzle asks for a play"):
        return _("This puzzle asks for a play: choose a tile and an end.")
    if reason.startswith("no tile chosen"):
        return _("Choose at least one tile.")
    if reason.startswith("that tile is not one"):
        return _("Choose only among the tiles you cannot see.")
    return _("That tile cannot be played on that end in this position.")


def export_csv(request: HttpRequest) -> StreamingHttpResponse:
    class Echo:
        def write(self, value: str) -> str:
            return value

    writer = csv.writer(Echo())
    response = StreamingHttpResponse(
        (writer.writerow(row) for row in selectors.csv_rows()), content_type="text/csv"
    )
    response["Content-Disposition"] = 'attachment; filename="puzzles.csv"'
    return response


@login_required
def my_history(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "puzzles/history.html",
        {"attempts": selectors.history(request.user.pk), "rating": selectors.member_rating(request.user.pk)},
    )
