"""The tiles drawn in the browser (static/js/tiles.js) and on the server
(games/pages/tiles_svg.py) are the same picture: every tile of the double-six set,
lying and standing, with and without a label, element by element and
attribute by attribute (the pip layout included), once the server's
references to the shapes it holds once per page (``<use>`` of
``tile_symbols``) are replaced by those shapes."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from games.pages.tiles_svg import tile_svg, tile_symbols

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


SYMBOLS = {group.attrib["id"]: group for group in ET.fromstring(str(tile_symbols())).iter("g")}


def resolved(svg: ET.Element) -> dict[str, Any]:
    """The server's tile with its <use> references drawn out, in the browser's
    shape: the frame's elements, then one group of every pip (offset by the
    reference's x and y)."""
    frame: list[dict[str, Any]] = []
    circles: list[dict[str, Any]] = []
    for child in svg:
        assert child.tag == "use", child.tag
        shape = SYMBOLS[child.attrib["href"].removeprefix("#")]
        dx, dy = int(child.attrib.get("x", 0)), int(child.attrib.get("y", 0))
        if shape.attrib.get("class") == "tile-pips":
            for circle in shape:
                attrs = dict(circle.attrib)
                attrs["cx"], attrs["cy"] = str(int(attrs["cx"]) + dx), str(int(attrs["cy"]) + dy)
                circles.append({"name": "circle", "attrs": attrs, "children": []})
        else:
            frame += [parts(element) for element in shape]
    pips = {"name": "g", "attrs": {"class": "tile-pips"}, "children": circles}
    return {"name": svg.tag, "attrs": dict(svg.attrib), "children": [*frame, pips]}


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
        server = resolved(ET.fromstring(str(tile_svg(a, b, vertical=vertical, label=label))))
        assert browser == server, f"tile {a}-{b} vertical={vertical} label={label!r}"


def test_the_comparison_sees_a_pip_moved(node_path: str) -> None:
    # The same comparison tells a layout that drifted: the browser's 6-6 with
    # one pip of the server's moved is not equal.
    (browser,) = browser_parts(node_path, [(6, 6, False, "")])
    server = resolved(ET.fromstring(str(tile_svg(6, 6))))
    assert browser == server
    server["children"][2]["children"][0]["attrs"]["cx"] = "28"
    assert browser != server
