"""Writes of the community: chat lines (their limits and filter), mutes,
blocks, reports and the moderators' actions (docs/moderation.md)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_bot
from accounts.services import ClosingError, cancel_friend_request, deactivate_account, update_preferences
from community import chat_filter, selectors
from community.models import MAX_CHAT_CHARS, Block, ChatLine, ChatMute, ModerationAction, Report, Standing
from games.live import broadcast
from games.models import Game, Table
from games.signals import ChatDelivery, ChatRefused

# Flood: at most FLOOD_LINES lines in FLOOD_SECONDS (every table together).
FLOOD_LINES = 5
FLOOD_SECONDS = 10
# A line said again at the same table within REPEAT_SECONDS is refused.
REPEAT_SECONDS = 120
# The evidence a report keeps: the reported member's last lines at the table.
EVIDENCE_LINES = 50


class CommunityError(ValueError):
    """A request refused, with its message for the member."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- Chat ------------------------------------------------------------------------


def _checked(*, user_id: int | None, text: str, moment: datetime, said_here: Q) -> tuple[str, bool, bool]:
    """The rules of every chat, a table's or a tournament's: members only,
    not during a chat timeout (told why and until when), 140 characters, the
    filter, the flood limit (every chat together), the same line again here
    (``said_here``). Returns the text shown, whether the filter masked words,
    and whether the author is marked as a troll."""
    if user_id is None:
        raise ChatRefused("not_allowed", _("Only members can write in the chat; guests can read it."))
    timeout = selectors.chat_timeout(user_id, now=moment)
    if timeout is not None and timeout.chat_timeout_until is not None:
        until = formats.date_format(timezone.localtime(timeout.chat_timeout_until), "DATETIME_FORMAT")
        raise ChatRefused(
            "chat_timeout",
            _("A moderator closed the chat to you until %(until)s: %(reason)s")
            % {"until": until, "reason": timeout.chat_timeout_reason},
            until=timeout.chat_timeout_until.isoformat(),
        )
    if len(text) > MAX_CHAT_CHARS:
        raise ChatRefused("bad_frame", _("A chat line has %(most)d characters at most.") % {"most": MAX_CHAT_CHARS})
    shown, filtered = chat_filter.clean(text)
    if not shown:
        raise ChatRefused("bad_frame", _("This chat line is empty."))
    recent = ChatLine.objects.filter(author_id=user_id, created__gt=moment - timedelta(seconds=FLOOD_SECONDS))
    if recent.count() >= FLOOD_LINES:
        raise ChatRefused("rate_limited", _("You are writing too fast: wait a few seconds."))
    said = ChatLine.objects.filter(
        said_here, author_id=user_id, created__gt=moment - timedelta(seconds=REPEAT_SECONDS)
    ).values_list("text", flat=True)
    if any(line.casefold() == shown.casefold() for line in said):
        raise ChatRefused("repeated", _("You have just said that."))
    standing = selectors.standing_of(user_id)
    return shown, filtered, bool(standing and standing.troll)


def say(
    *, table_id: int, game_id: int | None, seat: int | None, user_id: int | None, text: str,
    now: datetime | None = None,
) -> ChatDelivery:
    """Store a chat line and say who sees it. Refused (``ChatRefused``, nothing
    stored) for a guest, during a chat timeout (with its reason), when empty or
    too long, too fast, or said again."""
    moment = now or timezone.now()
    shown, filtered, troll = _checked(user_id=user_id, text=text, moment=moment, said_here=Q(table_id=table_id))
    assert user_id is not None  # _checked refuses a guest
    author = get_user_model().objects.get(pk=user_id)
    line = ChatLine.objects.create(
        table_id=table_id, game_id=game_id, author_id=user_id, room=selectors.room_of(seat), text=shown,
        filtered=filtered, only_author=troll, created=moment,
    )
    return ChatDelivery(
        frame=selectors.chat_frame(line, author.get_username(), bot=is_bot(user_id)),
        room=line.room,
        author_id=user_id,
        only_author=troll,
        hidden_from=selectors.hidden_from(table_id, user_id),
    )


def say_in_tournament(*, tournament_id: int, user_id: int | None, text: str, now: datetime | None = None) -> ChatLine:
    """A line of a tournament's chat (the tournaments app checks that the
    author joined it): the same rules as at a table; its players read it on
    the tournament page (``selectors.tournament_lines``)."""
    moment = now or timezone.now()
    shown, filtered, troll = _checked(
        user_id=user_id, text=text, moment=moment, said_here=Q(tournament_id=tournament_id)
    )
    assert user_id is not None  # _checked refuses a guest
    return ChatLine.objects.create(
        tournament_id=tournament_id, author_id=user_id, room=ChatLine.Room.TOURNAMENT, text=shown,
        filtered=filtered, only_author=troll, created=moment,
    )


