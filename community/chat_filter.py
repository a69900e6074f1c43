"""What a chat line becomes before it is stored: one line of plain text,
shouting lowered, insults in French and English masked.

The insult lists are glin-profanity's (MIT, maintained: docs/moderation.md),
in English and French, with its obfuscation matching ("f*ck"). Its French
list holds a few ordinary words (``bosser``, to work; ``drague``), left out
here (``IGNORED``). Nothing here parses a line for tiles: a line is text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

MASK = "***"
IGNORED = ("bosser", "drague", "cailler", "bourré", "bourrée")
# At least this many letters, this share of them capitals: shouting.
SHOUT_LETTERS = 8
SHOUT_SHARE = 0.7

_spaces = re.compile(r"\s+")


@functools.cache
def _insults() -> Any:
    # Imported at the first line filtered, not with the module: every web process
    # loads this one as it starts (docs/performance.md, "A web process's start"), and glin-profanity costs
    # 0.1 s of CPU to import.
    from glin_profanity import Filter

    return Filter(
        {
            "languages": ["english", "french"],
            "case_sensitive": False,
            "word_boundaries": True,
            "allow_obfuscated_match": True,
            "replace_with": MASK,
            "ignore_words": list(IGNORED),
        }
    )


def one_line(text: str) -> str:
    """No control or format characters (a bidi override, a zero-width
    joiner), every run of spaces and line breaks as one space."""
    kept = "".join(" " if ch.isspace() else ch for ch in text if unicodedata.category(ch)[0] != "C" or ch.isspace())
    return _spaces.sub(" ", kept).strip()


def unshout(text: str) -> str:
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) >= SHOUT_LETTERS and sum(ch.isupper() for ch in letters) >= SHOUT_SHARE * len(letters):
        return text.lower()
    return text


def mask_insults(text: str) -> tuple[str, bool]:
    """The line with its insults masked, and whether any was."""
    result = _insults().check_profanity(text)
    if not result.get("contains_profanity"):
        return text, False
    return str(result.get("processed_text") or MASK), True


def clean(text: str) -> tuple[str, bool]:
    """The line as it is stored and shown, and whether the filter masked words."""
    return mask_insults(unshout(one_line(text)))
