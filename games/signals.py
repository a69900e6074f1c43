"""Signals of the games app.

``game_finished(sender=Game, game=<Game>, table=<Table>)`` is sent once per
game, after the transaction that ended it commits (the ratings listen to it).
``game.result`` holds {"scores", "winner", "reason", "resigned", "rounds"};
``game.winner`` is the winning seat, or pair with pairs, or None for a draw.
"""

from django.dispatch import Signal

game_finished = Signal()
