"""The live table page in headless Chromium.

Scripted tests render games/table.html and route its websocket (Playwright's
``route_web_socket``) to ``ScriptedTable``: a stand-in for the consumer that
runs the real engine and speaks the protocol of docs/protocol.md, so a
situation (a tile fitting both ends, a dropped connection, a stale move) can be
built on purpose. Live tests play on the real site (Daphne, consumer, computer
moves) from the home page to the game-over panel.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    Draw,
    IllegalAction,
    Pass,
    Play,
    Tile,
    action_from_json,
    apply_action,
    legal_actions,
    new_game,
    next_round,
    resign,
    rules_for,
    view_for,
)
from games.live.reactions import REACTION_IDS
from tests.support.browser import ACTIONABLE, DESKTOP, PHONE, act

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
OVERFLOW = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const outside = [...document.querySelectorAll('#line [data-line-tile], #line [data-end]')].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.left < board.left - 0.5 || box.right > board.right + 0.5;
  }).length;
  return {scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth, outside,
          tiles: document.querySelectorAll('#line [data-line-tile]').length};
}"""


def play_to_the_end(
    page, rng: random.Random, *, each_step: Callable | None = None, max_steps: int = 4000
) -> Counter:
    """Click through a whole game as the page offers it: a random playable
    tile (and an end when both glow), draw, pass, next round. Returns counts."""
    done: Counter = Counter()
    for _ in range(max_steps):
        what = page.wait_for_function(ACTIONABLE, timeout=30_000).json_value()
        if each_step is not None:
            each_step(page)
        if what == "over":
            return done
        glowing = act(page, what, rng)
        if glowing:
            assert glowing == 2
            done["both_ends"] += 1
        done[what] += 1
    raise AssertionError(f"the game did not end in {max_steps} steps: {dict(done)}")


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


class LineFits:
    """A check for ``play_to_the_end(each_step=...)``: the page is no wider than
    the screen and no line tile or end sticks out of the board. Screenshots
    ``name`` the first time the line reaches ``shot_at`` tiles; ``widest`` is
    the longest line seen."""

    def __init__(self, name: str, *, shot_at: int) -> None:
        self.name = name
        self.shot_at = shot_at
        self.widest = 0

    def __call__(self, page) -> None:
        sizes = page.evaluate(OVERFLOW)
        assert sizes["scroll"] <= sizes["inner"], sizes
        assert sizes["outside"] == 0, sizes
        if sizes["tiles"] >= self.shot_at > self.widest:
            screenshot(page, self.name)
        self.widest = max(self.widest, sizes["tiles"])


