"""The replay stepper (accounts/static/accounts/js/replay.js) in headless
Chromium, on a page of its own made of the template's hooks and a few steps:
each step draws once, and a resize redraws once however many steps were taken
(each step used to add one more resize listener, so a resize after 20 steps
drew the line 21 times)."""

from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STEPS = [
    {
        "label": f"step {n}",
        "round": 1,
        "scores": [0, 0],
        "boneyard": 0,
        "opener": 0,
        "to_move": n % 2,
        "line": [[6, 6], [6, 5], [5, 4], [4, 3]][: n + 1],
        "hands": [[[1, 2]], [[0, 0], [3, 3]]],
    }
    for n in range(4)
]

PAGE = """<!doctype html><html><body>
<div data-replay="1">
  <button type="button" data-step="first">first</button><button type="button" data-step="prev">prev</button>
  <span data-replay-index></span><button type="button" data-step="next">next</button>
  <button type="button" data-step="last">last</button><button type="button" data-step="play">play</button>
  <p data-replay-label></p><span data-replay-round></span><span data-replay-scores></span>
  <div data-replay-line style="width: 600px"></div>
  <div data-replay-seat="0"><span class="tiles"></span></div><div data-replay-seat="1"><span class="tiles"></span></div>
  <script id="replay-steps" type="application/json">%s</script>
</div>
<script type="module" src="/static/accounts/js/replay.js"></script>
</body></html>"""

# How many times the line is drawn: each draw puts a new board into [data-replay-line].
COUNT_DRAWS = """() => {
  window.draws = 0;
  new MutationObserver((records) => { window.draws += records.length; })
    .observe(document.querySelector('[data-replay-line]'), { childList: true });
}"""


def test_a_resize_redraws_the_line_once_after_many_steps(new_context, site_server) -> None:
    page = new_context(viewport={"width": 900, "height": 800}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    url = site_server.url + "/scripted/replay/1/"
    page.route(
        url, lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE % json.dumps(STEPS))
    )
    page.goto(url)
    page.wait_for_selector("[data-replay-board] [data-replay-tile]")
    assert page.text_content("[data-replay-label]") == "step 3"
    page.evaluate(COUNT_DRAWS)
    for _ in range(10):
        page.click('[data-step="first"]')
        page.click('[data-step="next"]')
    assert page.text_content("[data-replay-label]") == "step 1"
    assert page.evaluate("window.draws") == 20, "one draw per step"
    assert page.locator("[data-replay-line] [data-replay-tile]").count() == 2
    page.evaluate("window.draws = 0")
    page.set_viewport_size({"width": 700, "height": 800})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_timeout(200)
    assert page.evaluate("window.draws") == 1, "one resize, one draw"
    assert page.get_attribute("[data-replay-line] [data-replay-tile]", "data-replay-tile") == "6-6"
    assert errors == []
