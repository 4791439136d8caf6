from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Table


class DealStatus(models.TextChoices):
    SUBMITTED = "submitted", _("waiting for confirmation")
    CONFIRMED = "confirmed", _("confirmed")
    # Set aside by the director: kept with its history, left out of the scores, and its
    # number entered again by the table.
    VOIDED = "voided", _("voided")


class Deal(models.Model):
    """One deal (game) at one table, as it stands now. Its history is in DealVersion.

    `entry` is what the table entered, as the rules engine reads it; `points` is what the
    engine made of it, one number per seat in seat order. Both are kept so the sheet never
    depends on re-running the engine, and the entry can always be re-checked.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="deals", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    # {"sets": n, "runs": n} for contract games; null for Römi games.
    contract = models.JSONField(_("contract"), null=True, blank=True)
    entry = models.JSONField(_("entry"))
    points = models.JSONField(_("points"))
    flags = models.JSONField(_("notes"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=DealStatus.choices, default=DealStatus.SUBMITTED
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    submitted_seat = models.PositiveSmallIntegerField(
        _("submitted from seat"), null=True, blank=True
    )
    submitted_device = models.CharField(_("submitted from device"), max_length=64, blank=True)
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_deal_number_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.table} · {_('deal')} {self.number}"

    @property
    def is_confirmed(self) -> bool:
        return self.status == DealStatus.CONFIRMED

    @property
    def is_voided(self) -> bool:
        return self.status == DealStatus.VOIDED


class DealAction(models.TextChoices):
    SUBMIT = "submit", _("submitted")
    CORRECT = "correct", _("corrected")
    CONFIRM = "confirm", _("confirmed")
    VOID = "void", _("voided")


class ConfirmFlag(models.TextChoices):
    """Why a confirmation is listed for the director to look at (the rule that sets it:
    scoring.confirmation)."""

    NONE = "", _("nothing to look at")
    # A seat that vouches for the deal (or made a version of it) was taken only after the
    # deal was first entered: it may be the same person on a second phone.
    LATE_SEAT = "late_seat", _("a seat taken after the deal was first entered")
    # A director (or scorer) confirmed a deal they had entered or corrected themselves,
    # where the club lets its directors confirm alone.
    SAME_PERSON = "same_person", _("entered and confirmed by the same person")


class DealVersion(models.Model):
    """Every change of a deal, never updated or deleted: who, when, and the deal after it."""

    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="versions", verbose_name=_("deal")
    )
    version = models.PositiveIntegerField(_("version"))
    action = models.CharField(_("action"), max_length=16, choices=DealAction.choices)
    entry = models.JSONField(_("entry"))
    points = models.JSONField(_("points"))
    status = models.CharField(_("status"), max_length=16, choices=DealStatus.choices)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by user"),
    )
    by_seat = models.PositiveSmallIntegerField(_("by seat"), null=True, blank=True)
    device = models.CharField(_("device"), max_length=64, blank=True)
    # The id the form was rendered with: a double tap or a network retry sends the same one,
    # and finds its first save instead of making a second.
    request_id = models.CharField(_("request id"), max_length=64)
    # What the director's pages point out about this version (a confirmation, or an entry
    # made from a seat taken after the deal was first entered).
    flag = models.CharField(
        _("to look at"), max_length=16, choices=ConfirmFlag.choices, default="", blank=True
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["deal", "version"]
        verbose_name = _("deal version")
        verbose_name_plural = _("deal versions")
        constraints = [
            models.UniqueConstraint(fields=["deal", "version"], name="one_row_per_deal_version"),
            models.UniqueConstraint(fields=["deal", "request_id"], name="one_save_per_request"),
        ]

    def __str__(self) -> str:
        return f"{self.deal} v{self.version} ({self.get_action_display()})"


class SeatClaim(models.Model):
    """Which phone speaks for which seat at a table: one phone per seat, one seat per phone.

    Another phone takes the seat only after this one lets it go ("Not you? Change seat") or
    the director frees it; `claimed_at` tells a confirmation from a phone that appeared only
    after the deal was entered.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="claims", verbose_name=_("table")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    device = models.CharField(_("device"), max_length=64)
    claimed_at = models.DateTimeField(_("claimed at"), auto_now_add=True)
    # The seat's PIN was given when it was claimed (or a director seated the phone): when
    # the event asks for PINs, only such a claim enters and confirms.
    pin_given = models.BooleanField(_("PIN given"), default=False)
    seated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seated by the director"),
    )

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat claim")
        verbose_name_plural = _("seat claims")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_phone_per_seat"),
            models.UniqueConstraint(fields=["table", "device"], name="one_seat_per_phone"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.position + 1}"


class PinOutcome(models.TextChoices):
    WRONG = "wrong", _("wrong PIN")
    RIGHT = "right", _("right PIN")
    UNLOCKED = "unlocked", _("unlocked by the director")


class PinAttempt(models.Model):
    """Every PIN typed for a seat, and every unlock: counted here, in the database, so a
    seat's PIN locks after a few wrong tries whatever state the cache is in, and the
    director sees who tried."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="pin_attempts", verbose_name=_("table")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    outcome = models.CharField(_("outcome"), max_length=16, choices=PinOutcome.choices)
    device = models.CharField(_("device"), max_length=64, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by user"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["table", "position", "at", "pk"]
        verbose_name = _("PIN attempt")
        verbose_name_plural = _("PIN attempts")
        indexes = [models.Index(fields=["table", "position", "at"], name="pin_attempts_of_seat")]

    def __str__(self) -> str:
        return f"{self.table} · {self.position + 1}: {self.get_outcome_display()}"
