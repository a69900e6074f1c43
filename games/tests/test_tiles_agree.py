"""The tiles drawn in the browser (static/js/tiles.js) and on the server
(games/tiles_svg.py) are the same markup: every tile of the double-six set,
lying and standing, with and without a label, element by element and
attribute by attribute (the pip layout included)."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from games.tiles_svg import tile_svg

TILES_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "tiles.js"
CASES = [
    (a, b, vertical, label)
    for a in range(7)
    for b in range(7)
    for vertical in (False, True)
    for label in ("", "Tile 2 and 5")
]

DRAW_IN_NODE = """
import { tileParts } from %s;
const cases = JSON.parse(process.argv[1]);
process.stdout.write(JSON.stringify(cases.map(([a, b, vertical, label]) => tileParts(a, b, { vertical, label }))));
"""


def parts(element: ET.Element) -> dict[str, Any]:
    """An element of the server's SVG in the shape of tiles.js's ``tileParts``."""
    return {
        "name": element.tag,
        "attrs": dict(element.attrib),
        "children": [parts(child) for child in element],
    }


def browser_parts(node_path: str, cases: list[tuple[int, int, bool, str]]) -> list[dict[str, Any]]:
    script = DRAW_IN_NODE % json.dumps(TILES_JS.as_uri())
    done = subprocess.run(
        [node_path, "--input-type=module", "--eval", script, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def test_every_tile_is_the_same_markup_in_the_browser_and_on_the_server(node_path: str) -> None:
    drawn = browser_parts(node_path, CASES)
    assert len(drawn) == len(CASES) == 196
    for (a, b, vertical, label), browser in zip(CASES, drawn, strict=True):
        server = parts(ET.fromstring(str(tile_svg(a, b, vertical=vertical, label=label))))
        assert browser == server, f"tile {a}-{b} vertical={vertical} label={label!r}"


def test_the_comparison_sees_a_pip_moved(node_path: str) -> None:
    # The same comparison tells a layout that drifted: the browser's 6-6 with
    # one pip of the server's moved is not equal.
    (browser,) = browser_parts(node_path, [(6, 6, False, "")])
    server = parts(ET.fromstring(str(tile_svg(6, 6))))
    server["children"][2]["children"][0]["attrs"]["cx"] = "28"
    assert browser != server
