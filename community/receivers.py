"""The community's answers to the table socket (games.signals): chat lines,
their catch-up, mutes."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.hooks import export_parts, profile_panels, replay_panels, unwanted_contacts
from community import selectors, services
from community.models import ChatLine, Report
from games.signals import ChatDelivery, table_chat, table_chat_history, table_chat_mute


@receiver(table_chat, dispatch_uid="community.chat")
def on_chat(
    sender: Any, *, table_id: int, game_id: int | None, seat: int | None, user_id: int | None, text: str,
    **kwargs: Any,
) -> ChatDelivery:
    return services.say(table_id=table_id, game_id=game_id, seat=seat, user_id=user_id, text=text)


@receiver(table_chat_history, dispatch_uid="community.chat_history")
def on_history(
    sender: Any, *, table_id: int, seat: int | None, user_id: int | None, **kwargs: Any
) -> list[dict[str, Any]]:
    return selectors.history(table_id=table_id, seat=seat, user_id=user_id)


@receiver(table_chat_mute, dispatch_uid="community.chat_mute")
def on_mute(
    sender: Any, *, table_id: int, user_id: int | None, username: str, mute: bool, everyone: bool = False,
    here: bool = False, **kwargs: Any,
) -> dict[str, object]:
    if everyone:
        return services.mute_all(user_id=user_id, mute=mute)
    if here:
        return services.mute_table(table_id=table_id, user_id=user_id, mute=mute)
    return services.mute(table_id=table_id, user_id=user_id, username=username, mute=mute)


@receiver(profile_panels, dispatch_uid="community.profile")
def on_profile(sender: Any, *, request: HttpRequest, member: Any, **kwargs: Any) -> str:
    """On a profile: block and report for another member; the owner's
    warnings and chat timeout (the reason included)."""
    viewer = request.user
    if not viewer.is_authenticated:
        return ""
    own = viewer.pk == member.pk
    context: dict[str, Any] = {"member": member, "own": own}
    if own:
        context["timeout"] = selectors.chat_timeout(member.pk)
        context["warnings"] = selectors.warnings_of(member.pk)
        if not context["timeout"] and not context["warnings"]:
            return ""
    else:
        line_id = request.GET.get("report_line", "")
        context["blocked"] = selectors.has_blocked(viewer.pk, member.pk)
        context["tournament_mutes"] = selectors.tournament_mutes(member_id=viewer.pk, muted_id=member.pk)
        context["reasons"] = Report.Reason.choices
        context["line"] = (
            ChatLine.objects.filter(pk=int(line_id), author=member).first() if line_id.isdigit() else None
        )
        # From a name at the table (?report_table=<id>): that table, if the member sat at it.
        table_id = request.GET.get("report_table", "")
        context["table"] = (
            selectors.table_of_member(table_id=int(table_id), user_id=member.pk) if table_id.isdigit() else None
        )
    return render_to_string("community/profile_panel.html", context, request=request)


@receiver(replay_panels, dispatch_uid="community.replay")
def on_replay(sender: Any, *, request: HttpRequest, table: Any, game: Any, **kwargs: Any) -> str:
    """The game's chat on its replay, as the viewer could read it live: a
    player sees the players' chat, anyone else the spectators'."""
    viewer = request.user
    viewer_id = viewer.pk if viewer.is_authenticated else None
    seated = viewer_id is not None and table.seats.filter(user_id=viewer_id).exists()
    room = ChatLine.Room.PLAYERS if seated else ChatLine.Room.SPECTATORS
    lines = selectors.lines_for(table_id=table.pk, rooms=[room], viewer_id=viewer_id, game_id=game.pk, limit=None)
    if not lines:
        return ""
    return render_to_string(
        "community/replay_chat.html", {"lines": lines, "players": seated}, request=request
    )


@receiver(export_parts, dispatch_uid="community.export")
def export_community_data(sender: Any, member: Any, **_kwargs: Any) -> dict[str, Any]:
    """Chat lines, blocks, reports made, moderation about the member."""
    return selectors.member_data(member.pk)


@receiver(unwanted_contacts, dispatch_uid="community.unwanted")
def blocked_contacts(sender: Any, *, member_id: int, **kwargs: Any) -> set[int]:
    """A member's friend requests never come from those they blocked."""
    return selectors.blocked_by(member_id)
