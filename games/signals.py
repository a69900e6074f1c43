"""Signals of the games app.

``game_finished(sender=Game, game=<Game>, table=<Table>)`` is sent once per
game, after the transaction that ended it commits (the ratings listen to it).
``game.result`` holds {"scores", "winner", "reason", "resigned", "rounds",
"rounds_played", "aborted"}; ``game.winner`` is the winning seat, or pair with
pairs, or None for a draw. ``game.aborted`` (``result["aborted"]``): the game
was resigned or agreed drawn before any tile beyond the opening
(games.outcome); every receiver treats it as not played: no rating, no
experience, the stakes returned.
"""

from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

game_finished = Signal()

# A table socket opened or closed (the lobby starts its embedded loop).
# Arguments: table_id, seat (None for a spectator), user_id (or None),
# session_key ("" if none), channel_name. Sent from a worker thread.
table_socket_opened = Signal()
table_socket_closed = Signal()

# A person left a game and it ended against them (an abandonment: the clock
# ran out while they were away, or their opponent claimed the win). Sent
# inside the transaction that ended it. Arguments: table_id, seat, user_id
# (None for a guest). The members' app counts it against the member.
seat_abandoned = Signal()

# Which members are bot accounts (the flag belongs to the members' app above):
# asked when members take seats, to store ``Seat.bot``. Arguments: user_ids (a
# list). Each receiver returns a set of the ids that are bots; their union counts.
member_bots = Signal()

# The table page asks the apps above for panels to show on it (the lobby
# shows a room table's stake, payouts and the players' levels). Arguments:
# request, table. Each receiver returns rendered HTML (safe) or "".
table_page_panels = Signal()

# The seats of a waiting table (games.play.services.waiting), sent inside the
# transaction that changes them, so that what a higher app keeps about the
# table (the lobby: a room table's stakes) changes with them or not at all.
# Arguments: table, game, user_id, seat (its number).
# ``waiting_seat_taking``: before a member's seat is written; a receiver
# refuses the seat by raising a ``games.play.services.GameError`` (nothing is written).
waiting_seat_taking = Signal()
# ``waiting_seat_left``: after a member's seat was given back (they left,
# or the owner freed it).
waiting_seat_left = Signal()
# ``waiting_table_closed``: after a waiting table was aborted (the owner
# left, or it waited too long). Arguments: table, game, reason.
waiting_table_closed = Signal()

# The table page asks the apps above for the viewer's preferences (a
# member's settings: accounts). Arguments: request, table. Each receiver
# returns a dict or None; the page's config carries their union as
# "preferences" (null for a guest, whose switches stay in their browser).
table_page_preferences = Signal()

# The home page asks the apps above for panels (the puzzles app shows the
# puzzle of the day). Arguments: request. Each receiver returns rendered
# HTML (safe) or "".
home_page_panels = Signal()

# The periodic tick (lobby.periodic, which runs every app's periodic jobs)
# asks the apps it may not import for theirs: each receiver runs its job and
# returns a dict of what it did, merged into the tick's report. A receiver
# that raises is logged and the others still run.
periodic_tick = Signal()

# Chat at the table belongs to a higher app (community/): the table socket
# hands it what the viewer says and asks it what to show, through these
# signals, and knows nothing else of it (docs/moderation.md). Sent from a
# worker thread, in the viewer's language; the first receiver's answer counts.
# ``table_chat``: a ``chat`` frame. Arguments: table_id, game_id (or None),
# seat (None for a spectator), user_id (None for a guest), text. A receiver
# stores the line and returns a ``ChatDelivery``, or raises ``ChatRefused``.
table_chat = Signal()
# ``table_chat_history``: the last lines the viewer may read, oldest first, as
# ``chat`` frames (a socket's catch-up). Arguments: table_id, seat, user_id.
table_chat_history = Signal()
# ``table_chat_mute``: the viewer mutes (or unmutes) a member's lines at this
# table, or, with ``everyone=True`` (username ""), the whole chat, or, with
# ``here=True`` (username ""), this table's whole chat. Arguments: table_id,
# user_id, username, mute, everyone, here. A receiver returns the frame to
# send back, or raises ``ChatRefused``. A ``chat_muted`` frame with
# ``"all": true`` (that answer, or the first of a catch-up) turns the socket's
# delivery of lines off or on.
table_chat_mute = Signal()


@dataclass(frozen=True, slots=True)
class ChatDelivery:
    """A stored chat line and who sees it: ``frame`` (the ``chat`` frame),
    ``room`` ("players": the seats' groups, "spectators": the watchers'),
    ``author_id``; ``only_author``: a line the others never see (a troll's);
    ``hidden_from``: the members who muted or blocked its author, or muted
    this table's whole chat."""

    frame: dict[str, Any]
    room: str
    author_id: int
    only_author: bool = False
    hidden_from: tuple[int, ...] = ()


class ChatRefused(Exception):
    """A chat frame refused: ``code`` and ``message`` for the ``error`` frame."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

# The post-game review (games.coach.review_page) asks the apps above for the
# puzzles made from the game at the positions of its mistakes (the puzzles
# app). Arguments: game, seqs ({a mistake's move number: the seat that
# played it}). Each receiver
# returns {seq: url} for the mistakes whose position (just before that
# move, with the same seat to play) is a puzzle, or {}.
review_mistake_puzzles = Signal()
