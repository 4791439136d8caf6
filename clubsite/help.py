"""The help inside the site, for directors and players: one Markdown file per page and
language under templates/help/<lang>/<slug>.md, rendered once per process (the files change
only on deploy), in the site's layout with a table of contents.

A heading the director's screens link to (the "?" beside a button, `{% help_link %}`) has
an explicit id (`## Drawing the tables {#draw}`), the same in every language, so one link
serves fi, hu and en alike; SECTIONS names them, and tests/clubsite/test_help.py checks that
every link in the templates finds its heading in every language.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import markdown  # type: ignore[import-untyped]  # ships no type hints
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

HELP_DIR = Path(settings.BASE_DIR) / "templates" / "help"
LANGUAGES = ("en", "fi", "hu")
FALLBACK = "en"


class Audience:
    DIRECTORS = "directors"
    PLAYERS = "players"
    EVERYONE = "everyone"


@dataclass(frozen=True)
class HelpPage:
    slug: str
    title: Promise
    audience: str


# In the order the index lists them.
PAGES: tuple[HelpPage, ...] = (
    HelpPage("index", _("Help"), Audience.EVERYONE),
    HelpPage("club-night", _("Running a club night"), Audience.DIRECTORS),
    HelpPage("championship", _("A table-winner championship"), Audience.DIRECTORS),
    HelpPage("series", _("A reseated series"), Audience.DIRECTORS),
    HelpPage("gin", _("Head-to-head Gin Römi"), Audience.DIRECTORS),
    HelpPage("confirmation", _("What a confirmation proves"), Audience.EVERYONE),
    HelpPage("weak-network", _("At a venue with a weak network"), Audience.EVERYONE),
    HelpPage("roster", _("The club's players"), Audience.DIRECTORS),
    HelpPage("publishing", _("Publishing results"), Audience.DIRECTORS),
    HelpPage("standings", _("Standings and tie-breaks"), Audience.EVERYONE),
    HelpPage("leagues", _("Seasons and league tables"), Audience.EVERYONE),
    HelpPage("printing", _("Printing"), Audience.DIRECTORS),
    HelpPage("importing", _("Importing past results"), Audience.DIRECTORS),
    HelpPage("ratings", _("Ratings"), Audience.PLAYERS),
)
BY_SLUG = {page.slug: page for page in PAGES}

# The sections the site's pages link to ("?"), with the words of the link's label
# ("Help: Drawing the tables"). Each id is a heading's explicit id in every language's file.
SECTIONS: dict[tuple[str, str], Promise] = {
    ("club-night", "new-event"): _("Creating an event"),
    ("club-night", "registration"): _("Registration"),
    ("club-night", "check-in"): _("Check-in at the door"),
    ("club-night", "draw"): _("Drawing the tables"),
    ("club-night", "late-arrivals"): _("Late arrivals"),
    ("club-night", "score-entry"): _("Score entry at the table"),
    ("club-night", "corrections"): _("Corrections and history"),
    ("club-night", "ranking"): _("The ranking during the evening"),
    ("standings", "tie-breaks"): _("Tie-breaks"),
    ("championship", "closing-a-stage"): _("Closing a stage"),
    ("championship", "corrections"): _("Corrections after a close"),
    ("series", "next-round"): _("Drawing the next round"),
    ("gin", "pairing"): _("Pairing a round"),
    ("confirmation", "flagged"): _("Confirmations to look at"),
    ("confirmation", "wrong-pins"): _("Wrong PINs"),
    ("roster", "players"): _("The club's players"),
    ("roster", "adding"): _("Adding players"),
    ("roster", "merging"): _("Merging duplicate players"),
    ("roster", "privacy"): _("Privacy"),
    ("publishing", "club-settings"): _("Settings of the public pages"),
    ("publishing", "mail"): _("Mail to players"),
    ("leagues", "seasons"): _("Seasons"),
    ("leagues", "scheme"): _("The scheme"),
    ("printing", "table-sheets"): _("Table sheets"),
    ("printing", "whole-round"): _("Printing a whole round"),
    ("importing", "file"): _("The file"),
}


def help_language(language: str | None) -> str:
    """The language a page is shown in: the reader's, else English."""
    code = (language or "").split("-")[0].lower()
    return code if code in LANGUAGES else FALLBACK


@dataclass(frozen=True)
class RenderedHelp:
    html: str
    toc: str
    ids: frozenset[str]

    @property
    def lead(self) -> str:
        """What comes before the first section: shown above the table of contents."""
        return self.html[: self._first_section]

    @property
    def sections(self) -> str:
        return self.html[self._first_section :]

    @property
    def _first_section(self) -> int:
        at = self.html.find("<h2")
        return len(self.html) if at < 0 else at


@functools.lru_cache(maxsize=len(PAGES) * len(LANGUAGES))
def rendered_help(slug: str, language: str) -> RenderedHelp:
    """The page's HTML and table of contents. The file is the project's own (never anyone's
    input); the Markdown yields no inline style (tables align by attribute), so the CSP holds."""
    path = HELP_DIR / language / f"{slug}.md"
    if not path.exists():
        path = HELP_DIR / FALLBACK / f"{slug}.md"
    md = markdown.Markdown(
        extensions=["toc", "tables", "attr_list"],
        extension_configs={
            "toc": {"toc_depth": "2-3"},
            "tables": {"use_align_attribute": True},
        },
        output_format="html",
    )
    html = md.convert(path.read_text(encoding="utf-8"))
    ids = frozenset(_ids(md.toc_tokens))
    return RenderedHelp(html=html, toc=md.toc, ids=ids)


def _ids(tokens: list[dict[str, object]]) -> list[str]:
    found: list[str] = []
    for token in tokens:
        found.append(str(token["id"]))
        found.extend(_ids(token["children"]))  # type: ignore[arg-type]
    return found
