"""The tournament page's websocket ``/ws/tournament/<id>/`` (docs/protocol.md):
the live standings.

Server -> client only: a ``standings`` frame on connect and after every
scored game (and at the end): ``{"type": "standings", "tournament": id,
"status": ..., "players": n, "top": [row, ...], "me": rank | null,
"around": [row, ...]}``, a row ``{"rank", "player", "score", "games",
"fire"}``. ``top`` is the first ten; ``me`` the viewer's own rank when they
joined, ``around`` the rows within two ranks of it below the top. The scoring
sends the shared part to the tournament's group after its commit
(``services.announce_standings``) with the ranks that moved; a socket reads
its viewer's rank and rows again only when those ranks reach them. A private
tournament's socket needs its key (``?key=``) unless the viewer is its
creator or a player. The client sends nothing (any frame gets ``bad_frame``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from games.socket.base import JsonSocket, socket_language
from games.verifier import arena
from tournaments import selectors
from tournaments.models import Tournament

CLOSE_NOT_FOUND = 4404


def _opening(tournament_id: int, key: str, user_id: int | None) -> dict[str, Any] | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not selectors.visible(tournament, key=key, user_id=user_id):
        return None
    return selectors.standings_frame(tournament, user_id, streak_after=arena.STREAK_AFTER)


class TournamentConsumer(JsonSocket):
    rate_per_second = 1.0
    rate_burst = 5.0
    tournament_id = 0
    user_id: int | None = None
    rank: int | None = None
    around: list[dict[str, Any]]
    _group = ""

    async def connect(self) -> None:
        self.around = []
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.language = socket_language(self.scope)
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        key = (query.get("key") or [""])[0]
        frame = await database_sync_to_async(_opening)(self.tournament_id, key, self.user_id)
        if frame is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self._group = selectors.frame_group(self.tournament_id)
        await self.channel_layer.group_add(self._group, self.channel_name)
        await self.accept()
        self.rank, self.around = frame["me"], frame["around"]
        if self.rank is None:
            # Not a player (joining reloads the page, and so the socket): the
            # shared part is all this viewer gets.
            self.user_id = None
        await self.send_json(frame)

    async def cleanup(self) -> None:
        if self._group:
            await self.channel_layer.group_discard(self._group, self.channel_name)

    async def tournament_standings(self, message: dict[str, Any]) -> None:
        """New standings: the shared part, with this viewer's rank and rows
        read again when the ranks that moved reach them."""
        if self.user_id is not None and selectors.touches(self.rank, int(message["lo"]), int(message["hi"])):
            self.rank, self.around = await database_sync_to_async(selectors.viewer_part)(
                self.tournament_id, self.user_id, streak_after=arena.STREAK_AFTER
            )
        await self.send_json({**message["frame"], "me": self.rank, "around": self.around})