def new_page(new_context, *, viewport=DESKTOP, locale="en-GB"):
    """A page in a context of its own, and the list its script errors go to."""
    page = new_context(viewport=viewport, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


# ---------------------------------------------------------------- scripted


class ScriptedTable:
    """One seated viewer at a table whose other seats play random legal moves."""

    def __init__(self, state: Any, *, seat: int = 0, seed: int = 0) -> None:
        self.state = state
        self.seat = seat
        self.seq = 0
        self.rng = random.Random(seed)
        self.sockets: list[Any] = []
        self.received: list[dict] = []
        self.refuse_next_as_stale = False
        self.abort_on_resign = False

    # frames -------------------------------------------------------------
    def state_frame(self) -> dict:
        view = view_for(self.state, self.seat).to_dict()
        legal = list(view["legal"])
        if self.seat is not None and self.state.round_over and not self.state.game_over:
            legal.append({"type": "next_round"})
        return {
            "type": "state",
            "seq": self.seq,
            "view": view,
            "legal": legal,
            "table": {"spectators": 1, "commitment": "c0ffee" * 10 + "beef"},
        }

    def result_frames(self) -> list[dict]:
        frames = []
        if self.state.round_over and self.state.round_result is not None:
            frames.append(
                {
                    "type": "round_over",
                    "seq": self.seq,
                    "result": self.state.round_result.to_dict(),
                    "hands": [[tile.to_list() for tile in hand] for hand in self.state.hands],
                    "scores": list(self.state.scores),
                }
            )
        if self.state.game_over:
            frames.append(
                {
                    "type": "game_over",
                    "seq": self.seq,
                    "scores": list(self.state.scores),
                    "winner": self.state.winner,
                }
            )
        return frames

    def send(self, *frames: dict) -> None:
        for frame in frames:
            self.sockets[-1].send(json.dumps(frame))

    # socket -------------------------------------------------------------
    def attach(self, socket: Any) -> None:
        self.sockets.append(socket)
        socket.on_message(self.receive)
        self.send(self.state_frame(), *self.result_frames())
        self.run_computers()

    def receive(self, message: str | bytes) -> None:
        frame = json.loads(message)
        self.received.append(frame)
        kind = frame.get("type")
        if kind == "sync":
            self.send(self.state_frame(), *self.result_frames())
        elif kind == "react":  # the real consumer validates it (test_consumers); here, echo it
            self.send({"type": "reaction", "seat": self.seat, "id": frame["id"]})
        elif kind == "next_round":
            self.state = next_round(self.state)
            self.seq += 1
            self.send(
                {"type": "event", "seq": self.seq, "seat": None, "action": "next_round"}, self.state_frame()
            )
            self.run_computers()
        elif kind == "resign":
            self.state = resign(self.state, self.seat)
            self.seq += 1
            self.send(
                {"type": "event", "seq": self.seq, "seat": self.seat, "action": "resign"},
                self.state_frame(),
                {
                    "type": "game_over",
                    "seq": self.seq,
                    "scores": list(self.state.scores),
                    "winner": self.state.winner,
                    "reason": "resigned",
                    "resigned": self.seat,
                    # The server's word: ended before any tile beyond the opening (games.outcome).
                    "aborted": self.abort_on_resign,
                },
            )
        elif kind in {"play", "draw", "pass"}:
            if self.refuse_next_as_stale or frame.get("seq") != self.seq:
                self.refuse_next_as_stale = False
                self.send({"type": "error", "code": "stale", "message": "stale"})
                return
            try:
                self.apply(action_from_json(frame, self.seat))
            except (ValueError, IllegalAction) as error:
                self.send({"type": "error", "code": "illegal", "message": str(error)})
                return
            self.run_computers()

    def apply(self, action: Any) -> None:
        before = self.state
        self.state = apply_action(self.state, action)
        self.seq += 1
        event: dict[str, Any] = {"type": "event", "seq": self.seq, "seat": action.seat}
        if isinstance(action, Play):
            event.update(action="play", tile=action.tile.to_list(), end=str(action.end))
        elif isinstance(action, Draw):
            event["action"] = "draw"
            if action.seat == self.seat:
                (drawn,) = set(self.state.hands[self.seat]) - set(before.hands[self.seat])
                event["tile"] = drawn.to_list()
        else:
            assert isinstance(action, Pass)
            event["action"] = "pass"
        self.send(event, self.state_frame(), *self.result_frames())

    def run_computers(self) -> None:
        while not self.state.round_over and self.state.to_move != self.seat:
            self.apply(self.rng.choice(legal_actions(self.state)))


def scripted_config(players: int, *, seat: int = 0, teams: bool = False) -> dict:
    return {
        "tableId": 1,
        "wsPath": "/ws/table/1/",
        "seat": seat,
        "players": [
            {
                "seat": s,
                "name": "Ada" if s == seat else f"Computer {s}",
                "kind": "human" if s == seat else "computer",
                "level": None if s == seat else "medium",
            }
            for s in range(players)
        ],
        "rulesUrl": "/rules/",
        "preset": "classic-block",
        "teams": teams,
        "ranked": False,
        "commitment": "c0ffee" * 10 + "beef",
        "reactions": list(REACTION_IDS),
    }


def table_page_html(config: dict, language: str = "en") -> str:
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django.utils import translation

    request = RequestFactory().get("/table/1/")
    request.user = AnonymousUser()
    with translation.override(language):
        return render_to_string("games/table.html", {"config": config}, request=request)


def open_scripted(
    new_context, site_server, table: ScriptedTable, config: dict, *, viewport=PHONE, locale="en-GB", before=None
):
    page, errors = new_page(new_context, viewport=viewport, locale=locale)
    if before is not None:
        before(page)  # e.g. more routes, set before the page loads
    html = table_page_html(config, locale[:2])
    url = site_server.url + "/scripted/table/1/"
    page.route(
        url, lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
    )
    page.route_web_socket("**/ws/table/1/", table.attach)
    page.on(
        "console",
        lambda message: (
            errors.append(f"console {message.type}: {message.text}") if message.type == "error" else None
        ),
    )
    page.goto(url)
    try:
        page.wait_for_selector("#line [data-line-tile]")
    except Exception:
        state = page.evaluate("document.getElementById('table').dataset.connection")
        raise AssertionError(
            f"no line: connection {state}, sockets {len(table.sockets)}, received {table.received}, errors {errors}"
        )
    return page, errors


def both_ends_table() -> ScriptedTable:
    """2 players, block game: seat 1 holds 6-6 and opens; seat 0 holds 6-3,
    which fits both ends (both show 6), and no other 6."""
    rules = rules_for("classic-block", players=2, target=50)
    mine = [Tile(6, 3), Tile(0, 0), Tile(0, 1), Tile(1, 1), Tile(1, 2), Tile(2, 2), Tile(0, 2)]
    theirs = [Tile(6, 6), Tile(5, 5), Tile(4, 4), Tile(3, 3), Tile(4, 5), Tile(3, 4), Tile(3, 5)]
    return ScriptedTable(new_game(rules, seed=5, hands=[mine, theirs]))


def test_a_tile_fitting_both_ends_makes_both_ends_glow(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2))
    assert page.locator("#line [data-end]").count() == 0
    playable = page.locator("#hand [data-tile][data-playable]")
    assert [playable.nth(i).get_attribute("data-tile") for i in range(playable.count())] == ["3-6"]
    assert page.locator("#hand [data-tile]").count() == 7
    page.click('#hand [data-tile="3-6"]')
    ends = page.locator("#line [data-end]")
    assert sorted(ends.nth(i).get_attribute("data-end") for i in range(ends.count())) == ["left", "right"]
    assert page.locator("#table-status").inner_text() == "Your turn: choose an end for the tile."
    screenshot(page, "table-both-ends-phone.png")
    # Escape puts the tile back; dragging it onto the left end plays it there.
    page.keyboard.press("Escape")
    assert ends.count() == 0
    source = page.locator('#hand [data-tile="3-6"]').bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(source["x"], source["y"] - 40, steps=4)
    left = page.locator('#line [data-end="left"]').bounding_box()
    page.mouse.move(left["x"] + left["width"] / 2, left["y"] + left["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function("document.querySelectorAll('#line [data-line-tile]').length >= 2")
    plays = [frame for frame in table.received if frame["type"] == "play"]
    assert plays == [{"type": "play", "tile": [3, 6], "end": "left", "seq": 0}]
    assert (Tile(3, 6), (3, 6)) in table.state.line  # laid left of 6-6
    assert errors == []


def test_clicking_a_glowing_end_plays_there(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=DESKTOP)
    page.click('#hand [data-tile="3-6"]')
    page.click('#line [data-end="right"]')
    page.wait_for_function("document.querySelectorAll('#line [data-line-tile]').length >= 2")
    assert [frame for frame in table.received if frame["type"] == "play"] == [
        {"type": "play", "tile": [3, 6], "end": "right", "seq": 0}
    ]
    assert errors == []


def test_the_keyboard_plays_a_tile_on_a_chosen_end(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=DESKTOP)
    page.focus('#hand [data-tile="3-6"]')
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.end") == "left"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.end") == "right"
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#line [data-line-tile]').length >= 2")
    assert [frame for frame in table.received if frame["type"] == "play"] == [
        {"type": "play", "tile": [3, 6], "end": "right", "seq": 0}
    ]
    assert errors == []


def test_phone_plays_a_whole_scripted_game_without_overflow(new_context, site_server) -> None:
    rules = rules_for("classic-block", players=4, target=100)
    table = ScriptedTable(new_game(rules, seed=11), seed=11)
    page, errors = open_scripted(new_context, site_server, table, scripted_config(4))
    check = LineFits("table-long-line-phone.png", shot_at=18)
    done = play_to_the_end(page, random.Random(11), each_step=check)
    assert table.state.game_over
    assert done["play"] > 10
    assert check.widest >= 12
    panel = page.locator("[data-game-over]")
    assert panel.is_visible()
    for score in table.state.scores:
        assert str(score) in panel.inner_text()
    screenshot(page, "table-scripted-game-over-phone.png")
    assert errors == []


def test_the_longest_line_fits_a_phone(new_context, site_server) -> None:
    """Every line of 28 tiles (random order, any opener) fits 374 px across."""
    page = new_context(viewport=PHONE).new_page()
    page.goto(site_server.url + "/static/games/js/line_layout.js")
    result = page.evaluate("""async () => {
      const { fitLine } = await import('/static/games/js/line_layout.js');
      let outside = 0, overlaps = 0, tiles = 0;
      for (let n = 0; n < 300; n += 1) {
        const line = [];
        for (let i = 0; i < 28; i += 1) {
          const a = (i * 5 + n) % 7, b = i % 4 === 0 ? a : (a + 1 + (n + i) % 6) % 7;
          line.push([a, b]);
        }
        const layout = fitLine(line, { width: 374, maxHeight: 300, opener: n % 28 });
        tiles = Math.min(tiles || 28, layout.tiles.length);
        for (const tile of layout.tiles) if (tile.x < 0 || tile.x + tile.w > 374) outside += 1;
        const boxes = layout.tiles;
        for (let i = 0; i < boxes.length; i += 1) for (let j = i + 1; j < boxes.length; j += 1) {
          const p = boxes[i], q = boxes[j];
          if (Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x) > 0.01
              && Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y) > 0.01) overlaps += 1;
        }
      }
      return { outside, overlaps, tiles };
    }""")
    assert result == {"outside": 0, "overlaps": 0, "tiles": 28}


def test_reconnects_with_sync_and_resyncs_after_a_stale_move(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2))
    table.sockets[-1].close(code=1011, reason="gone")
    page.wait_for_function("document.getElementById('table').dataset.connection === 'reconnecting'")
    page.wait_for_function("document.getElementById('table').dataset.connection === 'open'", timeout=10_000)
    page.wait_for_function("document.getElementById('table').hasAttribute('data-my-turn')")
    assert len(table.sockets) == 2
    assert {"type": "sync", "seq": 0} in table.received
    table.refuse_next_as_stale = True
    page.click('#hand [data-tile="3-6"]')
    page.click('#line [data-end="left"]')
    toast = page.locator(".toast")
    toast.first.wait_for()
    assert "catching up" in toast.first.inner_text()
    page.wait_for_function("document.getElementById('table').hasAttribute('data-my-turn')")
    assert table.received[-1] == {"type": "sync", "seq": 0}
    assert errors == []


