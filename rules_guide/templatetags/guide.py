"""Small formatting helpers for the rules guide's templates."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

register = template.Library()


def _and_join(parts: list[SafeString] | list[str]) -> SafeString:
    if not parts:
        return SafeString("")
    if len(parts) == 1:
        return format_html("{}", parts[0])
    # Translators: joins the last two items of a list, as in "A, B and C".
    return format_html(
        gettext("{list} and {last}"),
        list=format_html_join(", ", "{}", ((p,) for p in parts[:-1])),
        last=parts[-1],
    )


@register.simple_tag
def variant_links(variants: Iterable[Any]) -> SafeString:
    """Links to the variants' sections: "<a>Classic, with drawing</a> and <a>Arena</a>"."""
    links = [format_html('<a href="#{}">{}</a>', v.anchor, v.name) for v in variants]
    return _and_join(links)


@register.filter
def and_list(items: Iterable[Any]) -> SafeString:
    """ "Anna, Ben and Chloé" in the active language."""
    return _and_join([str(item) for item in items])


@register.filter
def tile_text(pair: tuple[int, int]) -> str:
    """The tile as text: "6-4"."""
    return f"{pair[0]}-{pair[1]}"


@register.filter
def lookup(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key)
