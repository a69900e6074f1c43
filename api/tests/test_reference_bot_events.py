"""The reference bot's reading of its event stream, without a site: the
stream's lines are given, the HTTP calls recorded (api/bot.py)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from api import bot

pytestmark = pytest.mark.pure


class FakeApi:
    """What the site would answer: an event stream and game streams given as lists."""

    def __init__(self, events: list[dict[str, Any]], games: dict[int, list[dict[str, Any]]]) -> None:
        self.events = events
        self.games = games
        self.calls: list[tuple[str, str]] = []
        self.prefix = "bot"

    def stream(self, path: str) -> Generator[dict[str, Any], None, None]:
        if path == "/api/stream/event":
            yield from self.events
            return
        game_id = int(path.split("/game/stream/")[1].split("?")[0])
        yield from self.games[game_id]

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        self.calls.append((method, path))
        return 200, {}


def finished(table_id: int) -> dict[str, Any]:
    return {"type": "gameStart", "game": {"id": table_id, "seat": 1, "status": "finished"}}


def run(monkeypatch: pytest.MonkeyPatch, fake: FakeApi, *argv: str) -> int:
    monkeypatch.setattr(bot, "Api", lambda url, token, prefix="bot": fake)
    return bot.main(["--token", "dom_x", *argv])


def test_a_game_that_ended_before_the_bot_looked_counts_as_played(monkeypatch, capsys):
    # The challenge accepted, then the game started and ended between two looks
    # of the event stream (its seat played by the turn clock): the stream's
    # gameStart says "finished". The bot used to wait for another game forever.
    over = {"seq": 40, "status": "finished", "gameOver": {"scores": [0, 31], "winner": 1}}
    fake = FakeApi(
        events=[
            {"type": "challenge", "challenge": {"id": 5, "status": "created"}},
            finished(12),
            {"type": "gameFinish", "game": {"id": 12, "seat": 1, "status": "finished"}},
        ],
        games={12: [over]},
    )
    assert run(monkeypatch, fake, "--accept", "--games", "1") == 0
    assert ("POST", "/api/challenge/5/accept") in fake.calls
    assert capsys.readouterr().out.split()[:2] == ["finished", "12"]


def test_verbose_traces_each_event_on_the_standard_error(monkeypatch, capsys):
    fake = FakeApi(events=[finished(3)], games={3: [{"seq": 9, "status": "finished", "gameOver": {}}]})
    monkeypatch.setattr(bot, "TRACE", False)
    assert run(monkeypatch, fake, "--accept", "--verbose") == 0
    err = capsys.readouterr().err
    assert '"type": "gameStart"' in err
    assert "game line seq=9 status=finished" in err


class CappedStreams(FakeApi):
    """Game streams ended by the server before the game's end (API_STREAM_MAX_SECONDS):
    each call gives the next list of lines, and the paths asked are kept."""

    def __init__(self, streams: list[list[dict[str, Any]]]) -> None:
        super().__init__(events=[], games={})
        self.streams = streams
        self.paths: list[str] = []

    def stream(self, path: str) -> Generator[dict[str, Any], None, None]:
        self.paths.append(path)
        yield from self.streams.pop(0)


def test_a_game_stream_ended_before_the_games_end_is_resumed_from_the_last_seq(monkeypatch):
    monkeypatch.setattr(bot.time, "sleep", lambda _seconds: None)
    over = {"type": "gameState", "seq": 7, "status": "finished", "gameOver": {"scores": [12, 0], "winner": 0}}
    waiting = {"type": "gameState", "seq": 5, "status": "playing", "legal": []}
    fake = CappedStreams([[{"type": "gameFull", "seq": 4, "status": "playing", "legal": []}], [waiting], [], [over]])
    assert bot.play_game(fake, 3, "easy") == over  # type: ignore[arg-type]
    # Resumed after seq 4, then 5; a stream with no line at all: read whole again.
    assert fake.paths == [
        "/api/bot/game/stream/3",
        "/api/bot/game/stream/3?seq=4",
        "/api/bot/game/stream/3?seq=5",
        "/api/bot/game/stream/3",
    ]
