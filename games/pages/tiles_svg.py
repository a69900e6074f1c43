"""SVG drawing of a domino tile, shared by the pages rendered on the server
(rules guide, replays, live previews), referencing shapes held once in the
page (``<use>``). ``static/js/tiles.js`` draws the same picture in the browser
for the live table, with whole shapes in each tile (the table's CSS styles a
tile's face: a playable tile's edge); games/tests/test_tiles_agree.py renders
every tile with both, resolves the references, and fails when they differ."""

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


# The shapes every tile shares, drawn once per page (``tile_symbols``, in
# templates/base.html) and referenced by each tile with <use>: a tile is 4
# elements (its <svg>, the frame, one <use> per half with pips) instead of up
# to 16, which took the rules guide from 6,843 elements to about 4,000
# (docs/architecture.md, "Tiles").
FRAME_ID = {False: "tile-frame-h", True: "tile-frame-v"}


def pips_id(number: int) -> str:
    return f"tile-pips-{number}"


def tile_symbols() -> SafeString:
    """The hidden <svg> that holds the shared shapes: the frame of a tile
    lying and standing (face and divider), and the pips of each number in a
    100 x 100 half. Styled by the site's CSS (``.tile-face``, ``.tile-divider``,
    ``.tile-pips circle``) where it is drawn."""
    frames = format_html(
        '<g id="{}"><rect x="2" y="2" width="196" height="96" rx="14" class="tile-face"/>'
        '<line x1="100" y1="12" x2="100" y2="88" class="tile-divider"/></g>'
        '<g id="{}"><rect x="2" y="2" width="96" height="196" rx="14" class="tile-face"/>'
        '<line x1="12" y1="100" x2="88" y2="100" class="tile-divider"/></g>',
        FRAME_ID[False],
        FRAME_ID[True],
    )
    pips = format_html_join(
        "",
        '<g id="{}" class="tile-pips">{}</g>',
        (
            (pips_id(number), format_html_join("", '<circle cx="{}" cy="{}" r="9"/>', layout))
            for number, layout in PIP_LAYOUT.items()
            if layout
        ),
    )
    return format_html(
        '<svg class="tile-symbols" aria-hidden="true" focusable="false" width="0" height="0"'
        ' style="position:absolute;overflow:hidden"><defs>{}{}</defs></svg>',
        frames,
        pips,
    )


def _half(number: int, dx: int, dy: int) -> SafeString:
    if not PIP_LAYOUT[number]:
        return mark_safe("")  # a blank half: the frame alone
    offset = format_html(' x="{}"', dx) if dx else format_html(' y="{}"', dy) if dy else ""
    return format_html('<use href="#{}"{}/>', pips_id(number), offset)


def tile_svg(a: int, b: int, *, vertical: bool = False, label: str = "") -> SafeString:
    """An accessible SVG of the tile a|b: ``a`` on the left (or top). It draws
    with the shapes of ``tile_symbols``, which the page must hold (every page
    of templates/base.html does)."""
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"not a double-six tile: {a}-{b}")
    width, height = (100, 200) if vertical else (200, 100)
    second = (0, 100) if vertical else (100, 0)
    return format_html(
        '<svg class="tile-svg" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<use href="#{frame}"/>{p1}{p2}</svg>',
        w=width,
        h=height,
        label=label or f"{a}-{b}",
        frame=FRAME_ID[vertical],
        p1=_half(a, 0, 0),
        p2=_half(b, *second),
    )