def mute_all(*, user_id: int | None, mute: bool) -> dict[str, object]:
    """The chat panel's switch: the whole table chat off (or on again) for the
    viewer, remembered as a member's preference (every table, the settings
    page's "Turn the table chat off"); a guest's lasts as long as its socket."""
    if user_id is not None:
        update_preferences(user=get_user_model().objects.get(pk=user_id), chat_off=mute)
    return selectors.chat_off_frame(mute)


def mute_table(*, table_id: int, user_id: int | None, mute: bool) -> dict[str, object]:
    """The chat panel's "Mute this table's chat": no line of this table
    reaches the member here (live or in the catch-up), kept when they come
    back to it; the other tables and the ``chat_off`` preference do not
    change. Members only (a guest has the whole-chat switch)."""
    if user_id is None:
        raise ChatRefused("not_allowed", _("Only members can mute the chat."))
    if mute:
        ChatMute.objects.get_or_create(table_id=table_id, member_id=user_id, muted=None)
    else:
        ChatMute.objects.filter(table_id=table_id, member_id=user_id, muted__isnull=True).delete()
    return selectors.table_muted_frame(mute)


def mute(*, table_id: int, user_id: int | None, username: str, mute: bool) -> dict[str, object]:
    """The viewer mutes (or unmutes) ``username``'s lines at this table."""
    if user_id is None:
        raise ChatRefused("not_allowed", _("Only members can mute the chat."))
    other = get_user_model().objects.filter(username=username).first()
    if other is None or other.pk == user_id:
        raise ChatRefused("bad_frame", _("There is no such member to mute."))
    if mute:
        ChatMute.objects.get_or_create(table_id=table_id, member_id=user_id, muted=other)
    else:
        ChatMute.objects.filter(table_id=table_id, member_id=user_id, muted=other).delete()
    return {"type": "chat_muted", "user": other.get_username(), "mute": mute}


def mute_in_tournament(*, tournament_id: int, member: User, muted: User, mute: bool) -> ChatMute | None:
    """``member`` mutes (or unmutes) ``muted``'s lines in the tournament's
    chat: none of them, past or coming, is shown to them there (the
    tournament's page, ``selectors.tournament_lines``). Only a member who
    wrote in that chat can be muted there."""
    if muted.pk == member.pk:
        raise CommunityError(_("There is no such member to mute."))
    if not mute:
        ChatMute.objects.filter(tournament_id=tournament_id, member=member, muted=muted).delete()
        return None
    if not ChatLine.objects.filter(tournament_id=tournament_id, author=muted).exists():
        raise CommunityError(_("There is no such member to mute."))
    row, _created = ChatMute.objects.get_or_create(tournament_id=tournament_id, member=member, muted=muted)
    return row


# --- Blocks ----------------------------------------------------------------------


def block(*, blocker: User, blocked: User) -> Block:
    """``blocker`` blocks ``blocked`` (again: no change). The blocked member is
    not told. The blocker's pending friend request to them is withdrawn (as
    if cancelled: they could no longer accept it); theirs to the blocker
    stays, never shown to the blocker (``accounts.hooks.unwanted_contacts``)."""
    if blocker.pk == blocked.pk:
        raise CommunityError(_("You cannot block yourself."))
    row, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    cancel_friend_request(user=blocker, other_id=blocked.pk)
    # The blocker's open table pages drop the lines of the blocked member
    # they already show; only the blocker's sockets hear of it.
    frame = selectors.chat_blocked_frame(blocked.get_username())
    transaction.on_commit(lambda: broadcast.send_to_member(blocker.pk, frame))
    return row


def unblock(*, blocker: User, blocked: User) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked).delete()[0] > 0


# --- Reports ---------------------------------------------------------------------


def report(
    *, reporter: User, reported: User, reason: str, text: str = "", table_id: int | None = None,
    chat_line_id: int | None = None,
) -> Report:
    """A report, its evidence attached by the site: the chat line reported,
    the reported member's lines at that table, the game; for a line of a
    tournament's chat, the tournament and their lines in its chat."""
    if reporter.pk == reported.pk:
        raise CommunityError(_("You cannot report yourself."))
    if reason not in Report.Reason.values:
        raise CommunityError(_("Choose a reason for the report."))
    if len(text) > 1000:
        raise CommunityError(_("Say it in 1000 characters at most."))
    line = None
    if chat_line_id is not None:
        line = ChatLine.objects.filter(pk=chat_line_id, author=reported).first()
        if line is None:
            raise CommunityError(_("There is no such chat line of this member."))
        table_id = line.table_id
    table = Table.objects.filter(pk=table_id).first() if table_id is not None else None
    game = Game.objects.filter(table=table).first() if table is not None else None
    evidence: dict[str, object] = {}
    if table is not None:
        lines = ChatLine.objects.filter(table=table, author=reported).order_by("-created")[:EVIDENCE_LINES]
        evidence["chat"] = [
            {"id": item.pk, "room": item.room, "text": item.text, "at": item.created.isoformat()}
            for item in reversed(list(lines))
        ]
        evidence["table"] = table.pk
    if game is not None:
        evidence["game"] = game.pk
    if line is not None and line.tournament_id is not None:
        lines = ChatLine.objects.filter(tournament_id=line.tournament_id, author=reported).order_by("-created", "-pk")
        evidence["chat"] = [
            {"id": item.pk, "room": item.room, "text": item.text, "at": item.created.isoformat()}
            for item in reversed(list(lines[:EVIDENCE_LINES]))
        ]
        evidence["tournament"] = line.tournament_id
    return Report.objects.create(
        reporter=reporter, reported=reported, reason=reason, text=text.strip(), table=table, game=game,
        chat_line=line, evidence=evidence,
    )


