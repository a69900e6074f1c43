"""Lobby pages: the ranked queue, live tables to watch, private tables and
their invitations, the rooms with stakes. Thin: parse, call a service or selector, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.selectors import friends_of, queue_ban, ratings_of
from games.fairplay import fairness
from games.models import Table
from games.pages.forms import preset_limits
from games.play import limits
from games.play import services as game_services
from games.play.modes import RANKED_MODES
from games.play.selectors import seat_names
from lobby import chips, private, room_selectors, room_tables, rooms, selectors, services
from lobby.forms import PrivateTableForm, RoomTableForm
from lobby.models import RoomTable


@login_required
def ranked(request: HttpRequest) -> HttpResponse:
    ratings = {rating.mode.key: rating for rating in ratings_of(request.user)}
    return render(
        request,
        "lobby/ranked.html",
        {
            "modes": [(mode, ratings[mode.key]) for mode in RANKED_MODES.values()],
            "queued_mode": selectors.queued_mode(request.user),
            "current_table": selectors.live_ranked_table(request.user.pk),
            "live_tables": selectors.live_tables(limit=8),
            "standing": room_selectors.standing(request.user.pk),
            "queue_ban": _queue_ban_message(request.user.pk),
        },
    )


def _queue_ban_message(user_id: int) -> str:
    """Why and until when the member may not queue ("" if they may)."""
    ban = queue_ban(user_id)
    return "" if ban is None else room_tables.queue_ban_message(ban)


def live(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/live.html", {"live_tables": selectors.live_tables(limit=100)})


def refusal_message(error: game_services.GameError) -> str:
    """A refusal for the messages: one game at a time links to the table
    the member is at (its waiting page while it waits)."""
    if isinstance(error, game_services.InGame) and error.table_id is not None:
        table = Table.objects.filter(pk=error.table_id).first()
        if table is not None:
            return format_html(
                '{} <a href="{}" data-in-game="{}">{}</a>',
                error.message,
                selectors.table_address(table),
                table.pk,
                _("Go to table %(table)s") % {"table": table.pk},
            )
    return error.message


@login_required
def private_new(request: HttpRequest) -> HttpResponse:
    # The server's seed is drawn and committed to before the creator may salt it.
    form = PrivateTableForm(
        request.POST or None, initial={"commitment": fairness.offer_commitment(request.session)}
    )
    if (
        request.method == "POST"
        and form.is_valid()
        and (seed := form.seed_choice(request.session)) is not None
    ):
        if not limits.allow_new_table(request):
            form.add_error(None, limits.too_many_tables())
            return render(request, "lobby/private_new.html", {"form": form}, status=429)
        data = form.cleaned_data
        server_seed, salt = seed
        try:
            table = private.create_private_table(
                owner=request.user,
                preset=data["preset"],
                players=data["players"],
                teams=data["teams"],
                target=data["target"],
                public=data["public"],
                server_seed=server_seed,
                salt=salt,
            )
        except game_services.GameError as error:
            # One game at a time, or a fingerprint that already dealt a table.
            form.add_error(None, refusal_message(error))
            form.renew_commitment(request.session)
            return render(
                request, "lobby/private_new.html", {"form": form, "preset_limits": preset_limits()}, status=409
            )
        return redirect("lobby:private_table", table_id=table.pk)
    return render(request, "lobby/private_new.html", {"form": form, "preset_limits": preset_limits()})


def _waiting_table(table_id: int) -> Table:
    return get_object_or_404(Table, pk=table_id, kind=Table.Kind.PRIVATE)


@login_required
def private_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _waiting_table(table_id)
    if table.status == Table.Status.PLAYING or table.status == Table.Status.FINISHED:
        return redirect("games:table", table_id=table.pk)
    seats = list(table.seats.select_related("user").order_by("number"))
    is_owner = table.created_by_id == request.user.pk
    seated = any(seat.user_id == request.user.pk for seat in seats)
    if not (is_owner or seated):
        raise Http404(_("Ask the table's creator for the invitation link."))
    invited = set(table.invitations.values_list("to_user_id", flat=True))
    names = seat_names(seats)
    return render(
        request,
        "lobby/private_table.html",
        {
            "table": table,
            "game": table.game,
            "seats": [(seat, names[seat.number]) for seat in seats],
            "is_owner": is_owner,
            "invite_url": request.build_absolute_uri(
                reverse("lobby:private_join", args=[private.invite_token(table)])
            ),
            "friends": [
                (friend, friend.pk in invited)
                for friend in friends_of(request.user)
                if not any(seat.user_id == friend.pk for seat in seats)
            ],
            "levels": game_services.LEVELS,
        },
    )


def private_status(request: HttpRequest, table_id: int) -> JsonResponse:
    """Polled by the waiting page: where the table stands. Told to whoever may
    see the table itself: its creator and its players, anyone when it is
    public; else 404, like the table page (table ids are sequential)."""
    table = _waiting_table(table_id)
    seats = list(table.seats.order_by("number"))
    user_id = request.user.pk if request.user.is_authenticated else None
    allowed = table.public or (
        user_id is not None and (table.created_by_id == user_id or any(seat.user_id == user_id for seat in seats))
    )
    if not allowed:
        raise Http404(_("Ask the table's creator for the invitation link."))
    names = seat_names(seats)
    return JsonResponse(
        {
            "status": table.status,
            "url": reverse("games:table", args=[table.pk]),
            "seats": [{"number": seat.number, "kind": seat.kind, "name": names[seat.number]} for seat in seats],
        }
    )


def private_join(request: HttpRequest, token: str) -> HttpResponse:
    table = private.table_from_token(token)
    if table is None:
        raise Http404(_("This invitation link is not valid."))
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={request.path}")
    if table.status != Table.Status.WAITING:
        if table.seats.filter(user=request.user).exists() or table.public:
            return redirect("games:table", table_id=table.pk)
        messages.error(request, _("This game has already started."))
        return redirect("games:home")
    if request.method == "POST":
        try:
            private.take_seat(table_id=table.pk, user=request.user)
        except game_services.GameError as error:
            messages.error(request, refusal_message(error))
            return redirect("games:home")
        return redirect("lobby:private_table", table_id=table.pk)
    return render(
        request,
        "lobby/private_join.html",
        {"table": table, "game": table.game, "owner": table.created_by, "token": token},
    )


def _owner_action(request: HttpRequest, table_id: int, action) -> HttpResponse:  # type: ignore[no-untyped-def]
    try:
        action()
    except (game_services.GameError, services.InvitationError) as error:
        messages.error(request, getattr(error, "message", str(error)))
    return redirect("lobby:private_table", table_id=table_id)


@login_required
@require_POST
def private_seat_computer(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    level = request.POST.get("level", "medium")
    return _owner_action(
        request,
        table_id,
        lambda: private.seat_computer(table_id=table_id, owner=request.user, number=number, level=level),
    )


@login_required
@require_POST
def private_free_seat(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    return _owner_action(
        request, table_id, lambda: private.free_seat(table_id=table_id, owner=request.user, number=number)
    )


@login_required
@require_POST
def private_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        private.leave_seat(table_id=table_id, user=request.user)
    except game_services.GameError as error:
        messages.error(request, error.message)
    return redirect("accounts:friends")


@login_required
@require_POST
def private_invite(request: HttpRequest, table_id: int, user_id: int) -> HttpResponse:
    table = _waiting_table(table_id)

    def invite() -> None:
        services.invite_friend(table=table, from_user=request.user, friend_id=user_id)
        messages.success(request, _("Invitation sent."))

    return _owner_action(request, table_id, invite)


# --- Rooms with stakes (docs/rooms.md) ---------------------------------------------


def _room_or_404(slug: str) -> rooms.Room:
    room = rooms.ROOMS.get(slug)
    if room is None:
        raise Http404(_("This room does not exist."))
    return room


def rooms_index(request: HttpRequest) -> HttpResponse:
    mine = room_selectors.standing(request.user.pk) if request.user.is_authenticated else None
    cards = [
        (room, "" if mine is None else room_tables.refusal(user_id=request.user.pk, room=room))
        for room in rooms.ROOMS.values()
    ]
    return render(
        request,
        "lobby/rooms.html",
        {
            "cards": cards,
            "standing": mine,
            "winners": room_selectors.weekly_winners(),
            "fee_percent": rooms.FEE_PERCENT,
            "floor": rooms.DAILY_FLOOR,
        },
    )


def room(request: HttpRequest, slug: str) -> HttpResponse:
    spec = _room_or_404(slug)
    viewer = request.user.pk if request.user.is_authenticated else None
    queued_room, queued_mode = room_selectors.queued_room(viewer) if viewer else ("", "")
    return render(
        request,
        "lobby/room.html",
        {
            "room": spec,
            "refusal": "" if viewer is None else room_tables.refusal(user_id=viewer, room=spec),
            "standing": None if viewer is None else room_selectors.standing(viewer),
            "payouts": room_selectors.payout_rows(spec),
            "waiting": room_selectors.room_tables(slug, status=Table.Status.WAITING, viewer_id=viewer),
            "playing": room_selectors.room_tables(slug, status=Table.Status.PLAYING, viewer_id=viewer),
            "form": RoomTableForm(),
            "modes": [(mode, None) for mode in RANKED_MODES.values()],  # no rating: lobby/_queue_panel.html
            "queued_mode": queued_mode if queued_room == slug else "",
            "fee_percent": rooms.FEE_PERCENT,
        },
    )


@login_required
@require_POST
def room_open(request: HttpRequest, slug: str) -> HttpResponse:
    _room_or_404(slug)
    form = RoomTableForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a game and its length."))
        return redirect("lobby:room", slug=slug)
    if not limits.allow_new_table(request):
        messages.error(request, limits.too_many_tables())
        return redirect("lobby:room", slug=slug)
    try:
        table = room_tables.open_table(
            owner=request.user, room=slug, kind=form.cleaned_data["kind"], target=form.cleaned_data["target"]
        )
    except game_services.GameError as error:
        messages.error(request, refusal_message(error))
        return redirect("lobby:room", slug=slug)
    return redirect("lobby:room_table", table_id=table.pk)


@login_required
@require_POST
def room_join(request: HttpRequest, table_id: int) -> HttpResponse:
    room_table = get_object_or_404(RoomTable, pk=table_id)
    try:
        room_tables.join_table(table_id=table_id, user=request.user)
    except game_services.GameError as error:
        messages.error(request, refusal_message(error))
        return redirect("lobby:room", slug=room_table.room)
    return redirect("lobby:room_table", table_id=table_id)


@login_required
@require_POST
def room_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    room_table = get_object_or_404(RoomTable, pk=table_id)
    try:
        room_tables.leave_table(table_id=table_id, user=request.user)
    except game_services.GameError as error:
        messages.error(request, error.message)
    return redirect("lobby:room", slug=room_table.room)


def room_table(request: HttpRequest, table_id: int) -> HttpResponse:
    """A room table waiting for players; once it plays, the table page."""
    room_table = get_object_or_404(RoomTable.objects.select_related("table"), pk=table_id)
    table = room_table.table
    if table.status != Table.Status.WAITING:
        return redirect("games:table", table_id=table.pk)
    seats = list(table.seats.order_by("number"))
    names = seat_names(seats)
    spec = rooms.ROOMS[room_table.room]
    return render(
        request,
        "lobby/room_table.html",
        {
            "room": spec,
            "room_table": room_table,
            "kind": rooms.KINDS[room_table.kind],
            "length": rooms.LENGTHS[room_table.target],
            "table": table,
            "seats": [(seat, names[seat.number]) for seat in seats],
            "seated": request.user.is_authenticated and any(s.user_id == request.user.pk for s in seats),
            "is_owner": request.user.is_authenticated and table.created_by_id == request.user.pk,
            "refusal": ""
            if not request.user.is_authenticated
            else room_tables.refusal(user_id=request.user.pk, room=spec),
            "payout": next(row for row in room_selectors.payout_rows(spec) if row.kind.key == room_table.kind),
        },
    )


def room_table_status(request: HttpRequest, table_id: int) -> JsonResponse:
    """Polled by the waiting page (where the table stands) and by the table
    page once the game is over (what it paid each player)."""
    room_table = get_object_or_404(RoomTable.objects.select_related("table"), pk=table_id)
    seats = list(room_table.table.seats.order_by("number"))
    names = seat_names(seats)
    return JsonResponse(
        {
            "status": room_table.table.status,
            "url": reverse("games:table", args=[table_id]),
            "room_url": reverse("lobby:room", args=[room_table.room]),
            "seats": [{"number": seat.number, "kind": seat.kind, "name": names[seat.number]} for seat in seats],
            "settled": room_table.settled_at is not None,
            "outcome": room_table.outcome,
            "results": [
                {**room_selectors.result_fields(result), "name": result.name}
                for result in room_selectors.seat_results(room_table)
            ],
        }
    )


@login_required
@require_POST
def chips_topup(request: HttpRequest) -> HttpResponse:
    try:
        entry = chips.claim_topup(user_id=request.user.pk)
    except chips.ChipError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(chips)s chips added to your balance.") % {"chips": entry.amount})
    return redirect("lobby:rooms")
