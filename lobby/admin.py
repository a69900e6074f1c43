"""Admin of the lobby: the ranked queue, invitations, and the chips (grants
and corrections only as new ledger entries with a reason)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from lobby import chips
from lobby.models import ChipEntry, ChipWallet, Invitation, QueueEntry, RoomTable


@admin.register(QueueEntry)
class QueueEntryAdmin(admin.ModelAdmin):
    list_display = ("user", "room", "mode", "rating", "joined_at")
    list_filter = ("room", "mode")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("table", "from_user", "to_user", "created_at")


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChipWallet)
class ChipWalletAdmin(ReadOnlyAdmin):
    """Balances are caches of the ledger: never edited here."""

    list_display = ("user", "balance", "xp", "topped_up_on")
    search_fields = ("user__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class ChipEntryForm(forms.ModelForm):
    class Meta:
        model = ChipEntry
        fields = ("user", "amount", "note")

    def clean(self) -> dict[str, Any]:
        # The admin's add view runs in one transaction: the wallet locked by
        # the check stays locked until the entry is saved (save_model), so the
        # balance checked is the balance corrected. A refusal is a form error.
        data = super().clean()
        if data.get("user") is None:
            raise ValidationError(_("Choose the member."))
        if data.get("amount") is None:
            return data  # the field's own error is shown
        try:
            chips.check_correction(user_id=data["user"].pk, amount=data["amount"], note=data.get("note") or "")
        except chips.ChipError as error:
            raise ValidationError(error.message, code=error.code) from error
        return data


@admin.register(ChipEntry)
class ChipEntryAdmin(ReadOnlyAdmin):
    """The ledger: read it; add a grant or correction (a new entry with a
    reason, through lobby.chips); never change or delete an entry."""

    form = ChipEntryForm
    list_display = ("created_at", "user", "amount", "xp", "reason", "game", "balance_after", "note")
    list_filter = ("reason",)
    search_fields = ("user__username", "note")

    def save_model(self, request: HttpRequest, obj: ChipEntry, form: Any, change: bool) -> None:
        try:
            entry = chips.admin_entry(
                user_id=obj.user_id, amount=obj.amount, note=obj.note, created_by=request.user
            )
        except chips.ChipError as error:
            raise ValidationError(error.message) from error
        obj.pk = entry.pk
        obj.reason = entry.reason
        obj.created_at = entry.created_at


@admin.register(RoomTable)
class RoomTableAdmin(ReadOnlyAdmin):
    list_display = ("table", "room", "kind", "target", "stake", "settled_at", "outcome")
    list_filter = ("room", "outcome")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
