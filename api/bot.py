"""The reference bot (docs/api.md): plays only through the HTTP API, with one
of the site's computer levels as its brain (``games.ai.choose_action`` on the
view the game stream gives it). Standard library only, besides the brain.

    python -m api.bot --url http://127.0.0.1:8000 --token dom_... --upgrade --computer hard
    python -m api.bot --url ... --token ... --accept        # answer challenges, play them

Prints one line per game it finished: ``finished <id> <scores> winner <seat>``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
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

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
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


def play_game(api: Api, game_id: int, level: str) -> dict[str, Any]:
    """Play one game to its end; returns its last line."""
    seq: int | None = None
    last: dict[str, Any] = {}
    while True:
        path = f"/api/{api.prefix}/game/stream/{game_id}" + ("" if seq is None else f"?seq={seq}")
        try:
            for line in api.stream(path):
                last, seq = line, line.get("seq", seq)
                if line.get("gameOver") or line.get("status") in ("finished", "aborted"):
                    return line
                if line.get("legal"):
                    status, answer = api.call("POST", f"/api/{api.prefix}/game/{game_id}/move/{choose(line, level)}?seq={seq}")
                    if status not in (200, 409):  # 409: another event came first; the next line says which
                        raise RuntimeError(f"move refused: {status} {answer}")
                elif line.get("nextRound"):
                    api.call("POST", f"/api/{api.prefix}/game/{game_id}/next-round?seq={seq}")
            return last  # the server ended the stream: the game is over
        except (urllib.error.URLError, TimeoutError, ConnectionError):
            continue  # dropped: resume from the last seq seen, nothing is missed


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
    args = parser.parse_args(argv)
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
        _report(answer["game"]["id"], play_game(api, answer["game"]["id"], args.brain))
        return 0
    if args.accept:
        played = 0
        for event in api.stream("/api/stream/event"):
            if event["type"] == "challenge" and event["challenge"]["status"] == "created":
                api.call("POST", f"/api/challenge/{event['challenge']['id']}/accept")
            elif event["type"] == "gameStart" and event["game"]["status"] in ("waiting", "playing"):
                _report(event["game"]["id"], play_game(api, event["game"]["id"], args.brain))
                played += 1
                if played >= args.games:
                    return 0
        return 0
    parser.error("say what to play: --computer LEVEL or --accept")
    return 2


def _report(game_id: int, line: dict[str, Any]) -> None:
    over = line.get("gameOver") or {}
    print(f"finished {game_id} {over.get('scores')} winner {over.get('winner')}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
