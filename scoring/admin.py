from __future__ import annotations

from django.contrib import admin

from scoring.models import Deal, DealVersion, PinAttempt, SeatClaim


class DealVersionInline(admin.TabularInline):
    model = DealVersion
    extra = 0
    can_delete = False
    readonly_fields = [
        "version",
        "action",
        "points",
        "status",
        "by_user",
        "by_seat",
        "device",
        "flag",
        "note",
        "created_at",
    ]
    fields = tuple(readonly_fields)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    """Read-only: a deal changes through score entry, which keeps its history; an admin
    edit here would bypass both the engine and the audit trail."""

    list_display = ["__str__", "number", "status", "version", "updated_at"]
    list_filter = ["status"]
    search_fields = ["table__stage__event__name"]
    readonly_fields = [f.name for f in Deal._meta.fields]
    inlines = [DealVersionInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(DealVersion)
class DealVersionAdmin(admin.ModelAdmin):
    list_display = [
        "deal",
        "version",
        "action",
        "by_user",
        "by_seat",
        "flag",
        "created_at",
    ]
    list_filter = ["action", "flag"]
    readonly_fields = [f.name for f in DealVersion._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SeatClaim)
class SeatClaimAdmin(admin.ModelAdmin):
    """Which phone holds which seat; deleting a claim frees the seat, as the director's
    "Free this seat" does."""

    list_display = ["table", "position", "device", "claimed_at", "pin_given", "seated_by"]
    search_fields = ["table__stage__event__name"]
    readonly_fields = ["table", "position", "device", "claimed_at", "pin_given", "seated_by"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(PinAttempt)
class PinAttemptAdmin(admin.ModelAdmin):
    """Every PIN typed for a seat and every unlock, as the table pages recorded them: what
    locks a seat's PIN, kept as it happened (read-only)."""

    list_display = ["table", "position", "outcome", "device", "by_user", "at"]
    list_filter = ["outcome"]
    list_select_related = ["table__stage__event", "by_user"]
    search_fields = ["table__stage__event__name", "device"]
    readonly_fields = ["table", "position", "outcome", "device", "by_user", "at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
