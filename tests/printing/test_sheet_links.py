"""The director's links to the printed sheets and the "sheets returned" check (issue 23):
each sheet link carries the reader's language (as the batch print job prints) and offers A4
and Letter; a director marks which tables' paper sheets came back, once, and the tables page
counts them in a constant number of queries."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from printing.models import SheetReturn
from printing.returns import sheet_return_set
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tests.support.leagues import season_of
from tests.support.sheets import contract_entry, record
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


def test_a_gin_table_offers_its_continuation_sheet_and_a_contract_table_none(client):
    """Gin and Tízlapos have no fixed number of deals: past the score sheet's rows the table
    goes on on a continuation sheet, downloaded beside the score sheet."""
    gin, (table,) = seated_event(variant_id="gin_romi", players=2)
    client.force_login(_director(gin.club))
    hrefs = _hrefs(client.get(_tables_page(gin), HTTP_ACCEPT_LANGUAGE="en").content.decode())
    url = reverse("print_table_continued", args=[gin.club.slug, gin.pk, table.pk])
    (letter,) = [h for h in hrefs if h.startswith(url) and "paper=Letter" in h]
    pdf = PdfReader(io.BytesIO(client.get(letter).content))
    assert len(pdf.pages) == 1
    text = pdf.pages[0].extract_text()
    assert "Continuation sheet" in text and "Carried over from the score sheet" in text
    rutupeli, _tables = _event_in_hungarian(players=4)
    client.force_login(_director(rutupeli.club))
    assert "continued.pdf" not in client.get(_tables_page(rutupeli)).content.decode()


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


# -- the sheets returned ----------------------------------------------------------------------


def test_a_director_marks_a_sheet_returned_and_the_page_counts_it(client):
    event, tables = _event_in_hungarian(players=12)
    director = _director(event.club)
    client.force_login(director)
    page = client.get(_tables_page(event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sheets returned: 0 of 3" in page
    assert 'aria-pressed="true"' not in page

    answer = client.post(_returned_url(event, tables[1]), {"returned": "yes"})
    assert answer.status_code == 302
    assert answer["Location"].endswith(f"{_tables_page(event)}#table-{tables[1].number}")
    mark = SheetReturn.objects.get()
    assert (mark.table, mark.returned_by) == (tables[1], director)

    page = client.get(_tables_page(event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sheets returned: 1 of 3" in page
    card = page[page.index(f'id="table-{tables[1].number}"') :]
    card = card[: card.index("</li>")]
    assert "sheet returned" in card and 'aria-pressed="true"' in card
    assert 'value="no"' in card  # pressing it again takes the mark back
    assert page.count('aria-pressed="false"') == 2

    client.post(_returned_url(event, tables[1]), {"returned": "no"})
    assert not SheetReturn.objects.exists()
    assert (
        "Sheets returned: 0 of 3"
        in client.get(_tables_page(event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )


def test_a_double_submit_records_once_keeping_the_first_who_and_when(client):
    event, tables = _event_in_hungarian(players=4)
    first, second = _director(event.club), _director(event.club)
    client.force_login(first)
    client.post(_returned_url(event, tables[0]), {"returned": "yes"})
    when = SheetReturn.objects.get().returned_at
    client.post(_returned_url(event, tables[0]), {"returned": "yes"})
    client.force_login(second)
    client.post(_returned_url(event, tables[0]), {"returned": "yes"})
    mark = SheetReturn.objects.get()
    assert (mark.returned_by, mark.returned_at) == (first, when)
    # The service alone, as a second request racing the first would call it.
    assert sheet_return_set(table=tables[0], returned=True, by=second) == mark
    assert SheetReturn.objects.count() == 1
    # A mark asked with no state, or a state the form does not know, changes nothing.
    client.post(_returned_url(event, tables[0]), {})
    client.post(_returned_url(event, tables[0]), {"returned": "maybe"})
    assert SheetReturn.objects.count() == 1


def test_only_a_director_marks_a_sheet_returned(client):
    event, tables = _event_in_hungarian(players=4)
    url = _returned_url(event, tables[0])
    assert client.post(url, {"returned": "yes"}).status_code == 302  # to sign in
    assert "/accounts/login/" in client.post(url, {"returned": "yes"})["Location"]
    for role in (Role.SCORER, Role.MEMBER):
        client.force_login(MembershipFactory(club=event.club, role=role).user)
        assert client.post(url, {"returned": "yes"}).status_code == 403
    client.force_login(MembershipFactory(role=Role.OWNER).user)  # another club's owner
    assert client.post(url, {"returned": "yes"}).status_code == 403
    client.force_login(_director(event.club))
    assert client.get(url).status_code == 405
    assert not SheetReturn.objects.exists()
    # The scorer sees what came back, but no button to change it.
    sheet_return_set(table=tables[0], returned=True, by=_director(event.club))
    client.force_login(MembershipFactory(club=event.club, role=Role.SCORER).user)
    page = client.get(_tables_page(event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sheets returned: 1 of 1" in page and "sheet returned" in page
    assert url not in page and "aria-pressed" not in page


def test_another_events_table_is_not_found(client):
    event, tables = _event_in_hungarian(players=4)
    other, _tables = seated_event(variant_id="rutupeli", players=4, club=event.club)
    client.force_login(_director(event.club))
    url = reverse("print_sheet_returned", args=[event.club.slug, other.pk, tables[0].pk])
    assert client.post(url, {"returned": "yes"}).status_code == 404


def test_the_tables_page_queries_do_not_grow_with_its_tables(client, django_assert_max_num_queries):
    def queries(players: int) -> int:
        event, tables = _event_in_hungarian(players=players)
        director = _director(event.club)
        for table in tables[::2]:
            sheet_return_set(table=table, returned=True, by=director)
        client.force_login(director)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(_tables_page(event)).status_code == 200
        return len(captured)

    small = queries(8)
    event, tables = _event_in_hungarian(players=48)
    director = _director(event.club)
    for table in tables[::2]:
        sheet_return_set(table=table, returned=True, by=director)
    client.force_login(director)
    with django_assert_max_num_queries(small):
        page = client.get(_tables_page(event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sheets returned: 6 of 12" in page


# -- the admin --------------------------------------------------------------------------------


def test_the_admin_lists_the_returned_sheets_read_only(client):
    event, tables = _event_in_hungarian(players=4)
    director = _director(event.club)
    mark = sheet_return_set(table=tables[0], returned=True, by=director)
    assert mark is not None
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    listing = client.get(reverse("admin:printing_sheetreturn_changelist"))
    assert listing.status_code == 200 and str(tables[0]) in listing.content.decode()
    assert (
        client.get(reverse("admin:printing_sheetreturn_change", args=[mark.pk])).status_code == 200
    )
    assert client.get(reverse("admin:printing_sheetreturn_add")).status_code == 403


def test_the_service_itself_refuses_who_does_not_direct():
    event, tables = _event_in_hungarian(players=4)
    scorer = MembershipFactory(club=event.club, role=Role.SCORER).user
    with pytest.raises(PermissionDenied):
        sheet_return_set(table=tables[0], returned=True, by=scorer)
    assert not SheetReturn.objects.exists()
