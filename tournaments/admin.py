from __future__ import annotations

from django.contrib import admin

from tournaments.models import (
    Club,
    Event,
    Membership,
    Player,
    Profile,
    Registration,
    Season,
    Seat,
    Stage,
    Table,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "language", "member_count", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["member_count", "stats_refreshed_at", "created_at"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username"]
    autocomplete_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["registered_at"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "variant_id", "status"]
    list_filter = ["status", "variant_id", "club"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    # The stored rules are the event's record of what was played: view them, don't edit.
    readonly_fields = ["variant_id", "variant_options", "created_at"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "status", "late", "checked_in_at"]
    list_filter = ["status", "late"]
    search_fields = ["player__name", "event__name"]
    autocomplete_fields = ["player", "event"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number"]
    show_change_link = True


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "seed"]
    list_filter = ["status"]
    search_fields = ["event__name"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "number", "stage"]
    search_fields = ["stage__event__name"]
    readonly_fields = ["entry_key"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "position", "player", "is_first_dealer"]
    search_fields = ["player__name", "table__stage__event__name"]
    autocomplete_fields = ["player"]
