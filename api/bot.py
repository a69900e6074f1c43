"""The reference bot (docs/api.md): plays only through the HTTP API, with one
of the site's computer levels as its brain (``games.ai.choose_action`` on the
view the game stream gives it). Standard library only, besides the brain.

    python -m api.bot --url http://127.0.0.1:8000 --token dom_... --upgrade --computer hard
    python -m api.bot --url ... --token ... --accept        # answer challenges, play them
    python -m api.bot --url ... --token ... --challenge alice --export games/   # challenge, play, download

Prints one line per game it finished: ``finished <id> <scores> winner <seat>``;
with ``--export DIR``, downloads each finished game in the notation to
``DIR/dominoes-<id>.txt`` and prints ``exported <path>``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Generator
from pathlib import Path
from typing import Any

from games.ai import LEVELS, choose_action
from games.engine import Event, PlayerView
from games.engine.notation import token


class Api:
    """The site's API with a bearer token."""

    def __init__(self, url: str, token: str, *, prefix: str = "bot") -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"the site's address must start with http:// or https://, not {url!r}")
        self.url = url.rstrip("/")
        self.token = token
        self.prefix = prefix

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)  # noqa: S310 (checked in __init__)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        try:
            with urllib.request.urlopen(self._request(method, path, body), timeout=30) as answer:  # noqa: S310
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def text(self, path: str) -> tuple[int, str]:
        """A plain text answer (a game's record) and its status."""
        try:
            with urllib.request.urlopen(self._request("GET", path), timeout=30) as answer:  # noqa: S310
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def stream(self, path: str) -> Generator[dict[str, Any], None, None]:
        """The objects of an ndjson stream, keep-alive lines skipped."""
        with urllib.request.urlopen(self._request("GET", path), timeout=60) as answer:  # noqa: S310
            for raw in answer:
                text = raw.strip()
                if text:
                    yield json.loads(text)


def choose(line: dict[str, Any], level: str) -> str:
    """The brain: the computer level's action for this view, in the notation."""
    view = PlayerView.from_dict(line["view"])
    action = choose_action(view, level)
    written = token(Event.from_action(action), first=not view.line)
    if written not in line["legal"]:
        raise RuntimeError(f"the brain chose {written}, not among {line['legal']}")
    return written


def trace(message: str) -> None:
    """With ``--verbose``, one line to the standard error per step (what a hang was doing)."""
    if TRACE:
        print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


TRACE = False


def play_game(api: Api, game_id: int, level: str) -> dict[str, Any]:
    """Play one game to its end (a game already over: its last line at once);
    returns its last line. A stream that ends or drops before a ``gameOver``
    line (or an aborted ``status``) is opened again from the last ``seq`` read
    (docs/api.md, "A stream's lifetime"); one that ended with no line at all is
    opened again whole, its first line saying where the game is."""
    seq: int | None = None
    while True:
        path = f"/api/{api.prefix}/game/stream/{game_id}" + ("" if seq is None else f"?seq={seq}")
        trace(f"game stream {path}")
        read = 0
        try:
            for line in api.stream(path):
                read += 1
                seq = line.get("seq", seq)
                trace(f"game line seq={seq} status={line.get('status')} legal={len(line.get('legal') or [])}")
                if line.get("gameOver") or line.get("status") in ("finished", "aborted"):
                    return line
                if line.get("legal"):
                    status, answer = api.call("POST", f"/api/{api.prefix}/game/{game_id}/move/{choose(line, level)}?seq={seq}")
                    if status not in (200, 409):  # 409: another event came first; the next line says which
                        raise RuntimeError(f"move refused: {status} {answer}")
                elif line.get("nextRound"):
                    api.call("POST", f"/api/{api.prefix}/game/{game_id}/next-round?seq={seq}")
            trace(f"game stream ended before the game's end after {read} line(s)")
            if not read:
                seq = None
                time.sleep(0.5)
        except urllib.error.HTTPError as error:
            if error.code < 500:  # not this bot's game, or no such game: no retry helps
                raise RuntimeError(f"the game stream {path} answered {error.code}") from None
            trace(f"game stream answered {error.code}")
            time.sleep(0.5)
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            trace(f"game stream dropped: {error!r}")
            time.sleep(0.5)  # dropped: resume from the last seq seen, nothing is missed


