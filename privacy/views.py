"""The privacy page; a person's own data under the account ("My data": hide a record,
download, erase oneself); and a director's privacy page for a player of the club (the same
for a player without an account, and erasure for any)."""

from __future__ import annotations

import json
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from core.i18n import violation_text
from privacy.forms import RecordHiddenForm
from privacy.selectors import person_data, player_data
from privacy.services import account_erase_refusal, erase_refusal, person_erase, player_erase
from rules import RuleViolation
from tournaments.confirm import confirm_page, confirmed
from tournaments.models import Player
from tournaments.permissions import player_for
from tournaments.privacy import director_decides_privacy, player_record_hide


@require_GET
def privacy_page(request: HttpRequest) -> HttpResponse:
    # The retention the page states is the settings' (what the housekeeping enforces).
    context = {
        "axes_limit": settings.AXES_FAILURE_LIMIT,
        "print_days": settings.PRINT_FILES_KEEP_DAYS,
        "signin_days": settings.SIGNIN_RECORDS_KEEP_DAYS,
    }
    return render(request, "privacy/privacy.html", context)


def _person(request: HttpRequest) -> User:
    # Behind login_required: the person is signed in.
    return cast(User, request.user)


def _download(data: dict[str, Any], name: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


def _hidden_message(player: Player) -> str:
    if player.record_hidden:
        return gettext("The record of %(name)s is hidden from the public now.")
    return gettext("The record of %(name)s is public again.")


# -- the person's own -------------------------------------------------------------------------


@login_required
@require_GET
def my_data(request: HttpRequest) -> HttpResponse:
    players = Player.objects.filter(user=_person(request)).select_related("club")
    # Each row's button posts RecordHiddenForm's one field: the opposite of its state now.
    rows = list(players.order_by("club__name"))
    refusal = account_erase_refusal(user_id=_person(request).pk)
    context = {"rows": rows, "erase_refusal": violation_text(refusal) if refusal else ""}
    return render(request, "privacy/my_data.html", context)


@login_required
@require_GET
def my_data_download(request: HttpRequest) -> HttpResponse:
    return _download(person_data(user=_person(request)), "lappu-data")


@login_required
@require_POST
def my_player_hide(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(
        Player.objects.select_related("club"), pk=player_id, user=_person(request)
    )
    form = RecordHiddenForm(request.POST)
    if form.is_valid():
        player_record_hide(player=player, hidden=form.cleaned_data["hidden"])
        messages.success(request, _hidden_message(player) % {"name": player.name})
    return redirect("my_data")


@login_required
@require_POST
def my_erase(request: HttpRequest) -> HttpResponse:
    if not confirmed(request):
        return confirm_page(
            request,
            title=gettext("Erase your account"),
            question=gettext(
                "Your account and e-mail address are deleted and your name becomes "
                "“Former player” with a number in every club. Your results stay in "
                "the standings. This cannot be undone."
            ),
            action=reverse("my_erase"),
            button=gettext("Erase my account"),
            back=reverse("my_data"),
        )
    try:
        person_erase(user=_person(request), confirmed=True)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return redirect("my_data")
    logout(request)
    messages.success(request, gettext("Your account has been erased."))
    return redirect("home")


# -- a director's, for a player of the club ------------------------------------------------------


@login_required
@require_GET
def player_privacy(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = player_for(slug=slug, player_id=player_id, user=request.user)
    refusal = erase_refusal(player=player, by=_person(request))
    context = {
        "player": player,
        "club": player.club,
        "decides": director_decides_privacy(player=player),
        "erase_refusal": violation_text(refusal) if refusal else "",
    }
    return render(request, "privacy/player_privacy.html", context)


@login_required
@require_POST
def player_hide(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = player_for(slug=slug, player_id=player_id, user=request.user)
    form = RecordHiddenForm(request.POST)
    if not director_decides_privacy(player=player):
        messages.error(request, gettext("This player has an account: they decide this themselves."))
    elif form.is_valid():
        player_record_hide(player=player, hidden=form.cleaned_data["hidden"])
        messages.success(request, _hidden_message(player) % {"name": player.name})
    return redirect("player_privacy", slug=slug, player_id=player.pk)


@login_required
@require_GET
def player_data_download(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = player_for(slug=slug, player_id=player_id, user=request.user)
    if not director_decides_privacy(player=player):
        messages.error(request, gettext("This player has an account: they decide this themselves."))
        return redirect("player_privacy", slug=slug, player_id=player.pk)
    return _download(player_data(player=player), slugify(player.name) or "player")


@login_required
@require_POST
def player_erase_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = player_for(slug=slug, player_id=player_id, user=request.user)
    back = reverse("player_privacy", args=[slug, player.pk])
    if not confirmed(request):
        question = gettext(
            "%(name)s becomes “Former player” with a number on every page; the results "
            "stay, so no standings change. An account of theirs is deleted with its e-mail "
            "address. This cannot be undone."
        ) % {"name": player.name}
        return confirm_page(
            request,
            title=gettext("Erase %(name)s") % {"name": player.name},
            question=question,
            action=request.path,
            button=gettext("Erase"),
            back=back,
        )
    try:
        erasure = player_erase(player=player, by=_person(request), confirmed=True)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return redirect(back)
    messages.success(
        request, gettext("Erased: the player is now %(name)s.") % {"name": erasure.player.name}
    )
    return redirect(back)
