"""Forms of self-registration and of the director's registration list."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event, RegistrationOpenTo, RegistrationStatus
from tournaments.registration import DIRECTOR_ACTIONS


class RegistrationSettingsForm(forms.Form):
    """The event's registration settings; its times are read and shown in the club's time
    zone (the view activates it)."""

    open_to = forms.ChoiceField(
        label=_("Who may register themselves"), choices=RegistrationOpenTo.choices
    )
    opens_at = forms.DateTimeField(
        label=_("Registration opens"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: open now."),
    )
    closes_at = forms.DateTimeField(
        label=_("Registration closes"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: until the event starts."),
    )
    capacity = forms.IntegerField(
        label=_("Places"),
        required=False,
        min_value=1,
        max_value=10000,
        help_text=_("Empty: no limit. When the places are taken, the rest join the waitlist."),
    )
    approval = forms.BooleanField(label=_("A director approves each registration"), required=False)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "open_to": event.registration_open_to,
                "opens_at": event.registration_opens_at,
                "closes_at": event.registration_closes_at,
                "capacity": event.capacity,
                "approval": event.registration_approval,
            },
        )
        super().__init__(*args, **kwargs)


class GuestRegistrationForm(forms.Form):
    """Someone without an account registers with a name and an address."""

    name = forms.CharField(label=_("Your name"), max_length=120)
    email = forms.EmailField(label=_("Your e-mail address"), max_length=254)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autocomplete"] = "name"
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Write your name."), code="required")
        return name


class DirectorAddForm(GuestRegistrationForm):
    """A director registers someone by name and address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name")
        self.fields["email"].label = _("E-mail address")


class RegistrationFilterForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("All")), *RegistrationStatus.choices],
    )

    @property
    def status_value(self) -> str:
        return self.cleaned_data.get("status", "") if self.is_valid() else ""


class RegistrationActionForm(forms.Form):
    action = forms.ChoiceField(choices=[(action, action) for action in DIRECTOR_ACTIONS])
