from __future__ import annotations

import datetime
import secrets
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import Variant, playoff_variant
from tournaments.event_formats import DEFAULT_FORMAT, FormatSpec, format_spec
from tournaments.event_formats import EventFormat as EventFormat
from tournaments.names import name_key as key_of_name
from tournaments.visibility import is_public

DEFAULT_TIME_ZONE = "Europe/Helsinki"


def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA time zone the server knows, sorted: for the forms (the model only
    validates, so a new tzdata release never makes a migration)."""
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("%(value)s is not a time zone: pick one from the list."),
            code="time_zone",
            params={"value": value},
        )


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    language = models.CharField(
        _("default language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="fi",
        help_text=_("Pages open in this language until a person picks another."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=DEFAULT_TIME_ZONE,
        validators=[validate_time_zone],
        help_text=_("Where the club plays: its events' times are in this time zone."),
    )
    # Refreshed by a background task (tournaments.tasks.club_stats_refresh), so the public
    # club page never counts members on every view.
    member_count = models.PositiveIntegerField(_("members"), default=0)
    stats_refreshed_at = models.DateTimeField(_("members counted at"), null=True, blank=True)
    # What the public pages show: results not yet confirmed at the table are marked there,
    # or left out altogether when the club says so.
    public_confirmed_only = models.BooleanField(
        _("public pages show confirmed results only"),
        default=False,
        help_text=_("Deals still waiting for a second player's confirmation are left out."),
    )
    # A member's record is public with the events they play; a guest (who never agreed to
    # a page of their own) has one only if the club says so.
    publish_guest_pages = models.BooleanField(_("guests have public record pages"), default=False)
    directors_confirm_alone = models.BooleanField(
        _("a director may confirm a deal they entered"),
        default=True,
        help_text=_(
            "Such a confirmation is recorded as one person's and listed for the directors to "
            "look at. Off: a second person at the table always confirms."
        ),
    )
    # Whether a drawn stage mails each player with an address "You are at table 7" with the
    # table's link (tournaments.notices); results and registration mails are always sent.
    mail_tables = models.BooleanField(
        _("mail each player their table when a stage is drawn"), default=False
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", kwargs={"slug": self.slug})


class Role(models.TextChoices):
    # Ordered by power: a role can do everything the roles below it can.
    OWNER = "owner", _("owner")
    DIRECTOR = "director", _("director")
    SCORER = "scorer", _("scorer")
    MEMBER = "member", _("member")


ROLE_RANK = {Role.OWNER: 4, Role.DIRECTOR: 3, Role.SCORER: 2, Role.MEMBER: 1}


class Membership(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.get_role_display()})"

    def has_role(self, role: Role) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[role]


class MembershipChange(models.Model):
    """One membership added, its role changed, or removed: who, when, old role, new role.

    Written by the membership services (tournaments.services), and by signals for changes
    made around them, with no `changed_by`. History: never updated, never deleted (a
    deleted account leaves its rows with no user; a deleted club takes its history along).
    """

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="membership_changes", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="membership_changes",
        verbose_name=_("member"),
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="membership_changes_made",
        verbose_name=_("changed by"),
    )
    changed_at = models.DateTimeField(_("when"), auto_now_add=True)
    # Blank old role: the membership was added; blank new role: it was removed.
    old_role = models.CharField(_("old role"), max_length=16, choices=Role.choices, blank=True)
    new_role = models.CharField(_("new role"), max_length=16, choices=Role.choices, blank=True)

    class Meta:
        ordering = ["-changed_at", "-pk"]
        verbose_name = _("membership change")
        verbose_name_plural = _("membership changes")
        indexes = [models.Index(fields=["club", "-changed_at"], name="membership_change_club")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}: {self.old_role or '-'} → {self.new_role or '-'}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise RuntimeError("a membership change is history: it is never updated")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise RuntimeError("a membership change is history: it is never deleted")


class Profile(models.Model):
    """What a person chose for themselves: today only the language of the pages."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)


