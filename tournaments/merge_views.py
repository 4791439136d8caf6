"""The directors' pages for merging duplicate players: pick the duplicate (look-alikes
first), see what would move, confirm, and the list of merges with their undo."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from core.paging import paginate_table
from core.tables import BaseTable
from rules import RuleViolation
from tournaments.confirm import confirm_page, confirmed
from tournaments.merge import (
    club_merges,
    merge_candidates,
    merge_preview,
    merge_undo_refusals,
    mergeable_players,
    player_merge,
    player_merge_undo,
)
from tournaments.models import Club, Player, PlayerMerge, Role
from tournaments.permissions import get_club_for, player_for


class MergePickForm(forms.Form):
    """Which player is the duplicate: the look-alikes (same name_key) in a group first."""

    q = forms.CharField(label=gettext_lazy("Search by name"), required=False, max_length=120)
    other = forms.TypedChoiceField(
        label=gettext_lazy("Duplicate to merge"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        search = str(self.data.get("q", ""))[:120].strip()
        alike, rest = merge_candidates(player=player, search=search)
        self.fields["other"].choices = [  # type: ignore[attr-defined]
            ("", "—"),
            *([(_("Same name"), [_choice(p) for p in alike])] if alike else []),
            *([(_("Other players"), [_choice(p) for p in rest])] if rest else []),
        ]


def _choice(player: Player) -> tuple[int, str]:
    label = player.name
    if player.guest:
        label = _("%(name)s (guest)") % {"name": label}
    return player.pk, f"{label} · #{player.pk}"


class MergeForm(forms.Form):
    other = forms.ModelChoiceField(queryset=Player.objects.none())

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        others = mergeable_players(club=player.club).exclude(pk=player.pk)
        self.fields["other"].queryset = others  # type: ignore[attr-defined]


@login_required
def player_merge_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """GET: the picker, and with `other` the preview; POST: the merge, after a confirmation."""
    player = player_for(slug=slug, player_id=player_id, user=request.user)
    club = player.club
    if request.method == "POST":
        return _merge(request, club, player)
    pick = MergePickForm(request.GET or None, player=player)
    other = pick.cleaned_data.get("other") if pick.is_valid() else None
    chosen = mergeable_players(club=club).filter(pk=other).first() if other else None
    preview = merge_preview(kept=player, merged=chosen) if chosen else None
    context = {
        "club": club,
        "player": player,
        "pick": pick,
        "preview": preview,
        "refusal": violation_text(preview.refusal) if preview and preview.refusal else "",
        # As the picker names them: two players of one name told apart.
        "labels": {"kept": _choice(player)[1], "merged": _choice(chosen)[1]} if chosen else {},
    }
    return render(request, "tournaments/player_merge.html", context)


def _merge(request: HttpRequest, club: Club, player: Player) -> HttpResponse:
    form = MergeForm(request.POST, player=player)
    back = reverse("player_merge", args=[club.slug, player.pk])
    if not form.is_valid():
        messages.error(request, _("Pick the duplicate to merge."))
        return redirect(back)
    merged = form.cleaned_data["other"]
    try:
        player_merge(kept=player, merged=merged, by=request.user, confirmed=confirmed(request))
    except RuleViolation as error:
        if error.code != "not_confirmed":
            messages.error(request, violation_text(error))
            return redirect(f"{back}?other={merged.pk}")
        return confirm_page(
            request,
            title=_("Merge %(merged)s into %(kept)s")
            % {"merged": merged.name, "kept": player.name},
            question=_(
                "Every event, seat and result of %(merged)s becomes %(kept)s's, and the "
                "standings and league tables are recomputed. You can undo it on the merges "
                "page while nothing newer depends on it."
            )
            % {"merged": merged.name, "kept": player.name},
            action=request.path,
            button=_("Merge"),
            back=f"{back}?other={merged.pk}",
            fields={"other": merged.pk},
        )
    messages.success(
        request, _("%(merged)s is now %(kept)s.") % {"merged": merged.name, "kept": player.name}
    )
    return redirect("player_merges", slug=club.slug)


class MergeTable(BaseTable):
    at = tables.DateTimeColumn(verbose_name=gettext_lazy("When"), short=True)
    merged = tables.Column(verbose_name=gettext_lazy("Merged player"), accessor="merged__name")
    kept = tables.TemplateColumn(
        template_name="tournaments/cells/merge_kept.html", verbose_name=gettext_lazy("Kept player")
    )
    events = tables.Column(
        verbose_name=gettext_lazy("Events"), accessor="moved", attrs={"td": {"class": "num"}}
    )
    by = tables.Column(verbose_name=gettext_lazy("By"), default="—")
    undo = tables.TemplateColumn(
        template_name="tournaments/cells/merge_undo.html",
        verbose_name=gettext_lazy("Undo"),
        attrs={"td": {"class": "actions"}},
    )

    class Meta(BaseTable.Meta):
        model = PlayerMerge
        fields = ("at", "merged", "kept", "events", "by", "undo")
        orderable = False  # always newest first
        empty_text = gettext_lazy("No players have been merged.")

    def render_events(self, value: dict[str, Any]) -> int:
        return len(value.get("events", []))

    def render_by(self, value: Any) -> str:
        return str(value.get_full_name() or value.get_username())


class _PlayerChoice(forms.ModelChoiceField):
    # Two players of one name are told apart by "(guest)" and their number.
    def label_from_instance(self, obj: Any) -> str:
        return _choice(obj)[1]


class KeepForm(forms.Form):
    keep = _PlayerChoice(label=gettext_lazy("Player to keep"), queryset=Player.objects.none())

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["keep"].queryset = mergeable_players(club=club).order_by("name", "pk")  # type: ignore[attr-defined]


@login_required
def player_merges(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    keep = KeepForm(request.GET if "keep" in request.GET else None, club=club)
    if keep.is_valid():
        return redirect("player_merge", slug=club.slug, player_id=keep.cleaned_data["keep"].pk)
    table = paginate_table(request, MergeTable(club_merges(club=club)))
    merges = [getattr(row, "record", row) for row in table.page.object_list]
    refusals = merge_undo_refusals(merges)
    for merge in merges:
        refusal = refusals.get(merge.pk)
        merge.undo_refusal = violation_text(refusal) if refusal else ""
    context = {"club": club, "table": table, "keep": keep}
    return render(request, "tournaments/player_merges.html", context)


@login_required
@require_POST
def player_merge_undo_view(request: HttpRequest, slug: str, merge_id: int) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    merge = get_object_or_404(club_merges(club=club), pk=merge_id)
    names = {"merged": merge.merged.name, "kept": merge.kept.name}
    try:
        player_merge_undo(merge=merge, by=request.user, confirmed=confirmed(request))
    except RuleViolation as error:
        if error.code != "not_confirmed":
            messages.error(request, violation_text(error))
            return redirect("player_merges", slug=club.slug)
        return confirm_page(
            request,
            title=_("Undo the merge of %(merged)s into %(kept)s") % names,
            question=_(
                "%(merged)s gets back exactly the events, seats and results the merge moved "
                "to %(kept)s, and the standings and league tables are recomputed."
            )
            % names,
            action=request.path,
            button=_("Undo the merge"),
            back=reverse("player_merges", args=[club.slug]),
        )
    messages.success(request, _("The merge of %(merged)s into %(kept)s was undone.") % names)
    return redirect("player_merges", slug=club.slug)
