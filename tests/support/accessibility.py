"""An automated accessibility check of a page with axe-core (the copy bundled
in the ``axe-playwright-python`` wheel, MPL 2.0: nothing is downloaded at test
time)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

SERIOUS = ("serious", "critical")


def serious_violations(page: Any, context: Any = None) -> list[str]:
    """The serious and critical axe-core violations of ``page``, one line each
    (rule, impact, the first offending elements)."""
    results = Axe().run(page, context=context)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") in SERIOUS:
            targets = [node["target"] for node in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} {targets}")
    return found