def export_game(api: Api, game_id: int, folder: Path) -> Path:
    """Download a finished game's record in the notation (``/game/<id>/export``,
    docs/notation.md) into ``folder``; returns the file written."""
    status, text = api.text(f"/game/{game_id}/export")
    if status != 200:
        raise RuntimeError(f"the export of game {game_id} answered {status}")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"dominoes-{game_id}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def challenge_and_play(api: Api, args: argparse.Namespace) -> int:
    """Send a challenge to ``args.challenge``, wait on the event stream until it is
    answered, and play the game it opens."""
    body = {"preset": args.preset, "target": args.target, "players": args.players, "rated": args.rated}
    status, sent = api.call("POST", f"/api/challenge/{args.challenge}", body)
    if status != 200:
        print(f"challenge refused: {sent.get('message')}", file=sys.stderr)
        return 1
    print(f"challenged {args.challenge} {sent['id']}", flush=True)
    for event in api.stream("/api/stream/event"):
        trace(f"event {json.dumps(event)[:200]}")
        game_id = None
        if event["type"] == "challenge" and event["challenge"]["id"] == sent["id"]:
            answer = event["challenge"]
            if answer["status"] not in ("created", "accepted"):
                print(f"challenge {answer['status']}", file=sys.stderr)
                return 1
            game_id = answer["game"] if answer["status"] == "accepted" else None
        elif (
            event["type"] == "gameStart"
            and event["game"]["status"] in ("waiting", "playing")
            and _seats(api, event["game"]["id"], args.challenge)
        ):
            # Accepted before this stream connected: the game is among those in progress.
            game_id = event["game"]["id"]
        if game_id:
            _finished(api, game_id, play_game(api, game_id, args.brain), args.export)
            return 0
    return 1


def _seats(api: Api, game_id: int, username: str) -> bool:
    """Whether ``username`` sits at the game (its stream's first line names the players)."""
    lines = api.stream(f"/api/{api.prefix}/game/stream/{game_id}")
    try:
        first = next(lines, {})
    finally:
        lines.close()
    return any(player.get("member") == username for player in first.get("players", []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m api.bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("DOMINOES_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("DOMINOES_TOKEN", ""))
    parser.add_argument("--brain", choices=LEVELS, default="hard", help="the computer level that chooses the moves")
    parser.add_argument("--upgrade", action="store_true", help="turn the account into a bot first (irreversible)")
    parser.add_argument("--computer", choices=LEVELS, help="play one game against the computer of this level")
    parser.add_argument("--preset", default="duel-block")
    parser.add_argument("--target", type=int, default=0)
    parser.add_argument("--accept", action="store_true", help="accept every challenge and play it")
    parser.add_argument("--games", type=int, default=1, help="with --accept: stop after this many games")
    parser.add_argument("--board", action="store_true", help="use the board API (a person's account)")
    parser.add_argument("--challenge", metavar="USERNAME", help="challenge this member or bot, then play the game")
    parser.add_argument("--players", type=int, default=2, help="with --challenge: seats at the table (2 to 4)")
    parser.add_argument("--rated", action="store_true", help="with --challenge: a rated game")
    parser.add_argument("--export", metavar="DIR", type=Path,
                        help="download each finished game in the notation to DIR/dominoes-<id>.txt")
    parser.add_argument("--verbose", action="store_true", help="trace each event and game line on the standard error")
    args = parser.parse_args(argv)
    global TRACE
    TRACE = args.verbose
    if not args.token:
        parser.error("a token is needed (--token or DOMINOES_TOKEN), made on /account/tokens/")
    api = Api(args.url, args.token, prefix="board" if args.board else "bot")
    if args.upgrade:
        status, answer = api.call("POST", "/api/bot/account/upgrade")
        if status != 200:
            print(f"upgrade refused: {answer.get('message')}", file=sys.stderr)
            return 1
    if args.computer:
        status, answer = api.call(
            "POST", "/api/challenge/ai", {"level": args.computer, "preset": args.preset, "target": args.target}
        )
        if status != 200:
            print(f"no game: {answer.get('message')}", file=sys.stderr)
            return 1
        _finished(api, answer["game"]["id"], play_game(api, answer["game"]["id"], args.brain), args.export)
        return 0
    if args.challenge:
        return challenge_and_play(api, args)
    if args.accept:
        played = 0
        for event in api.stream("/api/stream/event"):
            trace(f"event {json.dumps(event)[:200]}")
            if event["type"] == "challenge" and event["challenge"]["status"] == "created":
                status, _answer = api.call("POST", f"/api/challenge/{event['challenge']['id']}/accept")
                trace(f"accept: {status}")
            elif event["type"] == "gameStart":
                # Even a game over already (it started and ended between two
                # looks of the stream): it was this bot's, and it counts.
                _finished(api, event["game"]["id"], play_game(api, event["game"]["id"], args.brain), args.export)
                played += 1
                if played >= args.games:
                    return 0
        return 0
    parser.error("say what to play: --computer LEVEL, --challenge USERNAME or --accept")
    return 2


def _finished(api: Api, game_id: int, line: dict[str, Any], export: Path | None) -> None:
    over = line.get("gameOver") or {}
    print(f"finished {game_id} {over.get('scores')} winner {over.get('winner')}", flush=True)
    if export is not None:
        print(f"exported {export_game(api, game_id, export)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
