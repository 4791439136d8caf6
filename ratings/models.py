"""A club's ratings per game: each player's standing now (`Rating`), each rated game's
effect on each of its players (`RatingStep`, the history a chart and an event's rating
changes read) and the state of the last computation (`RatingRun`).

Written by ratings.services alone; pages, feeds and records read them through
ratings.selectors."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Event, Player, Stage, Table


class RatingRun(models.Model):
    """One club's ratings in one game: which computation the stored numbers are, and
    whether a newer one is on its way (the pages say "being updated")."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="rating_runs", verbose_name=_("club")
    )
    game = models.CharField(_("game"), max_length=32)  # a variant id: "rutupeli", "gin_romi"…
    # Raised by one at every finished computation: the JSON feed's `ratings_version` and the
    # public rating list's cache key.
    version = models.PositiveIntegerField(_("version"), default=0)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    # Set when a computation is asked for, cleared when one finishes with nothing newer asked.
    updating_since = models.DateTimeField(_("being updated since"), null=True, blank=True)
    # The latest ask: a computation that started reading after it counts the change that
    # asked, and may clear `updating_since`; one that started before leaves it set.
    asked_at = models.DateTimeField(_("last asked for"), null=True, blank=True)
    games = models.PositiveIntegerField(_("games rated"), default=0)

    class Meta:
        ordering = ["club", "game"]
        verbose_name = _("rating computation")
        verbose_name_plural = _("rating computations")
        constraints = [
            models.UniqueConstraint(fields=["club", "game"], name="one_rating_run_per_club_game")
        ]

    def __str__(self) -> str:
        return f"{self.club} · {self.game} · {self.version}"


class Rating(models.Model):
    """A player's rating in one game of one club after every game rated so far."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("club")
    )
    game = models.CharField(_("game"), max_length=32)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    # mu − 3·sigma, stored so that the list sorts and pages in the database.
    rating = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"))
    last_played = models.DateField(_("last played"))

    class Meta:
        ordering = ["club", "game", "-rating"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "player"], name="one_rating_per_club_game_player"
            )
        ]
        indexes = [models.Index(fields=["club", "game", "-rating"], name="rating_list")]

    def __str__(self) -> str:
        return f"{self.player} · {self.game} · {self.rating:.1f}"


class RatingStep(models.Model):
    """One player's rating before and after one rated game. `seq` is the game's place in
    the club's history of that game (1, 2, …, in the order played): a correction replays
    from the first game it touches by deleting the steps from there on."""

    # A history has a hundred thousand steps, rewritten whole by a replay from nothing: each
    # index and each checked key slows that. The club's and the player's indexes are the
    # prefixes of the constraint's and "rating_step_history"; no key is checked by the
    # database (`db_constraint=False`): the steps are derived, written only by
    # ratings.services from the rows it has just read in the same transaction, and Django
    # still deletes them with what they point to (on_delete).
    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        related_name="rating_steps",
        verbose_name=_("club"),
        db_index=False,
        db_constraint=False,
    )
    game = models.CharField(_("game"), max_length=32)
    seq = models.PositiveIntegerField(_("game number"))
    # Where the game falls in the order played (`played_on`, `event`, then these two: 0
    # for an imported event): what a correction's replay finds its first game by.
    stage_number = models.PositiveSmallIntegerField(_("stage number"), default=0)
    table_number = models.PositiveSmallIntegerField(_("table number"), default=0)
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_steps",
        verbose_name=_("player"),
        db_index=False,
        db_constraint=False,
    )
    played_on = models.DateField(_("played on"))
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        related_name="rating_steps",
        verbose_name=_("event"),
        db_constraint=False,
    )
    # The table rated (None for an imported event, rated as one game by event place).
    stage = models.ForeignKey(
        Stage,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_steps",
        verbose_name=_("stage"),
        db_index=False,  # a closed stage is deleted only with its event
        db_constraint=False,
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_steps",
        verbose_name=_("table"),
        db_constraint=False,
    )
    place = models.PositiveSmallIntegerField(_("place"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    # The player's rated games in this game of the club, this one included.
    games = models.PositiveIntegerField(_("games"), default=1)

    class Meta:
        ordering = ["club", "game", "seq", "place", "player"]
        verbose_name = _("rating step")
        verbose_name_plural = _("rating steps")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "seq", "player"], name="one_rating_step_per_game_player"
            )
        ]
        indexes = [
            models.Index(fields=["club", "game", "played_on"], name="rating_step_played"),
            models.Index(fields=["player", "game", "seq"], name="rating_step_history"),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.game} #{self.seq}"

    @property
    def rating_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma
