"""Template tags drawing tiles: ``{% load dominoes %}{% tile 6 4 %}``,
``{% tile 5 5 cross=True %}`` for a double laid crosswise."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.pages.tiles_svg import tile_svg, tile_symbols

register = template.Library()


@register.simple_tag
def tile(a: int, b: int, cross: bool = False, vertical: bool = False) -> SafeString:
    """A tile as it lies in a line: doubles may be laid crosswise."""
    a, b = int(a), int(b)
    classes = "tile"
    if cross:
        classes += " tile--cross"
    return format_html(
        '<span class="{}" data-tile="{}-{}">{}</span>',
        classes,
        min(a, b),
        max(a, b),
        tile_svg(a, b, vertical=vertical or cross),
    )


@register.simple_tag
def tile_shapes() -> SafeString:
    """The shapes every tile of the page draws with (templates/base.html, once)."""
    return tile_symbols()


@register.inclusion_tag("games/_line.html")
def tile_line(pairs: list[tuple[int, int]] | list[list[int]]) -> dict[str, object]:
    """A short line of tiles, left to right, doubles crosswise."""
    return {"tiles": [(int(a), int(b), int(a) == int(b)) for a, b in pairs]}