def test_round_over_shows_every_hand_then_the_next_round(new_context, site_server) -> None:
    rules = rules_for("classic-draw", players=2, target=100)
    table = ScriptedTable(new_game(rules, seed=3), seed=3)
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=DESKTOP)
    rng = random.Random(3)
    while True:
        what = page.wait_for_function(ACTIONABLE, timeout=30_000).json_value()
        if what == "next":
            break
        assert what != "over"
        if what == "play":
            tiles = page.locator("#hand [data-tile][data-playable]")
            tiles.nth(rng.randrange(tiles.count())).click()
            if page.locator("#line [data-end]").count():
                page.click('#line [data-end="left"]')
        else:
            page.click(f'[data-action="{what}"]')
    panel = page.locator("#round-over")
    hands = panel.locator(".panel-hand")
    assert hands.count() == 2
    for seat, hand in enumerate(table.state.hands):
        assert hands.nth(seat).locator("[data-line-tile], .tile").count() == len(hand)
    screenshot(page, "table-round-over-desktop.png")
    page.click('#round-over [data-action="next_round"]')
    page.wait_for_function("document.getElementById('round-over').hidden")
    assert page.locator("#round-label").inner_text() == "Round 2"
    assert errors == []


def test_resigning_asks_first_then_ends_the_game(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2))
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click('[data-action="resign"]')
    assert not any(frame["type"] == "resign" for frame in table.received)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="resign"]')
    panel = page.locator("[data-game-over]")
    panel.wait_for()
    assert panel.locator(".panel-result").inner_text() == "You resigned. Computer 1 wins the game."
    assert page.locator('[data-action="resign"]').is_hidden()
    assert errors == []


