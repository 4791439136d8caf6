from __future__ import annotations

from django.contrib import admin

from core.models import TaskRun


@admin.register(TaskRun)
class TaskRunAdmin(admin.ModelAdmin):
    """The site's jobs, for looking into one that failed or was lost; the worker writes them."""

    list_display = ("name", "state", "queued_at", "started_at", "finished_at", "attempts", "error")
    list_filter = ("state", "name", "error")
    search_fields = ("task_id", "name")
    date_hierarchy = "queued_at"
    readonly_fields = [field.name for field in TaskRun._meta.fields]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