# --- The moderators' actions (every one logged with who took it) -------------------


def _log(
    *, member: User, moderator: User, kind: str, reason: str, report: Report | None,
    until: datetime | None = None,
) -> ModerationAction:
    if not reason.strip():
        raise CommunityError(_("Give the reason of the action."))
    action = ModerationAction.objects.create(
        member=member, moderator=moderator, kind=kind, reason=reason.strip(), until=until, report=report
    )
    if report is not None:
        report.status = Report.Status.DISMISSED if kind == ModerationAction.Kind.DISMISS else Report.Status.ACTED
        report.save(update_fields=["status"])
    return action


@transaction.atomic
def warn(*, member: User, moderator: User, reason: str, report: Report | None = None) -> ModerationAction:
    """A warning, shown to the member on their profile."""
    return _log(member=member, moderator=moderator, kind=ModerationAction.Kind.WARN, reason=reason, report=report)


@transaction.atomic
def chat_timeout(
    *, member: User, moderator: User, reason: str, hours: float, report: Report | None = None,
    now: datetime | None = None,
) -> ModerationAction:
    """The chat closed to the member for ``hours``; they are told why and until when."""
    if not 0 < hours <= 24 * 30:
        raise CommunityError(_("A chat timeout lasts from a few minutes to 30 days."))
    until = (now or timezone.now()) + timedelta(hours=hours)
    action = _log(
        member=member, moderator=moderator, kind=ModerationAction.Kind.CHAT_TIMEOUT, reason=reason,
        report=report, until=until,
    )
    Standing.objects.update_or_create(
        member=member, defaults={"chat_timeout_until": until, "chat_timeout_reason": action.reason}
    )
    return action


@transaction.atomic
def lift_chat_timeout(
    *, member: User, moderator: User, reason: str, report: Report | None = None
) -> ModerationAction:
    """The member's chat timeout ended now (they may write again at once).
    Refused, nothing logged, when no timeout runs."""
    if selectors.chat_timeout(member.pk) is None:
        raise CommunityError(_("%(member)s has no chat timeout running.") % {"member": member.get_username()})
    action = _log(
        member=member, moderator=moderator, kind=ModerationAction.Kind.LIFT_TIMEOUT, reason=reason, report=report
    )
    Standing.objects.filter(member=member).update(chat_timeout_until=None, chat_timeout_reason="")
    return action


@transaction.atomic
def mark_troll(
    *, member: User, moderator: User, reason: str, troll: bool = True, report: Report | None = None
) -> ModerationAction:
    """A troll's lines are shown to themselves only (they are not told);
    ``troll=False`` lifts the mark (their next lines are shown again; those
    said while marked stay hidden). Lifting a mark that is not there is
    refused, nothing logged."""
    if not troll:
        standing = selectors.standing_of(member.pk)
        if standing is None or not standing.troll:
            raise CommunityError(_("%(member)s is not marked as a troll.") % {"member": member.get_username()})
    kind = ModerationAction.Kind.TROLL if troll else ModerationAction.Kind.UNTROLL
    action = _log(member=member, moderator=moderator, kind=kind, reason=reason, report=report)
    Standing.objects.update_or_create(member=member, defaults={"troll": troll})
    return action


@transaction.atomic
def close_account(*, member: User, moderator: User, reason: str, report: Report | None = None) -> ModerationAction:
    """The account deactivated: it can no longer log in, and it leaves the
    queues, its waiting tables, its invitations and the tournaments not over
    (``accounts.services.deactivate_account``); nothing of it is erased, unlike
    the member's own closing (docs/moderation.md). Refused, nothing logged,
    if an app gives a reason; an account already closed is only logged."""
    try:
        deactivate_account(member=member)
    except ClosingError as error:
        raise CommunityError("; ".join(error.reasons)) from None
    return _log(member=member, moderator=moderator, kind=ModerationAction.Kind.CLOSE, reason=reason, report=report)


@transaction.atomic
def dismiss(*, report: Report, moderator: User, reason: str) -> ModerationAction:
    return _log(
        member=report.reported, moderator=moderator, kind=ModerationAction.Kind.DISMISS, reason=reason, report=report
    )
