from __future__ import annotations

import dataclasses
from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import RegexValidator
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import VARIANT_IDS, describe_penalties, game_spec, get_variant
from rules.games import GameSpec, Option
from tournaments.event_formats import DEFAULT_FORMAT, FORMATS, FormatSpec, format_spec
from tournaments.models import (
    Club,
    Event,
    Player,
    RegistrationStatus,
    Season,
    Seat,
    time_zone_choices,
)
from tournaments.selectors import LateArrivals, registerable_players


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    next = forms.CharField(required=False, widget=forms.HiddenInput)


def _variant_choices() -> list[tuple[str, str]]:
    return [(variant_id, get_variant(variant_id).name) for variant_id in VARIANT_IDS]


class GameChoiceForm(forms.Form):
    """The first step of a new event: the game, whose house rules the event form then shows."""

    game = forms.ChoiceField(label=_("Game"), choices=_variant_choices)


def chosen_game(value: object) -> str:
    """The game id in ``value`` (the address's ``?game=`` or the posted one), else the first."""
    return value if isinstance(value, str) and value in VARIANT_IDS else VARIANT_IDS[0]


def _nullable(spec: GameSpec[Any], name: str) -> bool:
    for field in dataclasses.fields(spec.variant_class):
        if field.name == name:
            return "None" in str(field.type)
    return False


def _shown_value(value: object) -> str:
    """A fixed setting's value in words: contracts describe themselves, lists are joined."""
    if hasattr(value, "describe"):
        return str(value.describe(gettext))
    if value is None:
        return gettext("none")
    if isinstance(value, dict):  # the card values, in the rules page's own words
        return describe_penalties(value, gettext)
    if isinstance(value, tuple | list):
        return "; ".join(_shown_value(item) for item in value) or gettext("none")
    return str(value)


def _bye_wins_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("A bye counts as"),
        required=False,
        coerce=int,
        initial=1,
        choices=[(1, _("a match won")), (0, _("no match won"))],
    )


