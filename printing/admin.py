from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from printing.models import PrintJob, PrintShare, SheetReturn


class PrintShareInline(admin.TabularInline):
    """The shares of a job still being made (a finished job lets them go): which tables,
    and whether each is made."""

    model = PrintShare
    fields = readonly_fields = ("attempt", "index", "tables", "made")
    extra = 0
    can_delete = False

    @admin.display(boolean=True, description=_("made"))
    def made(self, obj: PrintShare) -> bool:
        return obj.content is not None

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PrintShare)
class PrintShareAdmin(admin.ModelAdmin):
    """Every job's shares in progress, for finding a stuck one; read-only (the workers own
    them, and a finished job lets its shares go)."""

    list_display = ["job", "attempt", "index"]
    list_select_related = ["job__event"]
    exclude = ["content"]
    readonly_fields = ["job", "attempt", "index", "tables"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    """Print jobs as the workers left them; their state (how far, how it ended, the
    technical detail of a failure) is their task's run (Core › Jobs, the job's `run`).
    Deleting a job deletes its file too."""

    list_display = ["event", "kind", "state", "pages", "attempts", "created_at"]
    list_filter = ["run__state", "kind"]
    search_fields = ["event__name", "run__task_id"]
    list_select_related = ["event", "run"]
    readonly_fields = [f.name for f in PrintJob._meta.fields]
    inlines = [PrintShareInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("state"), ordering="run__state")
    def state(self, obj: PrintJob) -> str:
        return obj.run.get_state_display() if obj.run is not None else "–"

    def delete_model(self, request, obj: PrintJob) -> None:
        obj.file.delete(save=False)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        for job in queryset:
            job.file.delete(save=False)
        super().delete_queryset(request, queryset)


@admin.register(SheetReturn)
class SheetReturnAdmin(admin.ModelAdmin):
    """Which tables' paper sheets came back, as the directors marked them on the tables
    page (where they are changed: who and when are the director's, not the admin's)."""

    list_display = ["table", "returned_by", "returned_at"]
    list_select_related = ["table__stage__event", "returned_by"]
    search_fields = ["table__stage__event__name"]
    readonly_fields = ["table", "returned_by", "returned_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
