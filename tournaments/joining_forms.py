"""Forms of a club's start and its invitations."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tournaments.joining import RESERVED_SLUGS
from tournaments.models import DEFAULT_TIME_ZONE, Club, Player, Role, time_zone_choices


class ClubStartForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=120)
    slug = forms.SlugField(
        label=_("Short name in addresses"),
        max_length=60,
        required=False,
        help_text=_(
            "Letters a–z, digits and hyphens, as in lappu…/clubs/helsinki-rummy/. "
            "Left empty, it is made from the name."
        ),
    )
    language = forms.ChoiceField(
        label=_("Default language"),
        choices=settings.LANGUAGES,
        help_text=_("The club's pages open in it until a person picks another."),
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial", {"language": get_language() or "fi", "time_zone": DEFAULT_TIME_ZONE}
        )
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autocomplete"] = "organization"
        self.fields["slug"].widget.attrs.update(autocapitalize="none", spellcheck="false")

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the club a name."), code="required")
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "name" not in cleaned or self.has_error("slug"):
            return cleaned
        slug = cleaned.get("slug") or slugify(cleaned["name"])[:60].strip("-")
        if not slug:
            self.add_error(
                "slug", _("The name has no letters a–z to make an address of: write one here.")
            )
        elif slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
            self.add_error(
                "slug",
                _("The address “%(slug)s” is taken by another club: pick another.")
                % {"slug": slug},
            )
        else:
            cleaned["slug"] = slug
        return cleaned


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address"), max_length=254)
    role = forms.ChoiceField(label=_("Role"))
    player = forms.ModelChoiceField(
        label=_("Player whose results they take over"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("none: a new player"),
        help_text=_(
            "One of the club's players without an account: on accepting, the invited "
            "person's account gets that player's results."
        ),
    )

    def __init__(
        self, *args: Any, roles: list[Role], players: QuerySet[Player], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["role"]).choices = [(r.value, r.label) for r in roles]
        if players.exists():
            cast(forms.ModelChoiceField, self.fields["player"]).queryset = players
        else:  # a new club has no players to hand over: no empty list to puzzle over
            del self.fields["player"]
        self.fields["email"].widget.attrs.update(autocomplete="off", autocapitalize="none")


class PlayerPickForm(forms.Form):
    """`?player=<id>` on the new-invitation page: the player to prefill (any other value:
    none)."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = players

    @property
    def chosen(self) -> Player | None:
        return self.cleaned_data["player"] if self.is_valid() else None