@pytest.mark.parametrize(
    ("locale", "said"),
    [("en-GB", "Aborted: the game ended before any tile beyond the opening"), ("fr-FR", "Partie annulée : elle s")],
)
def test_an_aborted_game_says_it_counts_for_nothing(new_context, site_server, locale: str, said: str) -> None:
    table = both_ends_table()
    table.abort_on_resign = True
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), locale=locale)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="resign"]')
    panel = page.locator("[data-game-over]")
    panel.wait_for()
    assert panel.get_attribute("data-aborted") is not None
    assert said in panel.locator(".panel-result").inner_text()
    assert errors == []


def test_a_spectator_sees_every_seat_and_no_hand(new_context, site_server) -> None:
    rules = rules_for("arena", players=4, teams=True, target=100)
    table = ScriptedTable(new_game(rules, seed=8), seat=None, seed=8)
    config = scripted_config(4, teams=True)
    config["seat"] = None
    page, errors = open_scripted(new_context, site_server, table, config, viewport=DESKTOP)
    page.locator("#round-over").wait_for()  # the four computers finish the round
    assert page.locator("#players .player").count() == 4
    assert page.locator("#me").is_hidden()
    assert page.locator("[data-tile]").count() == 0
    assert page.locator('[data-action="resign"]').is_hidden()
    assert page.locator('#round-over [data-action="next_round"]').is_hidden()
    assert page.locator("#round-over .panel-hand").count() == 4
    pairs = page.locator("#team-scores .team-score")
    assert pairs.count() == 2
    assert pairs.nth(0).inner_text().startswith("Ada and Computer 2")
    assert errors == []


def test_turn_clock_away_badge_and_claim(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2))
    assert page.locator("#claim-win").is_hidden()
    deadline = int(time.time() * 1000) + 65_000
    clock = {"seat": 0, "deadline_ms": deadline, "away": [1], "claimable": False}
    table.send({"type": "clock", "clock": clock})
    countdown = page.locator("#me-player .player-clock")
    countdown.wait_for()
    assert re.fullmatch(r"1:0[0-5]", countdown.inner_text())
    assert page.locator('#players .player[data-seat="1"] .badge--away').inner_text() == "away"
    table.send({"type": "clock", "clock": {**clock, "seat": 1, "claimable": True}})
    page.locator("#claim-win").wait_for()
    assert page.locator("#claim-win").get_attribute("action") == "/table/1/claim/"
    assert page.locator("#me-player .player-clock").count() == 0
    assert errors == []


def test_french_scripted_table(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), locale="fr-FR")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("#table-status").inner_text() == "À vous de jouer"
    assert page.locator("a", has_text="Règles de cette table").count() == 1
    # Counts of 2 and more are French too (the JS catalogue's three plural forms).
    opponent = page.locator('#players .player[data-seat="1"]')
    assert opponent.locator(".player-count").inner_text() == "6 dominos"
    assert opponent.locator(".player-score").inner_text() == "0 point"
    assert page.locator("#me-player .player-count").inner_text() == "7 dominos"
    assert errors == []


def test_a_bot_account_is_marked_at_its_seat_and_in_the_chat(new_context, site_server) -> None:
    """The ``bot`` flag of a player (the ``table`` object) and of a chat line
    puts the profile's mark after the name, in the page's language."""
    table = both_ends_table()
    config = scripted_config(2)
    config["players"][1] = {
        "seat": 1, "name": "deepbones", "kind": "human", "level": None, "member": "deepbones", "bot": True,
    }
    page, errors = open_scripted(new_context, site_server, table, config, locale="fr-FR")
    mark = page.locator('#players .player[data-seat="1"] .player-name [data-bot]')
    assert mark.inner_text() == "Bot"
    assert mark.get_attribute("title") == "Un programme qui joue par l\u2019API"
    assert page.locator("#me-player [data-bot]").count() == 0
    table.send({"type": "chat", "id": 1, "from": "deepbones", "text": "bonne chance", "room": "players", "bot": True})
    table.send({"type": "chat", "id": 2, "from": "ada", "text": "merci", "room": "players", "bot": False})
    page.locator('[data-chat-id="2"]').wait_for()
    assert page.locator('[data-chat-id="1"] .chat-from [data-bot]').inner_text() == "Bot"
    assert page.locator('[data-chat-id="2"] [data-bot]').count() == 0
    assert errors == []


# ---------------------------------------------------------------- live


def start_computer_game(page, site_server, *, preset: str, players: int, target: int, level: str) -> None:
    """Fill the home page's play-the-computer form as a guest and submit it."""
    page.goto(site_server.url + "/")
    form = page.locator("#play-computer-form")
    form.locator('[name="preset"]').select_option(preset)
    form.locator(f'[name="players"][value="{players}"]').check()
    form.locator(f'[name="target"][value="{target}"]').check()
    form.locator(f'[name="level"][value="{level}"]').check()
    with page.expect_navigation():
        form.locator('[type="submit"]').click()
    assert re.search(r"/table/\d+/$", page.url), page.url
    page.wait_for_selector("#line [data-line-tile], #table[data-my-turn]")


