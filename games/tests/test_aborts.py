"""A game resigned or agreed drawn before any tile beyond the opening is an
abort (issue 33): explicit in the data (``Game.result["aborted"]``), in the
``game_over`` frame, and shown so on the replay."""

from __future__ import annotations

import pytest
from django.test import Client

from games.live import frames
from games.models import Game
from games.play import selectors, services
from games.tests.factories import UserFactory
from games.tests.helpers import play_past_the_opening, ranked_table

pytestmark = pytest.mark.django_db


def test_an_instant_resignation_is_an_abort_in_the_result_and_the_frame() -> None:
    table = ranked_table([UserFactory(), UserFactory()])
    services.resign(game_id=table.game.pk, seat=0)
    game = Game.objects.get(table=table)
    assert game.result["aborted"] is True
    assert game.result["rounds_played"] == 0
    assert game.aborted
    frame = frames.game_over_frame(game.seq, selectors.game_state(game))
    assert frame["aborted"] is True


def test_a_resignation_after_the_opening_is_not_an_abort() -> None:
    table = ranked_table([UserFactory(), UserFactory()])
    play_past_the_opening(table)
    services.resign(game_id=table.game.pk, seat=0)
    game = Game.objects.get(table=table)
    assert game.result["aborted"] is False
    assert not game.aborted
    assert frames.game_over_frame(game.seq, selectors.game_state(game))["aborted"] is False


@pytest.mark.parametrize(("language", "text"), [("en", "Aborted"), ("fr", "Partie annulée")])
def test_the_replay_says_the_game_was_aborted(language: str, text: str) -> None:
    table = ranked_table([UserFactory(), UserFactory()])
    services.resign(game_id=table.game.pk, seat=1)
    html = Client().get(f"/table/{table.pk}/replay/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "data-aborted" in html
    assert text in html
    played = ranked_table([UserFactory(), UserFactory()])
    play_past_the_opening(played)
    services.resign(game_id=played.game.pk, seat=1)
    assert "data-aborted" not in Client().get(f"/table/{played.pk}/replay/").content.decode()
