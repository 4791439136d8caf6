"""The event formats, each described once, as `rules.games` describes each game.

A `FormatSpec` says what the rest of the site needs to know of a format: its options (the
new-event form's fields and the names they are stored under), which games it fits, what the
form must check, how its stages are drawn and follow each other, what the director decides
along the way, how its standings are ranked, the words it is described in, and the
template partials that show it on the public page, the manage page and the big screen.
Pages, PDFs, exports and feeds ask the spec (`event.spec`); no module or template compares
a format. A new format is a new spec here, its partials, and the code of its own app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import TableSizes
from tournaments.engine.advancement import draw_stage
from tournaments.engine.draw import TableBounds, draw_tables


class EventFormat(models.TextChoices):
    """How an event's stages follow each other (its options are in Event.format_options)."""

    NIGHT = "night", _("club night: one round")
    CHAMPIONSHIP = "championship", _("table-winner championship")
    SERIES = "series", _("reseated series of rounds")
    ROUND_ROBIN = "round_robin", _("head to head: round robin")
    SWISS = "swiss", _("head to head: Swiss")
    # Results of the club's past brought in from a spreadsheet (tournaments.history): a
    # place and a total per player, no stages, tables or deals. Never offered for a new
    # event (it fits no game's tables).
    IMPORTED = "imported", _("imported results")


Options = Mapping[str, Any]
ROUND = _("Round %(number)d")
ROUNDS = _("Rounds")
THIS_ROUNDS_RANKING = _("This round's ranking")
Draw = Callable[[Sequence[int], TableBounds, int], list[list[int]]]


def _tables(players: Sequence[int], bounds: TableBounds, seed: int) -> list[list[int]]:
    return draw_tables(players, bounds, seed=seed)


def _knockout(players: Sequence[int], bounds: TableBounds, seed: int) -> list[list[int]]:
    # Whoever fits one table plays one final table (2 to 6): a championship's own sizes.
    return draw_stage(players, bounds=bounds, seed=seed)


@dataclass(frozen=True, eq=False)
class FormatSpec:
    id: str
    # The new-event form's fields of this format (form field → the name it is stored under
    # in Event.format_options; the fields themselves are tournaments.forms.EventForm's).
    fields: Mapping[str, str]
    # Whether the format fits a game of these table sizes.
    fits: Callable[[TableSizes], bool]
    # What the format means to a player, in plain words: (label, value) rows.
    describe: Callable[[Options], list[tuple[str, str]]]
    # How a stage's players are seated at its tables.
    draw: Draw = _tables
    # The options each stage keeps of its own (Stage.format) when it is drawn.
    stage_options: Mapping[str, Callable[[Any], object]] = field(default_factory=dict)
    # The form's check of the options against the table sizes: field → message.
    check: Callable[[Options, TableSizes], dict[str, str]] | None = None
    # How the stages follow each other. One stage only (a club night); or table winners go
    # on (the director closes each stage, the next is drawn from who went on); or reseated
    # rounds (each round drawn under the series); or rounds of paired matches.
    one_stage: bool = False
    knockout: bool = False
    reseated: bool = False
    paired: bool = False
    # Round robin: every pair meets once, so the rounds are the field's size less one;
    # otherwise the director sets the number of rounds (`rounds` option).
    full_schedule: bool = False
    # The event's plain draw (the manage page's Draw button): for stage 1 only, every stage,
    # or never (paired rounds have their own).
    plain_draw: str = "first"  # "first" | "any" | "never"
    # A later stage seats only late entrants (a championship's seats those who went on).
    later_stages_entrants_only: bool = False
    # A closed stage's deals may still be corrected by the director (its close is then
    # checked against the corrected results).
    corrects_closed_stages: bool = False
    # The event's ranking settings (mid-evening mode, tie-break order) mean something here.
    ranking_settings: bool = True
    # The words of a stage ("Stage 2", "Round 2"), of them all, and of the ranking of the
    # one in play: what every page, sheet and download of the event calls its stages.
    stage_word: Promise = ROUND
    stages_word: Promise = ROUNDS
    ranking_heading: Promise = THIS_ROUNDS_RANKING
    # What shows it: above the ranking on the public page, on the manage page, and the
    # notice-board sheets it prints besides the standings and seating.
    public_partials: tuple[str, ...] = ()
    manage_partials: tuple[str, ...] = ()
    boards: tuple[str, ...] = ()
    # A line about how its rounds are paired (head to head), for the manage page.
    round_note: Promise | str = ""
    # What the event's standings rank (standings.standings): "tables" (the stage in play's
    # players by their result), "series" (the rounds added up), "matches" (match wins),
    # "championship" (the last stage reached, then the place there).
    standings: str = "tables"
    # Imported results (tournaments.history): the event has no stages, tables or deals, so
    # nothing draws, seats, takes scores or prints score sheets; every page, list, feed
    # and record that shows it says "imported". The one predicate every output asks.
    imported: bool = False

    @property
    def label(self) -> str:
        return str(EventFormat(self.id).label)

    def option_values(self, stored: object) -> dict[str, object]:
        """The event's stored options of this format (a bad store reads as none)."""
        return dict(stored) if isinstance(stored, dict) else {}

    def stage_name(self, number: int) -> str:
        return str(self.stage_word) % {"number": number}


