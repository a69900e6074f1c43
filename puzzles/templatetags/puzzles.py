from django import template

from puzzles.wording import kind_text

register = template.Library()


@register.filter
def puzzle_kind(kind: str) -> str:
    return kind_text(kind)