class Season(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts"))
    ends_on = models.DateField(_("ends"))
    # How the season's events add up: tournaments.engine.league.LeagueScheme.to_dict(); empty is
    # the default scheme. Changed only through a service that records a SeasonSchemeChange.
    league_scheme = models.JSONField(_("league scheme"), default=dict, blank=True)
    # The league table as last computed (rows as plain values), when, and since when it
    # is out of date: a result that feeds it changed after `league_computed_at`.
    league_rows = models.JSONField(_("league table"), null=True, blank=True)
    league_computed_at = models.DateTimeField(_("league table computed"), null=True, blank=True)
    league_stale_since = models.DateTimeField(
        _("league table out of date since"), null=True, blank=True
    )
    # A closed season takes no more events (its table still counts those it has).
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        ordering = ["club", "-starts_on"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return f"{self.club} · {self.name}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class SeasonSchemeChange(models.Model):
    """A change of a season's league scheme: a decision shown on the league table, never a
    silent rewrite of it."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="scheme_changes", verbose_name=_("season")
    )
    old_scheme = models.JSONField(_("old scheme"), default=dict)
    new_scheme = models.JSONField(_("new scheme"), default=dict)
    note = models.CharField(_("reason"), max_length=200, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    changed_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["season", "-changed_at"]
        verbose_name = _("league scheme change")
        verbose_name_plural = _("league scheme changes")

    def __str__(self) -> str:
        return f"{self.season} · {self.changed_at:%Y-%m-%d}"


class Player(models.Model):
    """A person who plays: a member with an account, or a guest who is only a name."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="players", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("account"),
    )
    # A guest is typed in by name at one event's check-in; the club's own players (with an
    # account or not) are listed first by the player picker and never called guests.
    guest = models.BooleanField(_("guest"), default=False)
    # Where a visiting player of an open event comes from: a series can keep one club's
    # players apart. Blank for the club's own players.
    home_club = models.CharField(_("home club"), max_length=120, blank=True)
    # A duplicate merged into another player (tournaments.merge): kept, so that the merge
    # can be undone, but hidden from every list, picker, league table and record.
    merged_into = models.ForeignKey(
        "self",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="merged_players",
        verbose_name=_("merged into"),
    )
    # `tournaments.names.name_key(name)`, kept by save() (and by every bulk_create, which
    # skips save()): the look-alike checks and the picker's search compare it through an
    # index instead of normalising every player's name in Python on each lookup.
    name_key = models.CharField(_("name key"), max_length=255, editable=False, default="")
    # The player (or, for one without an account, the club's director) took the record page
    # off the public pages: standings keep the name, nothing links to the record
    # (tournaments.privacy.record_public is the one rule).
    record_hidden = models.BooleanField(_("record hidden from the public"), default=False)

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(fields=["club", "name_key"], name="player_club_name_key")]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], name="one_player_per_account_and_club"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = key_of_name(self.name)[:255]
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def is_guest(self) -> bool:
        return self.guest


class RankingMode(models.TextChoices):
    """How the event's ranking orders players while tables are at different deals."""

    AVERAGE = "average", _("by points per deal played")
    SAME_DEALS = "same_deals", _("by points after the same number of deals")


class EventStatus(models.TextChoices):
    REGISTRATION = "registration", _("registration open")
    RUNNING = "running", _("in play")
    FINISHED = "finished", _("finished")


class RegistrationOpenTo(models.TextChoices):
    """Who may register for an event themselves (the director may always add anyone)."""

    NOBODY = "nobody", _("nobody: the director adds the players")
    MEMBERS = "members", _("the club's members")
    ANYONE = "anyone", _("anyone with a name and a confirmed e-mail address")