def test_guest_plays_a_complete_game_against_three_computers(new_context, site_server) -> None:
    page, errors = new_page(new_context)
    start_computer_game(page, site_server, preset="quick", players=4, target=100, level="easy")
    assert page.locator("#players .player").count() == 3
    # quick: 5 tiles each at 4 players (4 left when the player's double opened)
    assert page.locator("#hand [data-tile]").count() in {4, 5}
    assert page.locator("a", has_text="Rules of this table").get_attribute("href").startswith("/rules/")
    done = play_to_the_end(page, random.Random(1))
    panel = page.locator("[data-game-over]")
    assert panel.is_visible()
    assert done["play"] >= 1, done
    # Every round after the first was started from the round-over panel.
    rounds = int(page.locator("#round-label").inner_text().removeprefix("Round "))
    assert done["next"] == rounds - 1, (done, rounds)
    scores = panel.locator(".scores tbody tr")
    assert scores.count() == 4
    assert any(int(scores.nth(i).locator("td").inner_text()) >= 100 for i in range(4))
    assert panel.locator("tr[data-winner]").count() == 1
    assert panel.locator("[data-rematch]").is_visible()
    assert panel.locator("[data-new-game]").is_visible()
    replay = panel.locator("[data-replay]").get_attribute("href")
    assert replay == page.url.removeprefix(site_server.url) + "replay/"
    assert page.request.get(site_server.url + replay).ok
    screenshot(page, "table-game-over-desktop.png")
    assert errors == []


def test_phone_line_fits_and_both_ends_glow_in_live_games(new_context, site_server) -> None:
    """Block game, every tile dealt: long lines. After every step the page is
    no wider than the phone; a tile fitting both ends (about 97 % of games
    have one for the player) makes both ends glow: play games (the deals are the
    site's, random) until it did and a line reached 12 tiles."""
    page, errors = new_page(new_context, viewport=PHONE)
    check = LineFits("table-live-long-line-phone.png", shot_at=16)
    both_ends = 0
    for game in range(6):
        start_computer_game(page, site_server, preset="classic-block", players=4, target=50, level="easy")
        done = play_to_the_end(page, random.Random(game), each_step=check)
        both_ends += done["both_ends"]  # play_to_the_end asserts two glowing ends each time
        if both_ends and check.widest >= 12:
            break
    assert both_ends > 0
    assert check.widest >= 12
    assert errors == []


def test_french_table_page(new_context, site_server) -> None:
    page, errors = new_page(new_context, viewport=PHONE, locale="fr-FR")
    start_computer_game(page, site_server, preset="classic-draw", players=2, target=50, level="easy")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.wait_for_function(ACTIONABLE)
    assert page.locator("#table-status").inner_text() == "À vous de jouer"
    assert page.locator("#round-label").inner_text() == "Manche 1"
    assert page.locator("#target-label").inner_text() == "Partie en 50"
    assert page.locator("a", has_text="Règles de cette table").count() == 1
    assert page.locator('[data-action="draw"]').inner_text() == "Piocher"
    assert "Donne équitable" in page.locator("#fairness summary").inner_text()
    screenshot(page, "table-french-phone.png")
    assert errors == []


@pytest.mark.parametrize(
    ("viewport", "locale", "rematch"), [(PHONE, "fr-FR", "Revanche"), (DESKTOP, "en-GB", "Rematch")]
)
def test_rematch_and_new_game_after_a_game_against_the_computer(
    new_context, site_server, viewport, locale: str, rematch: str
) -> None:
    page, errors = new_page(new_context, viewport=viewport, locale=locale)
    start_computer_game(page, site_server, preset="arena", players=3, target=50, level="hard")
    first = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="resign"]')
    page.locator("[data-game-over]").wait_for()
    button = page.locator("[data-rematch]")
    assert button.inner_text() == rematch
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
    with page.expect_navigation():
        button.click()
    assert re.search(r"/table/\d+/$", page.url)
    assert page.url != first
    page.wait_for_selector("#line [data-line-tile], #table[data-my-turn]")  # started at once
    assert page.locator("#players .player").count() == 2
    second = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="resign"]')
    page.locator("[data-game-over]").wait_for()
    with page.expect_navigation():
        page.click("[data-new-game]")
    assert page.url not in (first, second)
    page.wait_for_selector("#line [data-line-tile], #table[data-my-turn]")
    assert page.locator("#players .player").count() == 2
    # The home form starts from the settings just played.
    page.goto(site_server.url + "/")
    form = page.locator("#play-computer-form")
    assert form.locator('[name="preset"]').input_value() == "arena"
    assert form.locator('[name="players"][value="3"]').is_checked()
    assert form.locator('[name="target"][value="50"]').is_checked()
    assert form.locator('[name="level"][value="hard"]').is_checked()
    assert errors == []


@pytest.mark.parametrize(("locale", "mine"), [("en-GB", "Your rating 1527 (+15)"), ("fr-FR", "Votre classement 1527 (+15)")])
def test_the_game_over_panel_shows_the_new_ratings(new_context, site_server, locale: str, mine: str) -> None:
    table = both_ends_table()
    config = {**scripted_config(2), "ranked": True}
    asked: list[str] = []  # not rated yet when the page opens: the frame brings the ratings
    current = [{"seat": 0, "rating": 1512, "provisional": False}, {"seat": 1, "rating": 1500, "provisional": True}]
    page, errors = open_scripted(
        new_context, site_server, table, config, locale=locale,
        before=lambda page: page.route(
            "**/table/1/ratings.json",
            lambda route: (
                asked.append(route.request.url),
                route.fulfill(json={"mode": "duel-block", "changes": [], "current": current}),
            ),
        ),
    )
    # The players' ratings next to their names.
    page.wait_for_selector('#me-player [data-seat-rating="1512"]')
    assert page.locator('#players .player[data-seat="1"] .player-rating').inner_text().strip() == "1500?"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="resign"]')
    page.locator("[data-game-over]").wait_for()
    assert page.locator("[data-rating-change]").is_hidden()
    changes = [
        {"seat": 0, "user": "ada", "before": 1512, "after": 1527, "delta": 15, "provisional": False, "outcome": "win"},
        {"seat": 1, "user": "bob", "before": 1500, "after": 1492, "delta": -8, "provisional": False, "outcome": "loss",
         "weight": 0.5},  # a second game of the same pair within a day
    ]
    table.send({"type": "ratings", "mode": "duel-block", "changes": changes})
    panel = page.locator("[data-rating-change]")
    panel.wait_for()
    assert panel.locator("li.is-me").inner_text() == mine
    assert panel.locator('[data-rating-seat="1"] [data-rating-delta]').inner_text() == "(\u22128)"
    weight = panel.locator('[data-rating-seat="1"] [data-rating-weight]')
    assert weight.inner_text().strip() in ("repeated game: counts 1/2", "partie répétée : compte pour 1/2")
    assert panel.locator('[data-rating-seat="0"] [data-rating-weight]').count() == 0
    screenshot(page, f"table-ratings-{locale}.png")
    assert len(asked) == 1
    assert errors == []


