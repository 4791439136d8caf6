from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from scoring.models import Deal, DealVersion, PinAttempt, PrintChunk, PrintJob, SeatClaim


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


class PrintChunkInline(admin.TabularInline):
    """The shares of a job still being made (a finished job lets them go): who claimed
    which tables, when, and whether it is made."""

    model = PrintChunk
    fields = readonly_fields = ("attempt", "index", "tables", "claimed_by", "claimed_at", "made")
    extra = 0
    can_delete = False

    @admin.display(boolean=True, description=_("made"))
    def made(self, obj: PrintChunk) -> bool:
        return obj.content is not None

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PrintChunk)
class PrintChunkAdmin(admin.ModelAdmin):
    """Every job's shares in progress, for finding a stuck one; read-only (the workers own
    them, and a finished job lets its shares go)."""

    list_display = ["job", "attempt", "index", "claimed_by", "claimed_at"]
    list_select_related = ["job__event"]
    search_fields = ["claimed_by"]
    exclude = ["content"]
    readonly_fields = ["job", "attempt", "index", "tables", "claimed_by", "claimed_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    """Print jobs as the workers left them; the technical detail of a failure is on the
    job's task record (Core › Jobs, by the task id). Deleting a job deletes its file too."""

    list_display = ["event", "kind", "status", "done", "total", "pages", "attempts", "created_at"]
    list_filter = ["status", "kind"]
    search_fields = ["event__name", "task_id"]
    list_select_related = ["event"]
    readonly_fields = [f.name for f in PrintJob._meta.fields]
    inlines = [PrintChunkInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def delete_model(self, request, obj: PrintJob) -> None:
        obj.file.delete(save=False)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        for job in queryset:
            job.file.delete(save=False)
        super().delete_queryset(request, queryset)
