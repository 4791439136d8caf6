from __future__ import annotations

from collections import defaultdict
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from core.i18n import violation_text
from rules import RuleViolation
from tournaments.models import (
    DEFAULT_TIME_ZONE,
    Club,
    Erasure,
    Event,
    ImportedResult,
    Invitation,
    MailOptOut,
    Membership,
    MembershipChange,
    Notice,
    Player,
    PlayerMerge,
    Profile,
    Registration,
    RegistrationChange,
    Role,
    Season,
    SeasonSchemeChange,
    Seat,
    Stage,
    Table,
    TieBreak,
    time_zone_choices,
)
from tournaments.services import (
    membership_add,
    membership_owner_refusal,
    membership_remove,
    membership_role_set,
)

# Memberships change here through the membership services, so every add, role change and
# removal made in the admin is kept in the club's role history with the admin who made it.


def _refusal_text(refusal: RuleViolation) -> str:
    return violation_text(refusal)


def _saved_as(obj: Membership, saved: Membership) -> None:
    """Make the admin's unsaved copy stand for the row the service created."""
    obj.pk, obj.joined_at = saved.pk, saved.joined_at
    obj._state.adding, obj._state.db = False, saved._state.db


class MembershipInlineForm(forms.ModelForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and "user" in self.fields:
            # A membership is one person in one club: to swap people, remove one, add another.
            self.fields["user"].disabled = True


class MembershipInlineFormSet(BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        if any(self.errors) or self.instance.pk is None:
            return
        losing: set[int] = set()
        gaining = 0
        for form in self.forms:
            if not hasattr(form, "cleaned_data") or not (form.instance.pk or form.has_changed()):
                continue  # an untouched empty row
            # Django's own test of the row's delete box (private, and missing from the stubs).
            deleted = self.can_delete and self._should_delete_form(form)  # type: ignore[attr-defined]
            was_owner = bool(form.instance.pk) and form.initial.get("role") == Role.OWNER
            is_owner = not deleted and form.cleaned_data.get("role") == Role.OWNER
            if was_owner and not is_owner:
                losing.add(form.instance.pk)
            elif is_owner and not was_owner:
                gaining += 1
        refusal = membership_owner_refusal(club_id=self.instance.pk, losing=losing, gaining=gaining)
        if refusal is not None:
            raise ValidationError(_refusal_text(refusal))


class MembershipInline(admin.TabularInline):
    model = Membership
    form = MembershipInlineForm
    formset = MembershipInlineFormSet
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "language", "member_count", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["member_count", "stats_refreshed_at", "created_at"]
    inlines = [MembershipInline]

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "time_zone":  # a list to pick from, as on the settings page
            return forms.ChoiceField(
                choices=time_zone_choices,
                initial=DEFAULT_TIME_ZONE,
                label=db_field.verbose_name,
                help_text=db_field.help_text,
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def save_formset(
        self, request: HttpRequest, form: forms.ModelForm, formset: Any, change: bool
    ) -> None:
        if formset.model is not Membership:
            super().save_formset(request, form, formset, change)
            return
        formset.save(commit=False)  # fills new_objects, changed_objects, deleted_objects
        with transaction.atomic():
            for obj in formset.new_objects:
                saved = membership_add(
                    club=form.instance, user=obj.user, role=obj.role, by=request.user
                )
                _saved_as(obj, saved)
            # New owners first, so handing ownership over in one save never passes through a
            # club with no owner.
            changed = sorted(formset.changed_objects, key=lambda pair: pair[0].role != Role.OWNER)
            for obj, _fields in changed:
                membership_role_set(membership=obj, role=obj.role, by=request.user)
            for obj in formset.deleted_objects:
                membership_remove(membership=obj, by=request.user)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # The role history is read-only while its club exists; a deleted club takes it along.
        perms_needed.discard(MembershipChange._meta.verbose_name)
        return deleted, counts, perms_needed, protected


class MembershipAdminForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["club", "user", "role"]

    def clean_role(self) -> str:
        role = self.cleaned_data["role"]
        # self.instance still holds the stored role here: the form copies its values in later.
        if self.instance.pk and self.instance.role == Role.OWNER and role != Role.OWNER:
            refusal = membership_owner_refusal(
                club_id=self.instance.club_id, losing={self.instance.pk}
            )
            if refusal is not None:
                raise ValidationError(_refusal_text(refusal))
        return role


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    form = MembershipAdminForm
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "club__name"]
    autocomplete_fields = ["user", "club"]

    def get_readonly_fields(self, request: HttpRequest, obj: Membership | None = None) -> Any:
        # A membership is one person in one club: to swap people, remove one, add another.
        return ["club", "user", "joined_at"] if obj is not None else ["joined_at"]

    def save_model(
        self, request: HttpRequest, obj: Membership, form: forms.ModelForm, change: bool
    ) -> None:
        if change:
            membership_role_set(membership=obj, role=obj.role, by=request.user)
        else:
            saved = membership_add(club=obj.club, user=obj.user, role=obj.role, by=request.user)
            _saved_as(obj, saved)

    def delete_model(self, request: HttpRequest, obj: Membership) -> None:
        membership_remove(membership=obj, by=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        with transaction.atomic():
            for membership in queryset.select_related("user"):
                membership_remove(membership=membership, by=request.user)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # Refused on the confirmation page, single or bulk: removing every owner of a club.
        losing: dict[int, set[int]] = defaultdict(set)
        for membership in objs:
            losing[membership.club_id].add(membership.pk)
        for club_id, ids in losing.items():
            refusal = membership_owner_refusal(club_id=club_id, losing=ids)
            if refusal is not None:
                protected = [*protected, _refusal_text(refusal)]
                break
        return deleted, counts, perms_needed, protected


@admin.register(MembershipChange)
class MembershipChangeAdmin(admin.ModelAdmin):
    """The role history: to read, never to edit."""

    list_display = ["changed_at", "club", "user", "old_role", "new_role", "changed_by"]
    list_filter = ["club", "new_role", "old_role"]
    list_select_related = ["club", "user", "changed_by"]
    search_fields = ["user__username", "changed_by__username", "club__name"]
    date_hierarchy = "changed_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations, to read: they are sent, revoked and accepted on the club's pages (where
    the mail is queued and the role history kept). The token is a credential: not shown."""

    list_display = [
        "email",
        "club",
        "role",
        "created_at",
        "expires_at",
        "accepted_at",
        "revoked_at",
    ]
    list_filter = ["club", "role"]
    list_select_related = ["club"]
    search_fields = ["email", "club__name"]
    date_hierarchy = "created_at"
    exclude = ["token"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Erasure)
class ErasureAdmin(admin.ModelAdmin):
    """Who was erased when, by whom (no name: that is gone): to read, never to edit."""

    list_display = ["at", "club", "number", "player", "by"]
    list_filter = ["club"]
    list_select_related = ["club", "player", "by"]
    date_hierarchy = "at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username"]
    autocomplete_fields = ["user"]


class SeasonSchemeChangeInline(admin.TabularInline):
    model = SeasonSchemeChange
    extra = 0
    can_delete = False
    fields = ("changed_at", "changed_by", "old_scheme", "new_scheme", "note")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "league_computed_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    # The scheme is changed on the club's league page, which records who changed it and why;
    # the stored table is the league task's. Here both are only shown.
    readonly_fields = ["league_scheme", "league_rows", "league_computed_at", "league_stale_since"]
    inlines = [SeasonSchemeChangeInline]


@admin.register(SeasonSchemeChange)
class SeasonSchemeChangeAdmin(admin.ModelAdmin):
    """The record of league scheme changes: read only, like every audit trail here."""

    list_display = ["season", "changed_at", "changed_by", "note"]
    list_filter = ["season__club"]
    readonly_fields = ["season", "old_scheme", "new_scheme", "note", "changed_by", "changed_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "guest", "home_club"]
    list_filter = ["club", "guest"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]
    # Set and cleared by a merge and its undo (tournaments.merge), never by hand.
    readonly_fields = ["merged_into"]


@admin.register(PlayerMerge)
class PlayerMergeAdmin(admin.ModelAdmin):
    """The merges: to read; a merge is made and undone on the club's merges page."""

    list_display = ["at", "club", "merged", "kept", "by", "undone_at"]
    list_filter = ["club"]
    list_select_related = ["club", "merged", "kept", "by"]
    search_fields = ["merged__name", "kept__name"]
    date_hierarchy = "at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["registered_at"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "variant_id", "format", "status", "published_at"]
    list_filter = ["status", "variant_id", "format", "club"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    # The stored rules are the event's record of what was played: view them, don't edit.
    readonly_fields = ["variant_id", "variant_options", "format", "format_options", "created_at"]
    inlines = [RegistrationInline]


@admin.register(ImportedResult)
class ImportedResultAdmin(admin.ModelAdmin):
    list_display = ["event", "place", "player", "total", "stage"]
    search_fields = ["player__name", "event__name"]
    autocomplete_fields = ["player", "event"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "status", "late", "checked_in_at"]
    list_filter = ["status", "late"]
    search_fields = ["player__name", "event__name"]
    autocomplete_fields = ["player", "event"]


class HistoryAdmin(admin.ModelAdmin):
    """A record of what happened: to read, never to edit."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RegistrationChange)
class RegistrationChangeAdmin(HistoryAdmin):
    list_display = ["changed_at", "registration", "old_status", "new_status", "changed_by"]
    list_filter = ["new_status"]
    list_select_related = ["registration__player", "registration__event", "changed_by"]
    search_fields = ["registration__player__name", "registration__event__name"]


@admin.register(Notice)
class NoticeAdmin(HistoryAdmin):
    list_display = ["created_at", "event", "kind", "email", "status", "attempts", "error"]
    list_filter = ["status", "kind"]
    list_select_related = ["event"]
    search_fields = ["email", "event__name"]


@admin.register(MailOptOut)
class MailOptOutAdmin(admin.ModelAdmin):
    list_display = ["created_at", "club", "email", "kind"]
    list_filter = ["kind"]
    search_fields = ["email"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number"]
    show_change_link = True


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "seed", "closed_at"]
    list_filter = ["status"]
    search_fields = ["event__name"]
    # What closing the stage decided is the record of who went on: view it, don't edit.
    readonly_fields = ["format", "outcome", "closed_at"]
    inlines = [TableInline]


@admin.register(TieBreak)
class TieBreakAdmin(admin.ModelAdmin):
    list_display = ["stage", "table", "method", "recorded_by", "recorded_at"]
    search_fields = ["stage__event__name", "note"]
    readonly_fields = ["recorded_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "number", "stage", "playoff_of"]
    search_fields = ["stage__event__name"]
    readonly_fields = ["entry_key", "playoff_of"]
    inlines = [SeatInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        # The stage's play-off tables too: `Table.objects` leaves them out.
        return Table.everything.select_related("stage__event")


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "position", "player", "is_first_dealer"]
    search_fields = ["player__name", "table__stage__event__name"]
    autocomplete_fields = ["player"]