VISIBLE_LINE_TILES = """() => [...document.querySelectorAll('#line [data-line-tile]')].filter((tile) => {
  const box = tile.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit && tile.contains(hit);
}).length"""


@pytest.mark.parametrize(
    ("viewport", "locale", "mine", "why", "total"),
    [
        (PHONE, "fr-FR", [Tile(6, 4), Tile(0, 0)], "Personne ne peut jouer", "Vos points : 10 = 10 points."),
        (DESKTOP, "en-GB", [Tile(6, 4), Tile(4, 0)], "You laid your last tile: domino!", "Your points: 10 = 10 points."),
    ],
)
def test_round_over_explains_the_points_with_the_board_in_view(
    new_context, site_server, viewport, locale: str, mine: list, why: str, total: str
) -> None:
    """Seat 1 opens 6-6 and holds 5-5: after 6-4 it can only pass. With 0-0 left
    the round blocks (the lightest hand, 0 pips, wins); with 4-0, domino."""
    rules = rules_for("classic-block", players=2, target=50)
    table = ScriptedTable(new_game(rules, seed=5, hands=[mine, [Tile(6, 6), Tile(5, 5)]]))
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=viewport, locale=locale)
    page.click('#hand [data-tile="4-6"]')
    page.click('#line [data-end="right"]')
    what = page.wait_for_function(ACTIONABLE).json_value()
    if what == "play":
        page.click('#hand [data-tile="0-4"]')  # fits the 4 only: one tap lays it
    elif what == "pass":
        page.click('[data-action="pass"]')
    breakdown = page.locator("#round-over [data-round-breakdown]")
    breakdown.wait_for()
    assert why in breakdown.locator(".panel-why").inner_text()
    hands = breakdown.locator(".panel-hand")
    assert hands.count() == 2
    assert hands.nth(0).get_attribute("data-round-winner") is not None
    assert hands.nth(1).get_attribute("data-pips") == "10"
    assert hands.nth(1).get_attribute("data-counted") is not None
    assert breakdown.locator("[data-round-sum]").inner_text() == total
    assert table.state.round_result.points == 10
    # The board stays in view beside or behind the summary.
    assert page.evaluate(VISIBLE_LINE_TILES) >= 1
    screenshot(page, f"table-round-breakdown-{locale}-{viewport['width']}.png")
    assert errors == []


def test_the_line_is_centred_bends_only_when_needed_and_is_larger_while_short(new_context, site_server) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto(site_server.url + "/static/games/js/line_layout.js")
    result = page.evaluate("""async () => {
      const { fitLine } = await import('/static/games/js/line_layout.js');
      const rows = (layout) => new Set(layout.tiles.map((t) => Math.round(t.y + t.h / 2))).size;
      const centre = (layout) => {
        const left = Math.min(...layout.tiles.map((t) => t.x)), right = Math.max(...layout.tiles.map((t) => t.x + t.w));
        return (left + right) / 2;
      };
      // Five tiles all laid on the right of the opener: one straight row, centred.
      const oneArm = [[6, 6], [6, 4], [4, 1], [1, 3], [3, 5]];
      const a = fitLine(oneArm, { width: 374, maxHeight: 300, opener: 0, max: 30, big: 40 });
      // Three tiles: drawn larger than the usual 30 px.
      const b = fitLine([[6, 6], [6, 4], [4, 1]], { width: 374, maxHeight: 300, opener: 0, max: 30, big: 40 });
      // Nine tiles on one arm: the old layout turned at the edge; now it bends only if all of it does not fit.
      const long = [[6, 6], [6, 4], [4, 1], [1, 3], [3, 5], [5, 0], [0, 2], [2, 2], [2, 3]];
      const c = fitLine(long, { width: 900, maxHeight: 300, opener: 0, max: 36, big: 56 });
      return { aRows: rows(a), aCentre: centre(a), bU: b.u, cRows: rows(c), cTurns: c.tiles.filter((t) => t.turn).length };
    }""")
    assert result["aRows"] == 1
    assert abs(result["aCentre"] - 187) <= 2
    assert result["bU"] > 30
    assert result["cRows"] == 1
    assert result["cTurns"] == 0


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "fr-FR"), (DESKTOP, "en-GB")])
def test_last_tiles_are_outlined_computer_tiles_slide_in_and_the_moves_open(
    new_context, site_server, viewport, locale: str
) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=viewport, locale=locale)
    assert page.locator('#line [data-last-seat="1"]').get_attribute("data-line-tile") == "6-6"
    assert page.locator('#line [data-last-seat="0"]').count() == 0
    page.click('#hand [data-tile="3-6"]')
    page.click('#line [data-end="left"]')
    page.wait_for_function("document.getElementById('table').hasAttribute('data-my-turn')")
    mine = page.locator('#line [data-last-seat="0"]')
    assert mine.get_attribute("data-line-tile") == "3-6"
    assert "tile--last-mine" in mine.get_attribute("class")
    theirs = [e for e in table.state.history if e.seat == 1 and e.tile is not None]
    assert len(theirs) == 2  # it holds three 3s: it follows on the 3
    outlined = page.locator('#line [data-last-seat="1"]')  # its new tile, slid in from its card
    assert outlined.count() == 1
    assert outlined.get_attribute("data-line-tile") == "{}-{}".format(*sorted(theirs[-1].tile.to_list()))
    assert outlined.get_attribute("data-slid-from") == "1"
    assert page.locator('#line [data-line-tile="6-6"]').get_attribute("data-last-seat") is None
    # The move list opens on a tap and lists every move of the round.
    moves = page.locator("[data-move-list]")
    assert not moves.locator("ol").is_visible()
    moves.locator("summary").click()
    assert moves.locator("li").count() == len(table.state.history)
    assert moves.locator("li").first.is_visible()
    screenshot(page, f"table-mid-game-{locale}-{viewport['width']}.png")
    assert errors == []


