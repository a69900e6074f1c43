"""The JSON of a chart over time, as static/js/charts.js draws it
(docs/charts.md): the x values are Unix seconds, one series or more of values
(None where a series has no point). Used by the profile's charts here and by
the apps above that answer ``accounts.hooks.profile_panels`` (the lobby's
chips and level, the puzzles' rating)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any


def time_chart(
    times: Sequence[datetime],
    series: Sequence[tuple[str, Sequence[float | int | None], str]],
    *,
    y_label: str,
) -> dict[str, Any]:
    """``series`` is (label, values, path) with one value per time; path is
    "line" or "steps" (a level, which holds until it changes)."""
    for label, values, _path in series:
        if len(values) != len(times):
            raise ValueError(f"series {label!r} has {len(values)} values for {len(times)} times")
    return {
        "time": True,
        "x": [round(moment.timestamp(), 3) for moment in times],
        "series": [{"label": label, "values": list(values), "path": path} for label, values, path in series],
        "y_label": y_label,
    }


def stacked_bars(
    categories: Sequence[str], series: Sequence[tuple[str, Sequence[int]]], *, y_label: str, x_label: str
) -> dict[str, Any]:
    """Stacked bars, one per category (x are 0, 1, ...), ``series`` as (label,
    values) with one value per category, stacked in their order from the bottom."""
    for label, values in series:
        if len(values) != len(categories):
            raise ValueError(f"series {label!r} has {len(values)} values for {len(categories)} bars")
    return {
        "kind": "bars",
        "time": False,
        "x": list(range(len(categories))),
        "categories": list(categories),
        "series": [{"label": label, "values": list(values)} for label, values in series],
        "y_label": y_label,
        "x_label": x_label,
    }