class Event(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="events", verbose_name=_("club")
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("season"),
    )
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    # When play starts, in the club's time zone: the calendar's event starts then (an
    # all-day entry without it).
    start_time = models.TimeField(_("starts at"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    variant_id = models.CharField(_("game"), max_length=32)
    # The whole variant as it was when the event was created: a later change of the rules
    # package's defaults never rewrites this event's results.
    variant_options = models.JSONField(_("rules"), default=dict)
    preferred_table_size = models.PositiveSmallIntegerField(_("preferred table size"), default=4)
    confirm_needs_pin = models.BooleanField(
        _("confirmations need the player's PIN"),
        default=False,
        help_text=_(
            "Each player gets a short PIN on the seating list; confirming a deal asks for it."
        ),
    )
    format = models.CharField(
        _("format"), max_length=16, choices=EventFormat.choices, default=DEFAULT_FORMAT
    )
    # The format's options as chosen at creation (top_k, lucky_losers, rounds, reseat, …);
    # each stage copies what it needs into its own `format` when it is drawn.
    format_options = models.JSONField(_("format options"), default=dict, blank=True)
    ranking_mode = models.CharField(
        _("ranking mid-evening"),
        max_length=16,
        choices=RankingMode.choices,
        default=RankingMode.AVERAGE,
        help_text=_(
            "While the tables are at different deals; the plain total is always shown beside it."
        ),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=EventStatus.choices, default=EventStatus.REGISTRATION
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Private until the club publishes it: no public page, feed or league table shows a
    # private event (its directors and its tables' links still work).
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    # The order that separates players level on total in the event's standings (names from
    # tournaments.engine.tiebreaks); empty is the game's default order.
    tie_breaks = models.JSONField(_("tie-break order"), default=list, blank=True)
    # When a result last changed (a deal saved, confirmed or voided, a stage closed): the
    # public pages' Last-Modified, and what their cached copies are checked against.
    results_changed_at = models.DateTimeField(_("results changed"), null=True, blank=True)
    # Self-registration (tournaments.registration): who may, from when to when, how many
    # places (none: no limit; the rest wait in order) and whether a director approves each.
    registration_open_to = models.CharField(
        _("who may register themselves"),
        max_length=16,
        choices=RegistrationOpenTo.choices,
        default=RegistrationOpenTo.NOBODY,
    )
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    capacity = models.PositiveIntegerField(
        _("places"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    registration_approval = models.BooleanField(
        _("a director approves each registration"), default=False
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    def get_absolute_url(self) -> str:
        return reverse("event_public", kwargs={"slug": self.club.slug, "event_id": self.pk})

    @property
    def is_published(self) -> bool:
        # (templates read it; tournaments.visibility.is_public is the rule)
        return is_public(self)

    @property
    def variant(self) -> Variant:
        """The game as the event plays it (read once per instance: every sheet asks)."""
        cached = self.__dict__.get("_variant")
        if cached is None:
            cached = self.__dict__["_variant"] = Variant.from_dict(self.variant_options)
        return cached

    @property
    def spec(self) -> FormatSpec:
        """The event's format as the site knows it (tournaments.event_formats): what every
        page, sheet and feed asks instead of comparing the format."""
        return format_spec(self.format)


class RegistrationStatus(models.TextChoices):
    # Self-registration's steps before a place: the e-mail address not yet confirmed by its
    # link; confirmed but waiting for a director's approval; waiting for a place.
    UNCONFIRMED = "unconfirmed", _("e-mail not confirmed")
    PENDING = "pending", _("awaiting approval")
    WAITLISTED = "waitlisted", _("on the waitlist")
    REGISTERED = "registered", _("registered")
    CHECKED_IN = "checked_in", _("checked in")
    # Registered but never came: marked before the draw, kept apart from a withdrawal.
    NO_SHOW = "no_show", _("did not come")
    # Taken out by a director (withdrawn) or by the player (cancelled).
    WITHDRAWN = "withdrawn", _("withdrawn")
    CANCELLED = "cancelled", _("cancelled")


# The one rule of who holds a place at an event, and so is an entrant: seated, listed,
# counted against its places. Every other status (not yet confirmed, approved or given a
# place; gone) holds none, and a player holding none may be offered again.
PLACE_HOLDING = (RegistrationStatus.REGISTERED, RegistrationStatus.CHECKED_IN)
# Self-registration's steps before a place: never an entrant, not yet gone either.
BEFORE_PLACE = (
    RegistrationStatus.UNCONFIRMED,
    RegistrationStatus.PENDING,
    RegistrationStatus.WAITLISTED,
)


class Registration(models.Model):
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="registrations", verbose_name=_("player")
    )
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=RegistrationStatus.choices,
        default=RegistrationStatus.REGISTERED,
    )
    late = models.BooleanField(_("arrived late"), default=False)
    # A late entry seated in a championship past its first stage, which only a director's
    # override does: who did, and when.
    seated_late_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seated past stage 1 by"),
    )
    seated_late_at = models.DateTimeField(_("seated past stage 1 at"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    # Where mail about this registration goes, in which language (a self-registration's own;
    # a member's account address otherwise; blank: nothing is mailed).
    email = models.EmailField(_("e-mail address"), blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)
    # The player registered themselves (the public page), not a director.
    self_registered = models.BooleanField(_("registered themselves"), default=False)
    # The waitlist's order: when the registration joined it (a promotion takes the first).
    waitlisted_at = models.DateTimeField(_("waitlisted at"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("approved by"),
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)

    class Meta:
        ordering = ["event", "player__name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_registration_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.event}"


class RegistrationChange(models.Model):
    """Every change of a registration's status: who (a director, the player, or nobody for
    the site itself, as a waitlist promotion), when, from what to what."""

    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="changes",
        verbose_name=_("registration"),
    )
    old_status = models.CharField(_("old status"), max_length=16, blank=True)
    new_status = models.CharField(_("new status"), max_length=16)
    note = models.CharField(_("note"), max_length=200, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    changed_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["registration", "changed_at", "pk"]
        verbose_name = _("registration change")
        verbose_name_plural = _("registration changes")

    def __str__(self) -> str:
        return f"{self.registration} · {self.old_status} → {self.new_status}"


class NoticeKind(models.TextChoices):
    """The kinds of mail the site sends a player; each has its own unsubscribe."""

    RECEIVED = "received", _("registration received")
    APPROVED = "approved", _("registration approved")
    WAITLISTED = "waitlisted", _("put on the waitlist")
    PROMOTED = "promoted", _("a place from the waitlist")
    CANCELLED = "cancelled", _("registration cancelled")
    TABLE = "table", _("your table")
    RESULTS = "results", _("results published")


class NoticeStatus(models.TextChoices):
    QUEUED = "queued", _("waiting to be sent")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")
    # No address, or the person unsubscribed from this kind: recorded, never mailed.
    SKIPPED = "skipped", _("not sent")


class Notice(models.Model):
    """One mail to one person about one event: made in the action's transaction, sent by a
    Celery task after it commits, retried when the mail server fails (tournaments.notices)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="notices", verbose_name=_("event")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notices",
        verbose_name=_("registration"),
    )
    kind = models.CharField(_("kind"), max_length=16, choices=NoticeKind.choices)
    email = models.EmailField(_("e-mail address"), blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    # What the mail says beyond the registration (a table's number and link, a place).
    context = models.JSONField(_("details"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=NoticeStatus.choices, default=NoticeStatus.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.CharField(_("last error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at", "pk"]
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        indexes = [models.Index(fields=["event", "status"], name="notice_event_status")]

    def __str__(self) -> str:
        return f"{self.kind} · {self.email} · {self.status}"


class MailOptOut(models.Model):
    """An address that asked for no more mail of one kind from one club (each kind's own
    unsubscribe link)."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="mail_opt_outs", verbose_name=_("club")
    )
    email = models.EmailField(_("e-mail address"))
    kind = models.CharField(_("kind"), max_length=16, choices=NoticeKind.choices)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("unsubscribed address")
        verbose_name_plural = _("unsubscribed addresses")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "email", "kind"], name="one_opt_out_per_address_and_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} · {self.kind}"


class StageStatus(models.TextChoices):
    PREVIEW = "preview", _("draw preview")
    CONFIRMED = "confirmed", _("seated")
    FINISHED = "finished", _("finished")


class Stage(models.Model):
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="stages", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(_("number"), default=1)
    seed = models.BigIntegerField(_("draw seed"))
    status = models.CharField(
        _("status"), max_length=16, choices=StageStatus.choices, default=StageStatus.PREVIEW
    )
    # The stage's own rules, fixed when it is drawn, as the event stores its variant: the
    # table sizes now ({"table_sizes": {"min": 3, "max": 6, "preferred": 4}}), and how
    # players advance when championships come. A later change of the event's settings
    # never reseats a stage.
    format = models.JSONField(_("format"), default=dict, blank=True)
    # What closing the stage decided (who went on and why), as the director committed it: a
    # later correction of a score is compared with this, never silently re-applied.
    outcome = models.JSONField(_("outcome"), default=dict, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_stage_number_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.number}"

    @property
    def label(self) -> str:
        """The stage in its format's one word for it: "Stage 2", or "Round 2"."""
        return self.event.spec.stage_name(self.number)


class TieBreak(models.Model):
    """How the director settled a tie at a table (or, with no table, at a stage's lucky
    losers' cut): the method, the tied players best first, a note. Never guessed."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="tie_breaks", verbose_name=_("stage")
    )
    table = models.ForeignKey(
        "Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tie_breaks",
        verbose_name=_("table"),
    )
    method = models.CharField(_("how it was settled"), max_length=16)
    order = models.JSONField(_("tied players, best first"), default=list)
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        ordering = ["stage", "table", "recorded_at"]
        verbose_name = _("tie-break")
        verbose_name_plural = _("tie-breaks")

    def __str__(self) -> str:
        return f"{self.stage} · {self.method}"


def new_entry_key() -> str:
    return secrets.token_urlsafe(16)


def four_digit_pin() -> str:
    """The PIN seats had before PINs grew to six digits: migration 0003 fills the seats of
    its day with it (its column then held four)."""
    return f"{secrets.randbelow(10_000):04d}"


def new_seat_pin() -> str:
    # Six digits: wrong guesses are counted per phone (a guesser waits, the player does
    # not), and 500 of them from all phones together lock the seat: a guess then succeeds
    # once in 2,000 per unlock (scoring.confirmation).
    return f"{secrets.randbelow(1_000_000):06d}"


class StageTables(models.Manager["Table"]):
    """A stage's own tables, without its play-off tables: what every draw, standing, sheet,
    record and league table reads (and `stage.tables`), so a play-off is never counted as a
    table of its stage. The table's own pages and writes read `Table.everything`."""

    def get_queryset(self) -> models.QuerySet[Table]:
        return super().get_queryset().filter(playoff_of__isnull=True)


class Table(models.Model):
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="tables", verbose_name=_("stage")
    )
    number = models.PositiveSmallIntegerField(_("table number"))
    # A play-off table: one deal between the players `playoff_of` left level, whose result
    # is recorded as that table's tie-break (formats.playoffs). Numbered after the stage's
    # tables; entered and confirmed like any table, counted in nothing else.
    playoff_of = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("play-off for"),
    )
    # The table's private score-entry link: unguessable, and replaced when revoked.
    entry_key = models.CharField(_("entry key"), max_length=32, unique=True, default=new_entry_key)
    # Set by the first score saved here (under this row's lock): from then on the stage's
    # draw stands. Kept on the table so the draw can tell without asking the scores.
    has_scores = models.BooleanField(_("scores entered"), default=False)
    # When this table's results last changed (a deal saved, confirmed, voided; a tie-break
    # of its own): written under this row's lock by the save itself, so a save never touches
    # a row the other tables share (tournaments.changes).
    results_changed_at = models.DateTimeField(_("results changed"), null=True, blank=True)

    # Meta names the default: `objects`, the stage's own tables (and so `stage.tables`).
    everything = models.Manager()
    objects = StageTables()

    class Meta:
        ordering = ["stage", "number"]
        default_manager_name = "objects"
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="one_table_number_per_stage")
        ]

    def __str__(self) -> str:
        return f"{self.stage.event} · {self.label}"

    @property
    def takes_scores(self) -> bool:
        """Whether the table's link takes scores now: its stage seated (confirmed), its
        event still in play. The link's pages and the director's (its QR code, *Revoke*)
        ask this one rule."""
        return (
            self.stage.status == StageStatus.CONFIRMED
            and self.stage.event.status != EventStatus.FINISHED
        )

    @property
    def label(self) -> str:
        """What the table's own pages call it: "Table 3", or "Play-off 9 (table 3)"."""
        if self.playoff_of is None:
            return gettext("Table %(number)d") % {"number": self.number}
        return gettext("Play-off %(number)d (table %(table)d)") % {
            "number": self.number,
            "table": self.playoff_of.number,
        }

    def get_entry_url(self) -> str:
        return reverse("table_entry", kwargs={"key": self.entry_key})

    @property
    def variant(self) -> Variant:
        """The game this table plays (its stage and event loaded): the event's, or, at a
        play-off table, the game's one play-off deal."""
        game = self.stage.event.variant
        return playoff_variant(game) if self.playoff_of_id is not None else game


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    is_first_dealer = models.BooleanField(_("deals first"), default=False)
    # Printed on the seating list; asked for on a confirmation when the event wants it.
    pin = models.CharField(_("PIN"), max_length=6, default=new_seat_pin)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(
                fields=["table", "player"], name="one_seat_per_player_and_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.position + 1}: {self.player}"


INVITATION_DAYS = 7


def new_invitation_token() -> str:
    return secrets.token_urlsafe(32)


def invitation_expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=INVITATION_DAYS)


class InvitationStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    ACCEPTED = "accepted", _("accepted")
    REVOKED = "revoked", _("revoked")
    EXPIRED = "expired", _("expired")


class Invitation(models.Model):
    """An invitation to a club, mailed to an address: its link (the token) is used once,
    within INVITATION_DAYS, and may be revoked before. It may name a roster player without
    an account, whose history the person claims on accepting."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    email = models.EmailField(_("e-mail address"))
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("player"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_invitation_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), default=invitation_expiry)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )

    class Meta:
        ordering = ["club", "-created_at", "-pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        indexes = [models.Index(fields=["club", "-created_at"], name="invitation_club")]

    def __str__(self) -> str:
        return f"{self.email} → {self.club} ({self.get_role_display()})"

    def status_at(self, when: datetime.datetime) -> InvitationStatus:
        if self.accepted_at is not None:
            return InvitationStatus.ACCEPTED
        if self.revoked_at is not None:
            return InvitationStatus.REVOKED
        if self.expires_at <= when:
            return InvitationStatus.EXPIRED
        return InvitationStatus.PENDING

    @property
    def status(self) -> InvitationStatus:
        return self.status_at(timezone.now())


class Erasure(models.Model):
    """A player erased on request: their name became "Former player <number>", their
    account went. Holds no name (that is the point): who asked is the player row, which
    stays for the results."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="erasures", verbose_name=_("club")
    )
    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="erasure", verbose_name=_("player")
    )
    # The N of "Former player N": counted per club, so a small club's names stay short and
    # tell nothing about the site's other clubs (a primary key would).
    number = models.PositiveIntegerField(_("number"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("erased by"),
    )
    at = models.DateTimeField(_("erased"), auto_now_add=True)

    class Meta:
        ordering = ["club", "number"]
        verbose_name = _("erasure")
        verbose_name_plural = _("erasures")
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="one_erasure_number_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.club} · {self.number}"


class ImportedResult(models.Model):
    """One player's result at an imported event (`Event.spec.imported`): the place and the
    total as the club's own spreadsheet recorded them, and the stage reached where the
    file says (a championship's). Written by tournaments.history alone; the event's
    standings, its league results and the player's record read these rows."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="imported_results", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.RESTRICT,
        related_name="imported_results",
        verbose_name=_("player"),
    )
    place = models.PositiveSmallIntegerField(_("place"))
    total = models.DecimalField(_("total"), max_digits=10, decimal_places=2)
    stage = models.PositiveSmallIntegerField(_("stage reached"), null=True, blank=True)

    class Meta:
        ordering = ["event", "place", "player__name"]
        verbose_name = _("imported result")
        verbose_name_plural = _("imported results")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"], name="one_imported_result_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.place}. {self.player}"

    @property
    def total_number(self) -> int | float:
        """The total as the outputs show and store it (JSON has no decimals): whole points
        as an integer, else with its decimals."""
        return (
            int(self.total) if self.total == self.total.to_integral_value() else float(self.total)
        )


class PlayerMerge(models.Model):
    """Two players found to be one person: every row of `merged` moved to `kept`.

    `moved` says exactly what moved (ids of registrations and seats; each rewritten stage
    and tie-break with its JSON before and after; the account), so that the merge can be
    undone row for row while nothing newer depends on it (tournaments.merge).
    """

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="player_merges", verbose_name=_("club")
    )
    kept = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="merges_kept", verbose_name=_("kept player")
    )
    merged = models.ForeignKey(
        Player,
        on_delete=models.RESTRICT,
        related_name="merges_merged",
        verbose_name=_("merged player"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("merged by"),
    )
    at = models.DateTimeField(_("merged at"), auto_now_add=True)
    moved = models.JSONField(_("what moved"), default=dict)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("undone by"),
    )

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        indexes = [models.Index(fields=["club", "-at"], name="player_merge_club")]

    def __str__(self) -> str:
        return f"{self.merged} → {self.kept}"
