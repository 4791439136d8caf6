from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


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
    # Refreshed by a background task (tournaments.tasks.club_stats_refresh), so the public
    # club page never counts members on every view.
    member_count = models.PositiveIntegerField(_("members"), default=0)
    stats_refreshed_at = models.DateTimeField(_("members counted at"), null=True, blank=True)
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
