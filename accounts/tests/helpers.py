"""Helpers of the accounts tests: ranked tables played through the services."""

from __future__ import annotations

import random
from typing import Any

from games import selectors, services
from games.engine import legal_actions
from games.models import Game, Table
from games.modes import RANKED_MODES


def ranked_table(users: list[Any], mode: str = "duel-block") -> Table:
    """A started ranked table of ``users``. About one block-game deal in a
    hundred and twenty is blocked from the first tile (nobody holds the
    opening number): such a deal is thrown away, the tests want a live game."""
    spec = RANKED_MODES[mode]
    for _attempt in range(50):
        table = services.create_table(
            kind=Table.Kind.RANKED,
            rules=spec.rules,
            preset=spec.preset,
            seats=[services.SeatSpec(user=user) for user in users],
            public=True,
            mode=mode,
        )
        if Game.objects.get(table=table).to_move is not None:
            return table
        table.delete()
    raise AssertionError("no playable deal in 50 attempts")


def play_out(table: Table, *, seed: int = 0, max_moves: int = 3000) -> Game:
    """Play every seat at random until the game ends (rounds dealt by the server)."""
    rng = random.Random(seed)
    game = Game.objects.get(table=table)
    for _ in range(max_moves):
        game.refresh_from_db()
        state = selectors.game_state(game)
        if state.game_over:
            return game
        if state.to_move is None:
            services.start_next_round(game_id=game.pk, seat=None, expected_seq=game.seq)
            continue
        action = rng.choice(legal_actions(state))
        services.play_move(game_id=game.pk, seat=state.to_move, action=action, expected_seq=game.seq)
    raise AssertionError("the game did not end")
