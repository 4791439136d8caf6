"""Starting a club, and its invitations: sending, listing, revoking, accepting."""

from __future__ import annotations

import django_tables2 as tables
from allauth.account.adapter import get_adapter
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.selectors import account_usable
from core.i18n import violation_text
from core.paging import paginate_table
from core.ratelimit import rate_limit
from core.tables import BaseTable
from rules import RuleViolation
from tournaments.confirm import confirm_page, confirmed
from tournaments.joining import (
    NOT_PENDING,
    club_create,
    invitable_roles,
    invitation_accept,
    invitation_create,
    invitation_revoke,
)
from tournaments.joining_forms import ClubStartForm, InvitationForm, PlayerPickForm
from tournaments.models import Invitation, InvitationStatus, Role
from tournaments.permissions import club_allows, get_club_for
from tournaments.selectors import club_invitations, club_players_without_account


@login_required
def club_start(request: HttpRequest) -> HttpResponse:
    if not account_usable(request.user):
        raise PermissionDenied
    form = ClubStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_create(**form.cleaned_data, by=request.user)  # type: ignore[arg-type]
        except RuleViolation as error:
            form.add_error(error.field, violation_text(error))
        else:
            messages.success(request, gettext("Your club is ready: you are its owner."))
            return redirect(club)
    return render(request, "tournaments/club_start.html", {"form": form})


class InvitationTable(BaseTable):
    email = tables.Column(verbose_name=_("E-mail address"))
    role = tables.Column(verbose_name=_("Role"))
    player = tables.Column(verbose_name=_("Player"), default="—")
    created_at = tables.DateTimeColumn(verbose_name=_("Sent"), short=True)
    expires_at = tables.DateTimeColumn(verbose_name=_("Expires"), short=True)
    status = tables.TemplateColumn(
        template_name="tournaments/cells/invitation_status.html",
        verbose_name=_("State"),
        orderable=False,
    )

    class Meta(BaseTable.Meta):
        model = Invitation
        fields = ("email", "role", "player", "created_at", "expires_at")
        orderable = False  # newest first


@login_required
def invitation_list(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    table = paginate_table(request, InvitationTable(club_invitations(club=club)))
    context = {
        "club": club,
        "table": table,
        "can_change_roles": club_allows(club=club, user=request.user, role=Role.OWNER),
        # The rows' Revoke buttons (read by the status cell): what the service would allow.
        "revocable": invitable_roles(club=club, user=request.user),
    }
    return render(request, "tournaments/invitations.html", context)


@login_required
@rate_limit(scope="invitation_new", rate="60/h", methods=("POST",))
def invitation_new(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    players = club_players_without_account(club=club)
    chosen = PlayerPickForm(request.GET, players=players).chosen
    form = InvitationForm(
        request.POST or None,
        roles=invitable_roles(club=club, user=request.user),
        players=players,
        initial={"role": Role.MEMBER, "player": chosen},
    )
    if request.method == "POST" and form.is_valid():
        try:
            invitation = invitation_create(club=club, by=request.user, **form.cleaned_data)  # type: ignore[arg-type]
        except RuleViolation as error:
            form.add_error(error.field, violation_text(error))
        else:
            messages.success(
                request,
                gettext("Invitation sent to %(email)s; its link works for 7 days.")
                % {"email": invitation.email},
            )
            return redirect("invitation_list", slug=club.slug)
    context = {"club": club, "form": form, "player": chosen}
    return render(request, "tournaments/invitation_new.html", context)


@login_required
@require_POST
def invitation_revoke_view(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    invitation = get_object_or_404(Invitation, pk=invitation_id, club=club)
    back = reverse("invitation_list", args=[club.slug])
    if not confirmed(request):
        return confirm_page(
            request,
            title=gettext("Revoke the invitation?"),
            question=gettext("The link sent to %(email)s will stop working.")
            % {"email": invitation.email},
            action=reverse("invitation_revoke", args=[club.slug, invitation.pk]),
            button=gettext("Revoke"),
            back=back,
        )
    try:
        invitation_revoke(invitation=invitation, by=request.user)  # type: ignore[arg-type]
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(
            request, gettext("Invitation to %(email)s revoked.") % {"email": invitation.email}
        )
    return redirect(back)


def invitation_accept_view(request: HttpRequest, token: str) -> HttpResponse:
    invitation = get_object_or_404(
        Invitation.objects.select_related("club", "player", "created_by"), token=token
    )
    status = invitation.status
    if status != InvitationStatus.PENDING:
        context = {"invitation": invitation, "reason": gettext(NOT_PENDING[status])}
        return render(request, "tournaments/invitation_gone.html", context, status=410)
    if request.method == "POST" and request.user.is_authenticated:
        try:
            invitation_accept(invitation=invitation, user=request.user)  # type: ignore[arg-type]
        except RuleViolation as error:
            messages.error(request, violation_text(error))
            return redirect("invitation_accept", token=token)
        messages.success(
            request,
            gettext("Welcome to %(club)s: you are now its %(role)s.")
            % {"club": invitation.club.name, "role": invitation.get_role_display()},
        )
        return redirect(invitation.club)
    if not request.user.is_authenticated:
        # The mail reached this address: a sign-up with it needs no second verification
        # (allauth's own hook for invitations).
        get_adapter(request).stash_verified_email(request, invitation.email)
    return render(request, "tournaments/invitation_accept.html", {"invitation": invitation})
