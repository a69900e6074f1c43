"""SVG drawing of a domino tile, shared by the pages rendered on the server
(rules guide, replays). ``static/js/tiles.js`` draws the same markup in the
browser for the live table; keep the two in step."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

# Pip centres in a 100 x 100 half, for each number.
PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((50, 50),),
    2: ((27, 27), (73, 73)),
    3: ((27, 27), (50, 50), (73, 73)),
    4: ((27, 27), (73, 27), (27, 73), (73, 73)),
    5: ((27, 27), (73, 27), (50, 50), (27, 73), (73, 73)),
    6: ((27, 25), (73, 25), (27, 50), (73, 50), (27, 75), (73, 75)),
}


def _pips(number: int, dx: int, dy: int) -> SafeString:
    return format_html_join(
        "", '<circle cx="{}" cy="{}" r="9"/>', ((x + dx, y + dy) for x, y in PIP_LAYOUT[number])
    )


def tile_svg(a: int, b: int, *, vertical: bool = False, label: str = "") -> SafeString:
    """An accessible SVG of the tile a|b: ``a`` on the left (or top)."""
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"not a double-six tile: {a}-{b}")
    width, height = (100, 200) if vertical else (200, 100)
    second = (0, 100) if vertical else (100, 0)
    divider = (
        mark_safe('<line x1="12" y1="100" x2="88" y2="100" class="tile-divider"/>')
        if vertical
        else mark_safe('<line x1="100" y1="12" x2="100" y2="88" class="tile-divider"/>')
    )
    return format_html(
        '<svg class="tile-svg" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<rect x="2" y="2" width="{iw}" height="{ih}" rx="14" class="tile-face"/>{divider}'
        '<g class="tile-pips">{p1}{p2}</g></svg>',
        w=width,
        h=height,
        iw=width - 4,
        ih=height - 4,
        label=label or f"{a}-{b}",
        divider=divider,
        p1=_pips(a, 0, 0),
        p2=_pips(b, *second),
    )
