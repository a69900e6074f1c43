"""Reads of the community: blocks, mutes, what chat a viewer may read, a
member's standing (docs/moderation.md)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from accounts.models import Profile
from accounts.selectors import bot_ids, shown_name
from community.models import Block, ChatLine, ChatMute, ModerationAction, Report, Standing
from games.models import Table

HISTORY_LINES = 30


def has_blocked(blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_by(user_id: int) -> set[int]:
    """The members ``user_id`` blocked."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def block_pairs(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` where one blocked the other (the
    matcher keeps them apart: lobby.matchmaking)."""
    ids = list(user_ids)
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")
    return {frozenset(pair) for pair in rows}


def hidden_from(table_id: int, author_id: int) -> tuple[int, ...]:
    """The members who do not see ``author_id``'s lines at this table: they
    blocked them, muted them here, or muted this table's whole chat."""
    blockers = Block.objects.filter(blocked_id=author_id).values_list("blocker_id", flat=True)
    muters = ChatMute.objects.filter(
        Q(muted_id=author_id) | Q(muted__isnull=True), table_id=table_id
    ).values_list("member_id", flat=True)
    return tuple(sorted(set(blockers) | set(muters)))


def _not_hidden_for(viewer_id: int | None, table_id: int | None) -> Q:
    if viewer_id is None:
        return Q(only_author=False)
    blocked = Block.objects.filter(blocker_id=viewer_id).values("blocked_id")
    shown = (Q(only_author=False) | Q(author_id=viewer_id)) & ~Q(author_id__in=blocked)
    if table_id is None:
        return shown
    # Not the whole-table mute (no member muted: a NULL would hide every line).
    muted = ChatMute.objects.filter(table_id=table_id, member_id=viewer_id, muted__isnull=False).values("muted_id")
    return shown & ~Q(author_id__in=muted)


def chat_frame(line: ChatLine, username: str, *, bot: bool = False) -> dict[str, Any]:
    """The ``chat`` frame of a stored line (docs/protocol.md); ``bot``: its
    author is a bot account (the page marks the name)."""
    return {"type": "chat", "id": line.pk, "from": username, "text": line.text, "room": line.room, "bot": bot}


def _frames(lines: list[ChatLine]) -> list[dict[str, Any]]:
    bots = bot_ids({line.author_id for line in lines})
    return [chat_frame(line, shown_name(line.author), bot=line.author_id in bots) for line in lines]


def lines_for(
    *, table_id: int, rooms: Collection[str], viewer_id: int | None, game_id: int | None = None, limit: int | None
) -> list[dict[str, Any]]:
    """The lines of ``rooms`` at this table ``viewer_id`` may read, oldest
    first (the last ``limit``): never a troll's but to the troll, never one
    of a member the viewer muted here or blocked, none if the viewer muted
    this table's whole chat."""
    if table_muted(table_id, viewer_id):
        return []
    return _readable(table_id=table_id, rooms=rooms, viewer_id=viewer_id, game_id=game_id, limit=limit)


def _readable(
    *, table_id: int, rooms: Collection[str], viewer_id: int | None, game_id: int | None, limit: int | None
) -> list[dict[str, Any]]:
    """``lines_for`` once the whole-table mute is known to be off."""
    lines = ChatLine.objects.filter(table_id=table_id, room__in=list(rooms)).filter(
        _not_hidden_for(viewer_id, table_id)
    )
    if game_id is not None:
        lines = lines.filter(game_id=game_id)
    picked = lines.select_related("author").order_by("-created", "-pk")
    if limit is not None:
        picked = picked[:limit]
    return _frames(list(reversed(list(picked))))


def tournament_lines(*, tournament_id: int, viewer_id: int, limit: int = HISTORY_LINES) -> list[dict[str, Any]]:
    """The last lines of a tournament's chat ``viewer_id`` may read, oldest
    first, as ``chat`` frames: never a troll's but to the troll, never one of
    a member the viewer blocked or muted in this chat (the tournaments app
    shows them to its players only). Each has ``member`` too, the author's
    username for the page's Report and Mute links (None once the account is
    closed: no profile), and ``tournament``."""
    muted = ChatMute.objects.filter(tournament_id=tournament_id, member_id=viewer_id).values("muted_id")
    lines = (
        ChatLine.objects.filter(tournament_id=tournament_id, room=ChatLine.Room.TOURNAMENT)
        .filter(_not_hidden_for(viewer_id, None))
        .exclude(author_id__in=muted)
        .select_related("author")
        .order_by("-created", "-pk")[:limit]
    )
    shown = list(reversed(list(lines)))
    return [
        frame | {"member": line.author.get_username() if line.author.is_active else None, "tournament": tournament_id}
        for frame, line in zip(_frames(shown), shown, strict=True)
    ]


def tournament_mutes(*, member_id: int, muted_id: int) -> list[int]:
    """The tournaments in whose chat ``member_id`` muted ``muted_id`` (the
    muted member's profile offers to unmute there)."""
    rows = (
        ChatMute.objects.filter(member_id=member_id, muted_id=muted_id, tournament_id__isnull=False)
        .order_by("tournament_id")
        .values_list("tournament_id", flat=True)
    )
    return [tournament_id for tournament_id in rows if tournament_id is not None]