# -- the descriptions -----------------------------------------------------------------------------


def _night_rows(options: Options) -> list[tuple[str, str]]:
    return []


def _championship_rows(options: Options) -> list[tuple[str, str]]:
    top_k = int(options.get("top_k", 1) or 1)
    return [
        (
            gettext("Who goes on"),
            ngettext("the winner of each table", "the top %(count)d of each table", top_k)
            % {"count": top_k},
        ),
        (
            gettext("Lucky losers"),
            gettext("the best of the others fill the next stage to whole tables")
            if options.get("lucky_losers")
            else gettext("none"),
        ),
    ]


def _series_rows(options: Options) -> list[tuple[str, str]]:
    rows = [
        (gettext("Rounds"), str(options.get("rounds", 1))),
        (
            gettext("Seating each round"),
            gettext("by the standings: similar totals meet")
            if options.get("reseat") == "standings"
            else gettext("at random, meeting as few earlier tablemates as possible"),
        ),
        (
            gettext("Ranking"),
            gettext("by placement points: 60 for a table's winner down to 0 for its last")
            if options.get("series_ranking") == "placement"
            else gettext("by points, every round's totals added"),
        ),
    ]
    if options.get("clubs_apart"):
        rows.append((gettext("Clubs"), gettext("players of one club sit apart")))
    return rows


def _paired_rows(options: Options, *, rounds: bool) -> list[tuple[str, str]]:
    rows = []
    if rounds and options.get("rounds"):
        rows.append((gettext("Rounds"), str(options["rounds"])))
    wins, points = int(options.get("bye_wins", 1) or 0), int(options.get("bye_points", 0) or 0)
    rows.append(
        (
            gettext("A bye is worth"),
            ngettext("%(wins)d win", "%(wins)d wins", wins) % {"wins": wins}
            + ", "
            + ngettext("%(points)d point", "%(points)d points", points) % {"points": points},
        )
    )
    rows.append(
        (
            gettext("Standings"),
            gettext("match wins, then settlement points, then the matches between those level"),
        )
    )
    return rows


def _check_top_k(options: Options, sizes: TableSizes) -> dict[str, str]:
    top_k = options.get("top_k")
    if not top_k or top_k < sizes.min_size:
        return {}
    return {
        "top_k": ngettext(
            "Fewer than the smallest table of %(size)d player, or nobody is knocked out there.",
            "Fewer than the smallest table of %(size)d players, or nobody is knocked out there.",
            sizes.min_size,
        )
        % {"size": sizes.min_size}
    }


def _tables_of_three_or_more(sizes: TableSizes) -> bool:
    return sizes.min_size >= 3


