"""A table's choices are checked once for every form that opens a table: the
computer tables' form (games.pages.forms) and the private tables' form
(lobby.forms) refuse the same choices with the same messages, and what they
accept is what the engine accepts (``rules_for``)."""

from __future__ import annotations

import itertools

from games.engine import PRESET_OPTIONS, rules_for
from games.pages.forms import PlayComputerForm
from games.play.variants import variant_name
from lobby.forms import PrivateTableForm


def fields(preset: str, players: int, teams: bool, target: int) -> dict[str, str]:
    data = {"preset": preset, "players": str(players), "target": str(target), "level": "medium", "public": "on"}
    if teams:
        data["teams"] = "on"
    return data


def test_both_forms_check_every_choice_alike_and_as_the_engine_does() -> None:
    refused = 0
    for preset, players, teams, target in itertools.product(PRESET_OPTIONS, (2, 3, 4), (False, True), (0, 50, 100)):
        computer = PlayComputerForm(fields(preset, players, teams, target))
        private = PrivateTableForm(fields(preset, players, teams, target))
        choice = (preset, players, teams, target)
        assert private.is_valid() == computer.is_valid(), choice
        assert private.errors == computer.errors, choice
        try:
            expected = rules_for(preset, players=players, teams=teams, target=target)
        except ValueError:
            assert not private.is_valid(), choice
            refused += 1
            continue
        assert private.cleaned_data["rules"] == expected, choice
        assert private.cleaned_data["teams"] is teams
    assert refused > 20  # the check is exercised, not only the valid choices


def test_a_private_table_names_the_game_lengths_allowed_as_the_form_shows_them() -> None:
    form = PrivateTableForm(fields("classic-draw", 2, False, 0))
    assert not form.is_valid()
    name = variant_name("classic-draw")
    assert form.errors["target"] == [f"{name} is played to: 100 points, 50 points."]