def room_of(seat: int | None) -> str:
    """A seat writes and reads the players' chat; a watcher the spectators'."""
    return ChatLine.Room.SPECTATORS if seat is None else ChatLine.Room.PLAYERS


def chat_off(user_id: int | None) -> bool:
    """The member turned the table chat off (their preference, every table)."""
    return user_id is not None and Profile.objects.filter(user_id=user_id, chat_off=True).exists()


def chat_blocked_frame(username: str) -> dict[str, Any]:
    """To the blocker's table sockets only: the page drops the lines of
    ``username`` it shows and keeps every later one out."""
    return {"type": "chat_blocked", "user": username}


def table_muted(table_id: int, user_id: int | None) -> bool:
    """The member muted this table's whole chat (the panel's "Mute this
    table's chat": kept for this table only)."""
    return (
        user_id is not None
        and ChatMute.objects.filter(table_id=table_id, member_id=user_id, muted__isnull=True).exists()
    )


def table_muted_frame(muted: bool) -> dict[str, Any]:
    """The answer to the panel's "Mute this table's chat", and the catch-up of
    a member who muted it: no line of this table is delivered to them (each
    line leaves them out: ``hidden_from``)."""
    return {"type": "chat_muted", "table": True, "mute": muted}


def chat_off_frame(off: bool) -> dict[str, Any]:
    """The answer to the chat panel's switch: the whole chat off (or on again)
    for this viewer. The table socket keeps it and delivers no line while off."""
    return {"type": "chat_muted", "all": True, "mute": off}


def history(*, table_id: int, seat: int | None, user_id: int | None) -> list[dict[str, Any]]:
    """A socket's catch-up: the last lines of the viewer's room, or, for a
    member who turned the chat off or muted this table's chat, only the
    frames that say so."""
    muted_here = table_muted(table_id, user_id)
    frames = [chat_off_frame(True)] if chat_off(user_id) else []
    if muted_here:
        frames.append(table_muted_frame(True))
    if frames:
        return frames
    return _readable(table_id=table_id, rooms=[room_of(seat)], viewer_id=user_id, game_id=None, limit=HISTORY_LINES)


def standing_of(user_id: int) -> Standing | None:
    return Standing.objects.filter(member_id=user_id).first()


def chat_timeout(user_id: int, *, now: datetime | None = None) -> Standing | None:
    """The member's standing while a chat timeout runs, else None."""
    standing = standing_of(user_id)
    moment = now or timezone.now()
    if standing is None or standing.chat_timeout_until is None or standing.chat_timeout_until <= moment:
        return None
    return standing


def warnings_of(user_id: int, *, limit: int = 5) -> list[ModerationAction]:
    """The moderators' last warnings and timeouts of a member (shown to them)."""
    kinds = [ModerationAction.Kind.WARN, ModerationAction.Kind.CHAT_TIMEOUT]
    return list(ModerationAction.objects.filter(member_id=user_id, kind__in=kinds).order_by("-created")[:limit])


def table_of_member(*, table_id: int, user_id: int) -> Table | None:
    """The table ``table_id`` if the member sat at it (a report from a name at
    the table attaches it), else None."""
    return Table.objects.filter(pk=table_id, seats__user_id=user_id).distinct().first()


def member_data(user_id: int) -> dict[str, Any]:
    """The community's part of a member's data file (``accounts.hooks.export_parts``):
    every chat line they wrote (with where), the members they muted at a table
    (``member`` None: the whole chat of that table) or in a tournament's chat,
    and those they block, the reports
    they made, and the moderators' actions about them with their reasons (not who
    took them: the moderators' names are the staff's)."""
    lines = ChatLine.objects.filter(author_id=user_id).order_by("created", "pk")
    return {
        "chat_lines": [
            {
                "at": line.created.isoformat(),
                "table": line.table_id,
                "tournament": line.tournament_id,
                "room": line.room,
                "text": line.text,
                "hidden_from_others": line.only_author,
            }
            for line in lines
        ],
        "chat_mutes": [
            {
                "member": shown_name(mute.muted) if mute.muted is not None else None,
                "table": mute.table_id,
                "tournament": mute.tournament_id,
            }
            for mute in ChatMute.objects.filter(member_id=user_id).select_related("muted").order_by("pk")
        ],
        "blocks": [
            {"member": shown_name(block.blocked), "since": block.created.isoformat()}
            for block in Block.objects.filter(blocker_id=user_id).select_related("blocked").order_by("created")
        ],
        "reports_made": [
            {
                "about": shown_name(report.reported),
                "reason": report.reason,
                "text": report.text,
                "table": report.table_id,
                "status": report.status,
                "at": report.created.isoformat(),
            }
            for report in Report.objects.filter(reporter_id=user_id).select_related("reported").order_by("created")
        ],
        "moderation": [
            {"kind": action.kind, "reason": action.reason, "at": action.created.isoformat()}
            for action in ModerationAction.objects.filter(member_id=user_id).order_by("created")
        ],
    }