def _bye_points_field() -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Settlement points for a bye"),
        required=False,
        initial=0,
        min_value=0,
        max_value=1000,
    )


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    start_time = forms.TimeField(
        label=_("Starts at"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("In the club's time zone; left empty, calendars show the whole day."),
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    # Chosen in the first step (GameChoiceForm): the house rules below are this game's.
    variant_id = forms.ChoiceField(
        label=_("Game"), choices=_variant_choices, widget=forms.HiddenInput
    )
    # Which game's house rules the page showed: only then is an unticked box a "no" (a post
    # without them, or for another game, keeps the game's defaults for the boxes).
    rules_for = forms.CharField(required=False, widget=forms.HiddenInput)
    preferred_table_size = forms.IntegerField(
        label=_("Preferred table size"), min_value=2, max_value=6, initial=4
    )
    allow_points_entry = forms.BooleanField(
        label=_("Allow points instead of cards"),
        required=False,
        initial=True,
        help_text=_("Players may type a hand's points when they did not keep the cards."),
    )
    require_laydown = forms.BooleanField(
        label=_("Require the winner's melds"),
        required=False,
        help_text=_(
            "Contract games: the player who went out enters the melds, checked against the contract."
        ),
    )
    confirm_needs_pin = forms.BooleanField(
        label=_("Confirmations need the player's PIN"),
        required=False,
        help_text=_(
            "Each player gets a short PIN on the seating list; confirming a deal asks for it."
        ),
    )

    season = forms.ModelChoiceField(
        label=_("Season"),
        queryset=Season.objects.none(),
        required=False,
        help_text=_(
            "Its results count in the season's league table. Closed seasons are not offered."
        ),
    )

    published = forms.BooleanField(
        label=_("Publish on the public pages now"),
        required=False,
        initial=False,
        help_text=_(
            "Otherwise only the club's directors see the event's pages until you publish it "
            "from its manage page."
        ),
    )

    format = forms.ChoiceField(
        label=_("Format"),
        required=False,
        initial=DEFAULT_FORMAT,
        help_text=_("How the event's rounds follow each other. Only formats that fit the game."),
    )
    top_k = forms.IntegerField(
        label=_("Players going on from each table"),
        required=False,
        initial=1,
        min_value=1,
        max_value=3,
        help_text=_("1: only each table's winner. Must be fewer than the smallest table."),
    )
    lucky_losers = forms.BooleanField(
        label=_("Lucky losers"),
        required=False,
        help_text=_("Fill the next stage up to whole tables with the best of those not going on."),
    )
    series_rounds = forms.IntegerField(
        label=_("Rounds"), required=False, initial=4, min_value=2, max_value=12
    )
    reseat = forms.ChoiceField(
        label=_("Each round is seated"),
        required=False,
        initial="avoid_repeats",
        choices=[
            ("avoid_repeats", _("at random, avoiding repeat tablemates")),
            ("standings", _("by the standings: similar totals meet")),
        ],
    )
    clubs_apart = forms.BooleanField(
        label=_("Players of the same club apart"),
        required=False,
        help_text=_("In an open event, where possible."),
    )
    series_ranking = forms.ChoiceField(
        label=_("The series ranks by"),
        required=False,
        initial="points",
        choices=[
            ("points", _("the penalty points")),
            ("placement", _("placement points scaled to the table size")),
        ],
    )
    swiss_rounds = forms.IntegerField(
        label=_("Rounds"), required=False, initial=3, min_value=1, max_value=12
    )
    # Each paired format has its own bye fields (one name, one id per field on the page): the
    # page shows both formats' at once, and a shared name let the Swiss's values win.
    rr_bye_wins = _bye_wins_field()
    rr_bye_points = _bye_points_field()
    swiss_bye_wins = _bye_wins_field()
    swiss_bye_points = _bye_points_field()

    # House rules with a field of their own above, for every game; the game's other options
    # get their fields from its spec (`game_options`), so no game is written down here.
    RULE_FIELDS = ("allow_points_entry", "require_laydown")
    # Not a house rule: the event has its own name.
    NOT_SETTABLE = ("name",)
    # Not shown: the engine's own tie order ends with the seat, which the site never uses;
    # the event's tie-break order is chosen above (tournaments.engine.tiebreaks).
    NOT_SHOWN = ("tie_order",)

    def __init__(
        self, *args: Any, game: str | None = None, club: Club | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        posted = self.data.get("variant_id") if self.is_bound else None
        self.game = chosen_game(posted or game)
        self.spec = game_spec(self.game)
        season = self.fields["season"]
        assert isinstance(season, forms.ModelChoiceField)
        season.queryset = open_seasons(club)
        if not season.queryset.exists():
            del self.fields["season"]  # a club with no open season has nothing to choose
        self.fields["variant_id"].initial = self.game
        self.fields["rules_for"].initial = self.game
        sizes = self.spec.table_sizes(get_variant(self.game))
        # The game's own table, not a fixed 4 (a Gin Römi table seats two).
        self.fields["preferred_table_size"].initial = sizes.preferred
        self.formats = [spec for spec in FORMATS.values() if spec.fits(sizes)]
        self.fields["format"].choices = [  # type: ignore[attr-defined]
            (spec.id, spec.label) for spec in self.formats
        ]
        self.option_names: list[str] = []
        self.fixed: list[tuple[str, str]] = []
        for option in self.spec.options:
            if option.name in (*self.RULE_FIELDS, *self.NOT_SHOWN):
                continue
            field = None if option.name in self.NOT_SETTABLE else self._option_field(option)
            if field is None:
                self.fixed.append((gettext(option.text), _shown_value(option.default)))
            else:
                self.fields[option.name] = field
                self.option_names.append(option.name)

    @property
    def format_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each offered format with its own fields, for the page (a format without any is
        left out)."""
        return [
            (spec.label, [self[name] for name in spec.fields])
            for spec in self.formats
            if spec.fields
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        spec = format_spec(data.get("format") or DEFAULT_FORMAT)
        if spec.check is not None:
            preferred = data.get("preferred_table_size")
            sizes = self.spec.table_sizes(get_variant(self.game), preferred)
            for name, message in spec.check(self._format_values(data, spec), sizes).items():
                self.add_error(name, message)
        return data

    def _format_values(self, data: dict[str, Any], spec: FormatSpec) -> dict[str, object]:
        """`spec`'s options as chosen (a field left empty takes its initial value)."""
        options: dict[str, object] = {}
        for name, stored in spec.fields.items():
            value = data.get(name)
            if value is None or value == "":
                value = self.fields[name].initial
            box = isinstance(self.fields[name], forms.BooleanField)
            options[stored] = bool(value) if box else value
        return options

    def _format_options(self, data: dict[str, Any], chosen: str) -> dict[str, object]:
        """The chosen format's options; every format's fields are dropped from `data`."""
        options = self._format_values(data, format_spec(chosen))
        for spec in FORMATS.values():
            for name in spec.fields:
                data.pop(name, None)
        return options

    def _option_field(self, option: Option) -> forms.Field | None:
        text = gettext(option.text)
        default = option.default
        if isinstance(default, bool):
            return forms.BooleanField(
                label=text,
                required=False,
                initial=default,
                help_text=gettext("Default: %(default)s")
                % {"default": gettext("yes") if default else gettext("no")},
            )
        nullable = _nullable(self.spec, option.name)
        if isinstance(default, int) or (default is None and nullable):
            help_text = gettext("Default: %(default)s") % {"default": _shown_value(default)}
            if nullable:
                help_text = gettext("%(help)s. Leave empty for no limit.") % {"help": help_text}
            return forms.IntegerField(
                label=text,
                required=False,
                initial=default,
                min_value=option.low,
                max_value=option.high,
                help_text=help_text,
            )
        return None

    @property
    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in (*self.RULE_FIELDS, *self.option_names)]

    @property
    def event_field_list(self) -> list[forms.BoundField]:
        own = (
            "name", "date", "start_time", "venue", "season", "preferred_table_size", "confirm_needs_pin",
            "published",
        )  # fmt: skip
        return [self[name] for name in own if name in self.fields]

    def _option_value(self, name: str, value: object) -> object:
        """What the person chose for option ``name``: a box the page did not show, or a
        number left out, is the game's default; an emptied "no limit" number is None."""
        default = self.spec.defaults[name]
        if isinstance(default, bool):
            shown = self.cleaned_data.get("rules_for") == self.game
            return value if shown or name in self.data else default
        if value is None:
            if _nullable(self.spec, name) and name in self.data:
                return None
            return default
        return value

    def event_fields(self) -> dict[str, Any]:
        """The cleaned form as `event_create`'s arguments: the event's own fields, and the
        house rules as the game's options."""
        data = dict(self.cleaned_data)
        data.pop("rules_for", None)
        chosen = data.pop("format", None) or DEFAULT_FORMAT
        format_options = self._format_options(data, chosen)
        options = {name: data.pop(name) for name in self.RULE_FIELDS}
        for name in self.option_names:
            options[name] = self._option_value(name, data.pop(name))
        return {**data, "options": options, "format": chosen, "format_options": format_options}


class ClubSettingsForm(forms.ModelForm):
    """What the club's public pages show, and who may confirm a deal (club settings, for its
    owners and directors)."""

    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        # Not sent (an older page, a script): the club keeps its zone.
        required=False,
        help_text=_("Where the club plays: its events' times are in this time zone."),
    )

    class Meta:
        model = Club
        fields = (
            "public_confirmed_only",
            "publish_guest_pages",
            "directors_confirm_alone",
            "mail_tables",
            "time_zone",
        )
        labels = {
            "public_confirmed_only": _("Public pages show confirmed results only"),
            "publish_guest_pages": _("Guests have public record pages"),
            "directors_confirm_alone": _("A director may confirm a deal they entered"),
            "mail_tables": _("Mail each player their table when a draw is confirmed"),
        }
        help_texts = {
            "public_confirmed_only": _(
                "Deals still waiting for a second player's confirmation are left out of the "
                "public results until they are confirmed (the directors' pages show them)."
            ),
            "publish_guest_pages": _(
                "A guest is only a name typed in at check-in; their record page and their "
                "line in the club's players list are shown only if you tick this."
            ),
            "mail_tables": _(
                "Players with an e-mail address get “You are at table 7” with the table's "
                "link and QR code. Registration and results mails are sent either way."
            ),
        }

    def clean_time_zone(self) -> str:
        return self.cleaned_data["time_zone"] or self.instance.time_zone


class EventPublishForm(forms.Form):
    """Publish the event on the public pages ("1"), or take it back private ("0"): said
    outright, so a lost or garbled post changes nothing."""

    published = forms.TypedChoiceField(
        choices=[("1", _("Publish")), ("0", _("Make private"))], coerce=lambda value: value == "1"
    )


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=120)


