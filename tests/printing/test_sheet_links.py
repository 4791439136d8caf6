"""The director's links to the printed sheets (issue 23): each sheet link carries the
reader's language (as the batch print job prints) and offers A4 and Letter."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import MembershipFactory
from tests.leagues.league_helpers import season_of
from tests.printing.test_print_sheets import contract_entry, record
from tests.scoring.conftest import seated_event
from tournaments.models import Role

pytestmark = pytest.mark.django_db

PAPERS = ("A4", "Letter")


def _director(club) -> User:
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


def _hrefs(html: str) -> set[str]:
    return {href.replace("&amp;", "&") for href in re.findall(r'href="([^"]+)"', html)}


def _event_in_hungarian(players: int = 8):
    event, tables = seated_event(variant_id="rutupeli", players=players)
    event.club.language = "hu"
    event.club.save()
    return event, tables


def _tables_page(event) -> str:
    return reverse("event_tables", args=[event.club.slug, event.pk])


def _returned_url(event, table) -> str:
    return reverse("print_sheet_returned", args=[event.club.slug, event.pk, table.pk])


# -- the links --------------------------------------------------------------------------------


@pytest.mark.parametrize("reader", ["en", "fi"])
def test_every_sheet_link_carries_the_readers_language_and_both_papers(client, reader):
    event, tables = _event_in_hungarian()
    record(tables[0], 1, contract_entry(1, 4))
    client.force_login(_director(event.club))
    hrefs = _hrefs(client.get(_tables_page(event), HTTP_ACCEPT_LANGUAGE=reader).content.decode())
    args = [event.club.slug, event.pk]
    for name in ("print_table_sheet", "print_table_result"):
        url = reverse(name, args=[*args, tables[0].pk])
        for paper in PAPERS:
            assert f"{url}?lang={reader}&paper={paper}" in hrefs, (name, paper)
        # No link left that falls back to the club's language.
        assert url not in hrefs
    # Table 2 has no deal yet: a score sheet on both papers, no result sheet.
    assert (
        f"{reverse('print_table_sheet', args=[*args, tables[1].pk])}?lang={reader}&paper=Letter"
        in hrefs
    )
    assert not any(
        h.startswith(reverse("print_table_result", args=[*args, tables[1].pk])) for h in hrefs
    )


def test_a_sheet_link_prints_what_it_says(client):
    """An English-reading director of a Hungarian club follows the Letter link: an English
    sheet on Letter paper, like the batch the same director prints."""
    event, tables = _event_in_hungarian(players=4)
    client.force_login(_director(event.club))
    html = client.get(_tables_page(event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    sheet = reverse("print_table_sheet", args=[event.club.slug, event.pk, tables[0].pk])
    (letter,) = [h for h in _hrefs(html) if h.startswith(sheet) and "paper=Letter" in h]
    page = PdfReader(io.BytesIO(client.get(letter).content)).pages[0]
    assert "Round 1" in page.extract_text()
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)


def test_the_board_links_offer_both_papers_in_the_readers_language(client):
    event, _tables = _event_in_hungarian()
    client.force_login(_director(event.club))
    args = [event.club.slug, event.pk]
    boards = [reverse("print_standings", args=args), reverse("print_seating", args=[*args, 1])]
    for page in (reverse("event_manage", args=args), event.get_absolute_url()):
        hrefs = _hrefs(client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        for url in boards:
            for paper in PAPERS:
                assert f"{url}?lang=en&paper={paper}" in hrefs, (page, url, paper)
    season = season_of(event.club)
    hrefs = _hrefs(
        client.get(
            reverse("season_league", args=[event.club.slug, season.pk]), HTTP_ACCEPT_LANGUAGE="fi"
        ).content.decode()
    )
    league = reverse("print_league", args=[event.club.slug, season.pk])
    assert {f"{league}?lang=fi&paper={paper}" for paper in PAPERS} <= hrefs
