"""The table chat in headless Chromium, on the real site (Daphne, embedded
mode): a member at a table writes a line full of markup; it shows as the
text typed, with no element made of it (no bold, no link, no image); the
panel's switch turns the whole chat off, remembered across a reload, and so
does its switch of this table's chat."""

from __future__ import annotations

import time

import pytest

from games.tests.test_browser_table import start_computer_game
from tests.support.browser import DESKTOP, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MARKUP = '<b>bold</b> <a href="https://example.com">link</a> <img src=x onerror="window.hacked=1">'


def test_a_chat_line_with_markup_shows_as_text(new_context, site_server) -> None:
    page = new_context(locale="fr-FR", viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    name = f"chat{int(time.time() * 1000) % 10**8}"
    sign_up(page, site_server.url, name)
    start_computer_game(page, site_server, preset="classic-block", players=2, target=50, level="easy")
    assert page.locator("#chat-title").inner_text() == "Discussion des joueurs"
    page.fill("#chat-text", MARKUP)
    page.click('#chat-form button[type="submit"]')
    line = page.locator("#chat-lines .chat-line")
    line.wait_for()
    assert line.locator(".chat-from").inner_text() == name
    assert line.locator(".chat-text").text_content() == MARKUP
    assert page.locator("#chat-lines b, #chat-lines a[href^='https'], #chat-lines img").count() == 0
    assert page.evaluate("window.hacked") is None
    # After a reload, the catch-up brings the line again, still as text.
    page.reload()
    page.locator("#chat-lines .chat-line").wait_for()
    assert page.locator("#chat-lines .chat-text").all_text_contents() == [MARKUP]
    # The switch turns the whole chat off: the lines and the form go, a note
    # says why; it is remembered (a reload, the settings page).
    page.check("#chat-off")
    page.locator("#chat-off-note").wait_for()
    assert page.locator("#chat-lines .chat-line").count() == 0
    assert page.locator("#chat-form").is_hidden()
    page.reload()
    page.locator("#chat-off-note").wait_for()
    assert page.locator("#chat-off").is_checked()
    assert page.locator("#chat-lines .chat-line").count() == 0
    page.uncheck("#chat-off")
    page.locator("#chat-lines .chat-line").wait_for()
    assert page.locator("#chat-lines .chat-text").all_text_contents() == [MARKUP]
    # This table's chat muted: the same, kept for this table, the switch of
    # the whole chat left as it is.
    page.check("#chat-table-muted")
    page.locator("#chat-table-muted-note").wait_for()
    assert "La discussion de cette table est coupée" in page.locator("#chat-table-muted-note").inner_text()
    assert page.locator("#chat-lines .chat-line").count() == 0
    assert page.locator("#chat-form").is_hidden()
    page.reload()
    page.locator("#chat-table-muted-note").wait_for()
    assert page.locator("#chat-table-muted").is_checked()
    assert not page.locator("#chat-off").is_checked()
    assert page.locator("#chat-lines .chat-line").count() == 0
    page.uncheck("#chat-table-muted")
    page.locator("#chat-lines .chat-line").wait_for()
    assert page.locator("#chat-lines .chat-text").all_text_contents() == [MARKUP]
    assert errors == []