class PlayerPickerForm(forms.Form):
    """The "Add a player" list's search (in the address: a plain GET form, so it works
    without script; static/js/picker.js filters the list as one types)."""

    q = forms.CharField(
        label=_("Find a player"),
        max_length=120,
        required=False,
        # picker.js filters the list named here as one types.
        widget=forms.TextInput(
            attrs={"type": "search", "autocomplete": "off", "data-picker-filter": "add-player"}
        ),
    )
    guests = forms.BooleanField(
        label=_("Show guests of past events"),
        required=False,
        widget=forms.CheckboxInput(attrs={"data-picker-toggle": ""}),
    )

    def filters(self) -> dict[str, Any]:
        """`registerable_players`' arguments; anything unreadable shows the usual list."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {"search": (data.get("q") or "").strip(), "past_guests": bool(data.get("guests"))}


class RegistrationForm(forms.Form):
    """Check in one of the club's players, or a guest by name.

    The players it accepts are the ones the picker offers (`registerable_players`): past
    guests only when the page showed them (its hidden `guests` field says so), and nobody
    already registered.
    """

    player = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    name = forms.CharField(max_length=120, required=False)
    home_club = forms.CharField(max_length=120, required=False)
    guests = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # Ticked on the look-alike warning: the guest is not one of the players it offered.
    new_person = forms.BooleanField(label=_("Add a new person anyway"), required=False)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        past_guests = PlayerPickerForm(self.data or None).filters()["past_guests"]
        self.fields["player"].queryset = registerable_players(  # type: ignore[attr-defined]
            event=event, past_guests=past_guests
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("name") or "").strip():
            raise forms.ValidationError(_("Pick a player or type a guest's name."))
        return data


class RegistrationStatusForm(forms.Form):
    status = forms.ChoiceField(choices=RegistrationStatus.choices)


class SwapForm(forms.Form):
    """Two different seats of the event's tables, to swap their players."""

    first = forms.ModelChoiceField(queryset=Seat.objects.none())
    second = forms.ModelChoiceField(queryset=Seat.objects.none(), label=_("Swap with"))

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the newest stage is ever drawn: a later round's preview never swaps with a
        # seat of a round already played.
        newest = event.stages.order_by("-number").values("pk")[:1]
        seats = Seat.objects.filter(table__stage__in=newest)
        self.fields["first"].queryset = seats  # type: ignore[attr-defined]
        self.fields["second"].queryset = seats  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("first") or not data.get("second") or data["first"] == data["second"]:
            raise forms.ValidationError(_("Pick two different seats to swap."))
        return data