def one_end_table() -> ScriptedTable:
    """Block duel: seat 1 opens 5-6 (no double dealt); seat 0's 2-5 fits the 5 only."""
    rules = rules_for("classic-block", players=2, target=50)
    return ScriptedTable(new_game(rules, seed=5, hands=[[Tile(2, 5), Tile(0, 2)], [Tile(5, 6), Tile(0, 1)]]))


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "fr-FR"), (DESKTOP, "en-GB")])
def test_the_destination_glows_before_the_move(new_context, site_server, viewport, locale: str) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=viewport, locale=locale)
    preview = page.locator("#line [data-preview-end]")
    assert preview.count() == 0
    tile = page.locator('#hand [data-tile="3-6"]')
    if viewport is DESKTOP:
        tile.hover()  # the mouse on the tile
    else:
        tile.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True, "button": 0})  # a finger on it
    assert sorted(preview.nth(i).get_attribute("data-preview-end") for i in range(preview.count())) == ["left", "right"]
    assert page.locator("#line [data-end]").count() == 0  # a preview, nothing to tap yet
    if viewport is DESKTOP:
        page.mouse.move(5, 5)
    else:
        tile.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True, "button": 0})
    assert preview.count() == 0
    # From the keyboard: the focused tile's destination glows too.
    tile.focus()
    assert preview.count() == 2
    assert not any(frame["type"] == "play" for frame in table.received)
    assert errors == []


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "fr-FR"), (DESKTOP, "en-GB")])
def test_confirm_each_move_is_remembered_and_places_on_the_glowing_end(
    new_context, site_server, viewport, locale: str
) -> None:
    context = new_context(viewport=viewport, locale=locale)
    table = one_end_table()
    html = table_page_html(scripted_config(2), locale[:2])
    url = site_server.url + "/scripted/table/1/"
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html))
    page.route_web_socket("**/ws/table/1/", table.attach)
    page.goto(url)
    page.wait_for_selector("#table[data-my-turn]")
    box = page.locator('[data-setting="confirm"]')
    assert not box.is_checked()
    box.check()
    page.reload()  # remembered by this browser
    page.wait_for_selector("#table[data-my-turn]")
    assert page.locator('[data-setting="confirm"]').is_checked()
    page.click('#hand [data-tile="2-5"]')  # fits one end: selected, not played
    assert not any(frame["type"] == "play" for frame in table.received)
    ends = page.locator("#line [data-end]")
    assert ends.count() == 1
    end = ends.first.get_attribute("data-end")
    ends.first.click()
    page.wait_for_function("document.querySelectorAll('#line [data-line-tile]').length >= 2")
    assert [f for f in table.received if f["type"] == "play"] == [{"type": "play", "tile": [2, 5], "end": end, "seq": 0}]
    # Off again: one tap plays a tile that fits one end.
    page.locator('[data-setting="confirm"]').uncheck()
    assert errors == []


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "fr-FR"), (DESKTOP, "en-GB")])
def test_hand_tiles_are_large_and_pass_is_where_the_thumb_is(new_context, site_server, viewport, locale: str) -> None:
    rules = rules_for("classic-block", players=2, target=50)
    # Seven tiles, none fits 6-6: the player must pass (seat 1 can go on with 5-6).
    mine = [Tile(0, 0), Tile(0, 1), Tile(1, 1), Tile(1, 2), Tile(2, 2), Tile(0, 2), Tile(0, 3)]
    theirs = [Tile(6, 6), Tile(5, 6), Tile(4, 4), Tile(3, 3), Tile(4, 5), Tile(3, 4), Tile(3, 5)]
    table = ScriptedTable(new_game(rules, seed=5, hands=[mine, theirs]))
    assert [type(a).__name__ for a in legal_actions(table.state)] == ["Pass"]
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=viewport, locale=locale)
    page.wait_for_selector('[data-action="pass"]:not([hidden])')
    widths = page.evaluate("[...document.querySelectorAll('#hand [data-tile]')].map((t) => t.getBoundingClientRect().width)")
    assert len(widths) == 7
    assert min(widths) >= (48 if viewport is PHONE else 56), widths
    tops = page.evaluate("new Set([...document.querySelectorAll('#hand [data-tile]')].map((t) => Math.round(t.getBoundingClientRect().top))).size")
    assert tops == 1  # seven tiles in one row
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
    button = page.locator('[data-action="pass"]').bounding_box()
    assert button["y"] + button["height"] <= viewport["height"]
    if viewport is PHONE:
        assert button["y"] >= viewport["height"] * 0.7, button  # the lower part of the screen
        assert button["height"] >= 48
    page.click('[data-action="pass"]')
    assert errors == []


@pytest.mark.parametrize(
    ("viewport", "locale", "thanks"), [(PHONE, "fr-FR", "Merci !"), (DESKTOP, "en-GB", "Thanks!")]
)
def test_quick_reactions_with_a_remembered_mute(new_context, site_server, viewport, locale: str, thanks: str) -> None:
    table = both_ends_table()
    config = scripted_config(2)
    config["players"][1] = {"seat": 1, "name": "Bob", "kind": "human", "level": None}
    page, errors = open_scripted(new_context, site_server, table, config, viewport=viewport, locale=locale)
    buttons = page.locator("[data-reactions] [data-react]")
    assert buttons.count() == 6
    assert not buttons.first.is_visible()  # folded: the hand stays where it is
    page.click("[data-reactions] summary")
    page.click('[data-react="good_game"]')
    assert {"type": "react", "id": "good_game"} in table.received
    page.locator('#me-player [data-reaction-bubble="good_game"]').wait_for()
    assert page.locator('[data-react="hello"]').is_disabled()  # resting a few seconds
    table.send({"type": "reaction", "seat": 1, "id": "thanks"})
    bubble = page.locator('#players .player[data-seat="1"] [data-reaction-bubble]')
    bubble.wait_for()
    assert bubble.inner_text() == thanks
    screenshot(page, f"table-reactions-{locale}.png")
    page.check('[data-setting="mute-reactions"]')
    assert bubble.count() == 0
    page.reload()
    page.wait_for_selector("#line [data-line-tile]")
    page.click("[data-reactions] summary")
    assert page.locator('[data-setting="mute-reactions"]').is_checked()
    table.send({"type": "reaction", "seat": 1, "id": "oops"})
    page.wait_for_timeout(300)
    assert page.locator('#players .player[data-seat="1"] [data-reaction-bubble]').count() == 0
    assert errors == []


def test_no_reactions_against_the_computer_alone(new_context, site_server) -> None:
    page, errors = open_scripted(new_context, site_server, both_ends_table(), scripted_config(2), viewport=DESKTOP)
    assert page.locator("[data-reactions]").is_hidden()
    assert errors == []


def test_sounds_for_a_move_and_your_turn_with_a_remembered_mute(new_context, site_server) -> None:
    table = both_ends_table()
    page, errors = open_scripted(new_context, site_server, table, scripted_config(2), viewport=DESKTOP)
    sounds = "Number(document.getElementById('table').dataset.sounds || 0)"
    assert page.evaluate("document.getElementById('table').dataset.lastSound") == "turn"
    page.click('#hand [data-tile="3-6"]')
    page.click('#line [data-end="left"]')
    page.wait_for_function("document.querySelectorAll('#line [data-line-tile]').length >= 3")
    page.wait_for_function("document.getElementById('table').dataset.lastSound === 'turn'")
    heard = page.evaluate(sounds)
    assert heard >= 4  # your turn, your tile, their tile, your turn again
    page.check('[data-setting="mute-sounds"]')
    page.reload()
    page.wait_for_selector("#line [data-line-tile]")
    assert page.locator('[data-setting="mute-sounds"]').is_checked()
    assert page.evaluate(sounds) == 0
    assert errors == []


def tab_walk(page, presses: int = 60) -> list[str]:
    """What the focus lands on, Tab after Tab from the top of the page."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    seen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("""() => {
          const el = document.activeElement;
          if (!el || el === document.body) return '';
          return el.dataset.tile ? 'tile:' + el.dataset.tile : el.dataset.action ? 'action:' + el.dataset.action
            : el.dataset.setting ? 'setting:' + el.dataset.setting : el.tagName === 'SUMMARY' ? 'summary:' + el.parentElement.id
            : el.dataset.end ? 'end:' + el.dataset.end : el.tagName.toLowerCase();
        }"""))
    return seen


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "fr-FR"), (DESKTOP, "en-GB")])
def test_every_action_of_the_table_is_reachable_with_the_keyboard(new_context, site_server, viewport, locale: str) -> None:
    table = one_end_table()
    config = scripted_config(2)
    config["players"][1] = {"seat": 1, "name": "Bob", "kind": "human", "level": None}
    page, errors = open_scripted(new_context, site_server, table, config, viewport=viewport, locale=locale)
    seen = tab_walk(page)
    for target in (
        "tile:2-5", "tile:0-2", "action:hint", "setting:confirm", "summary:move-list", "summary:reactions",
        "setting:mute-sounds", "action:resign",
    ):
        assert target in seen, (target, seen)
    # Play from the keyboard alone: Tab to the tile, Enter (it fits one end).
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.tile") == "2-5":
            break
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#line [data-line-tile]').length >= 2")
    assert [f["type"] for f in table.received if f["type"] == "play"] == ["play"]
    # After the game, the panel's buttons are reached the same way.
    page.once("dialog", lambda dialog: dialog.accept())
    page.focus('[data-action="resign"]')
    page.keyboard.press("Enter")
    page.locator("[data-game-over]").wait_for()
    seen = tab_walk(page, 80)
    assert "action:toggle-panel" in seen, seen
    assert errors == []
