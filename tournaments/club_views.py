"""A club owner's page: the members' roles, and the history of every change to them; and
the club's settings for its public pages (owners and directors)."""

from __future__ import annotations

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from core.paging import paginate_table
from core.tables import BaseTable
from rules import RuleViolation
from tournaments.club_settings import club_settings_set
from tournaments.forms import ClubSettingsForm
from tournaments.models import MembershipChange, Role
from tournaments.permissions import get_club_for
from tournaments.selectors import club_members, club_role_history
from tournaments.services import leaves_club_without_owner, membership_role_set


class MembershipRoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


def _person(user: object) -> str:
    return user.get_full_name() or user.get_username()  # type: ignore[attr-defined]


class MembershipChangeTable(BaseTable):
    changed_at = tables.DateTimeColumn(verbose_name=_("When"), short=True)
    user = tables.Column(verbose_name=_("Member"), default=_("deleted account"))
    old_role = tables.Column(verbose_name=_("Old role"), default=_("not a member"))
    new_role = tables.Column(verbose_name=_("New role"), default=_("not a member"))
    changed_by = tables.Column(verbose_name=_("Changed by"), default="—")

    class Meta(BaseTable.Meta):
        model = MembershipChange
        fields = ("changed_at", "user", "old_role", "new_role", "changed_by")
        orderable = False  # always newest first

    def render_user(self, value: object) -> str:
        return _person(value)

    def render_changed_by(self, value: object) -> str:
        return _person(value)


@login_required
def club_roles(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.OWNER)
    members = list(club_members(club=club))
    owner_ids = [m.pk for m in members if m.role == Role.OWNER]
    rows = [
        {
            "membership": m,
            "form": MembershipRoleForm(initial={"role": m.role}, auto_id=f"id_m{m.pk}_%s"),
            # The page offers only what the service would do: the only owner keeps the role.
            "can_change": not leaves_club_without_owner(owner_ids=owner_ids, losing={m.pk}),
        }
        for m in members
    ]
    history = paginate_table(
        request, MembershipChangeTable(club_role_history(club=club), prefix="history-")
    )
    context = {"club": club, "rows": rows, "history": history}
    return render(request, "tournaments/club_roles.html", context)


@login_required
@require_POST
def club_role_set(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.OWNER)
    membership = get_object_or_404(club_members(club=club), pk=membership_id)
    form = MembershipRoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Pick one of the offered roles."))
        return redirect("club_roles", slug=club.slug)
    try:
        membership_role_set(membership=membership, role=form.cleaned_data["role"], by=request.user)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return redirect("club_roles", slug=club.slug)
    name, role = _person(membership.user), Role(membership.role).label
    messages.success(
        request, gettext("New role for %(name)s: %(role)s.") % {"name": name, "role": role}
    )
    if membership.user_id == request.user.pk and membership.role != Role.OWNER:
        return redirect(club)  # no longer an owner: the roles page is closed to them now
    return redirect("club_roles", slug=club.slug)


@login_required
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    form = ClubSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        club_settings_set(club=club, **form.cleaned_data)
        messages.success(request, gettext("Settings saved: the club's pages follow them now."))
        return redirect("club_settings", slug=club.slug)
    return render(request, "tournaments/club_settings.html", {"club": club, "form": form})