NOT_YET = ""
# A table ("t" and its id) or a new table ("n" and its index); the digits bounded, so no
# number reaches the database that it cannot hold.
CHOICE = RegexValidator(r"^(t\d{1,9}|n\d{1,3})$")


class LateSeatingForm(forms.Form):
    """Where each late arrival sits: a table that has not started, a new table, or not yet.

    One choice per waiting player (`p<player id>`), proposed by `late_arrivals`; a player
    who checked in after the page was shown is simply not in the post, and waits.
    """

    def __init__(self, *args: Any, late: LateArrivals, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.late = late
        choices = [(NOT_YET, gettext("Not yet"))]
        for table in late.tables:
            seated = len(table.seats.all())
            label = ngettext(
                "Table %(number)d (%(count)d player)",
                "Table %(number)d (%(count)d players)",
                seated,
            ) % {"number": table.number, "count": seated}
            choices.append((f"t{table.pk}", label))
        for index, number in enumerate(late.new_numbers):
            choices.append((f"n{index}", gettext("New table %(number)d") % {"number": number}))
        proposed = {player: f"t{key}" for player, key in late.proposal.joins.items()}
        for index, group in enumerate(late.proposal.new_tables):
            proposed.update({player: f"n{index}" for player in group})
        for registration in late.waiting:
            name = f"p{registration.player_id}"
            # Offered: the open tables; accepted: any table's shape. Whether that table still
            # takes a player (not started meanwhile, a chair free, this stage's) is the
            # service's to judge under the table's lock, and it says which table and why.
            self.fields[name] = forms.CharField(
                label=registration.player.name,
                required=False,
                widget=forms.Select(choices=choices),
                validators=[CHOICE],
                initial=proposed.get(registration.player_id, NOT_YET),
            )
        if late.needs_override is not None:
            self.fields["override"] = forms.BooleanField(
                label=_("Seat past stage 1 anyway"), required=False
            )

    def placement(self) -> dict[str, Any]:
        """The cleaned choices as `late_arrivals_seat`'s arguments."""
        joins: dict[int, int] = {}
        new_tables: dict[str, list[int]] = {}
        for registration in self.late.waiting:
            choice = self.cleaned_data.get(f"p{registration.player_id}") or NOT_YET
            if choice.startswith("t"):
                joins[registration.player_id] = int(choice[1:])
            elif choice.startswith("n"):
                new_tables.setdefault(choice, []).append(registration.player_id)
        ordered = sorted(new_tables.items(), key=lambda item: int(item[0][1:]))
        return {
            "joins": joins,
            "new_tables": [group for _key, group in ordered],
            "override": bool(self.cleaned_data.get("override")),
        }


def open_seasons(club: Club | None) -> Any:
    """The seasons an event of `club` may be put in: its own, not closed, newest first."""
    if club is None:
        return Season.objects.none()
    return Season.objects.filter(club=club, closed_at__isnull=True).order_by("-starts_on", "name")


class SeasonForm(forms.ModelForm):
    """A season's name and dates (a director's new season, or its edit)."""

    class Meta:
        model = Season
        fields = ("name", "starts_on", "ends_on")
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }


class EventSeasonForm(forms.Form):
    """Which season the event counts in (its settings on the manage page)."""

    season = forms.ModelChoiceField(
        label=_("Season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=_("No season"),
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"season": event.season_id})
        super().__init__(*args, **kwargs)
        seasons = open_seasons(event.club)
        if event.season_id is not None:
            seasons = seasons | Season.objects.filter(pk=event.season_id)  # even if closed
        field = self.fields["season"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = seasons.order_by("-starts_on", "name")