def _tables_of_two(sizes: TableSizes) -> bool:
    return sizes.max_size == 2


_PAIRED = {
    "paired": True,
    "plain_draw": "never",
    "ranking_settings": False,
    "standings": "matches",
    "public_partials": ("formats/headtohead/_grid.html",),
    "manage_partials": ("formats/headtohead/_next_round.html",),
}

FORMATS: dict[str, FormatSpec] = {
    spec.id: spec
    for spec in (
        FormatSpec(
            id=EventFormat.NIGHT,
            fields={},
            fits=lambda sizes: True,
            describe=_night_rows,
            one_stage=True,
            plain_draw="any",
            stage_word=_("Round %(number)d"),
            ranking_heading=_("Ranking"),
        ),
        FormatSpec(
            id=EventFormat.CHAMPIONSHIP,
            fields={"top_k": "top_k", "lucky_losers": "lucky_losers"},
            fits=_tables_of_three_or_more,
            describe=_championship_rows,
            draw=_knockout,
            stage_options={
                "top_k": lambda value: int(value or 1),
                "lucky_losers": lambda value: bool(value),
            },
            check=_check_top_k,
            knockout=True,
            plain_draw="any",
            later_stages_entrants_only=True,
            corrects_closed_stages=True,
            stage_word=_("Stage %(number)d"),
            stages_word=_("Stages"),
            ranking_heading=_("This stage's ranking"),
            public_partials=("formats/championship/_bracket.html",),
            manage_partials=("formats/championship/_close.html",),
            boards=("bracket",),
            standings="championship",
        ),
        FormatSpec(
            id=EventFormat.SERIES,
            fields={
                "series_rounds": "rounds",
                "reseat": "reseat",
                "clubs_apart": "clubs_apart",
                "series_ranking": "series_ranking",
            },
            fits=_tables_of_three_or_more,
            describe=_series_rows,
            reseated=True,
            standings="series",
            public_partials=("formats/series/_standings.html",),
            manage_partials=("formats/series/_next_round.html",),
        ),
        FormatSpec(
            id=EventFormat.ROUND_ROBIN,
            fields={"rr_bye_wins": "bye_wins", "rr_bye_points": "bye_points"},
            fits=_tables_of_two,
            describe=lambda options: _paired_rows(options, rounds=False),
            full_schedule=True,
            round_note=_(
                "Round robin: everyone meets everyone once, in the order drawn at round 1."
            ),
            **_PAIRED,  # type: ignore[arg-type]
        ),
        FormatSpec(
            id=EventFormat.SWISS,
            fields={
                "swiss_rounds": "rounds",
                "swiss_bye_wins": "bye_wins",
                "swiss_bye_points": "bye_points",
            },
            fits=_tables_of_two,
            describe=lambda options: _paired_rows(options, rounds=True),
            round_note=_(
                "Swiss: each round pairs players with as many wins as possible, never twice "
                "the same pair while another pairing exists."
            ),
            **_PAIRED,  # type: ignore[arg-type]
        ),
        FormatSpec(
            id=EventFormat.IMPORTED,
            fields={},
            fits=lambda sizes: False,
            describe=_night_rows,
            one_stage=True,
            plain_draw="never",
            ranking_settings=False,
            ranking_heading=_("Imported results"),
            standings="imported",
            imported=True,
        ),
    )
}
DEFAULT_FORMAT = EventFormat.NIGHT


def format_spec(format_id: str) -> FormatSpec:
    """The spec of a stored format; an unknown one (data from a later version, say) is read
    as a club night, so that one event's data never breaks its pages."""
    return FORMATS.get(format_id) or FORMATS[DEFAULT_FORMAT]


def format_ids(**capabilities: bool) -> list[str]:
    """The formats with these capabilities (`format_ids(corrects_closed_stages=True)`), for
    a query that must name them."""
    return [
        spec.id
        for spec in FORMATS.values()
        if all(getattr(spec, name) is value for name, value in capabilities.items())
    ]
