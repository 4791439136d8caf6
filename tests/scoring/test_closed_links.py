"""What a director and a phone are offered for a table whose link no longer takes scores
(`Table.takes_scores`, one rule): no QR code or *Revoke* for a closed stage's tables, no
link to a private event's page for a phone; and two words of the table pages in Finnish."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from formats.championship import championship_stage_close
from scoring.i18n import contract_text
from tests.support.championship import championship, play, winner_scheme
from tests.support.entry import deal_post, seated_client
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role, Table
from tournaments.services import table_key_revoke

pytestmark = pytest.mark.django_db


def test_a_closed_stages_tables_offer_no_qr_code_or_revoke():
    event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    desk = Client()
    desk.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    listing = reverse("event_tables", args=[event.club.slug, event.pk])

    def offered(table: Table) -> list[bool]:
        revoke = reverse("table_revoke_confirm", args=[event.club.slug, event.pk, table.pk])
        qr = reverse("table_qr", args=[table.entry_key])
        pages = [desk.get(manage).content.decode(), desk.get(listing).content.decode()]
        return [qr in pages[0], revoke in pages[0], qr in pages[1]]

    assert offered(tables[0]) == [True, True, True]  # in play
    for table in tables:
        play(table, winner_scheme(table.seats.count()))
    championship_stage_close(stage=stage, by=director)
    for table in tables:
        assert not Table.everything.get(pk=table.pk).takes_scores
        assert offered(table) == [False, False, False]


def test_a_private_events_table_page_does_not_send_phones_to_its_404():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    event.published_at = None
    event.save()
    link = f'href="{event.get_absolute_url()}"'
    assert link not in seated_client(table, 0).get(table.get_entry_url()).content.decode()
    event.published_at = timezone.now()
    event.save()
    assert link in seated_client(table, 1).get(table.get_entry_url()).content.decode()


def test_four_sets_and_the_history_column_in_finnish():
    with translation.override("fi"):
        assert contract_text({"sets": 4, "runs": 0}) == "4 kolmosta"
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    seated_client(table, 0).post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    desk = Client()
    desk.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    history = reverse("table_history", args=[event.club.slug, event.pk, table.pk])
    page = desk.get(history, headers={"accept-language": "fi"}).content.decode()
    assert ">Muutos<" in page and ">Vaihda<" not in page.split("<main", 1)[1]


def test_a_private_events_old_link_names_no_page_a_phone_cannot_open():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    event.published_at = None
    event.save()
    key = table.entry_key
    table_key_revoke(table=table)
    for headers in ({}, {"hx-request": "true"}):
        gone = Client().get(reverse("table_live", args=[key]), headers=headers)
        assert gone.status_code == 404
        assert "This link no longer works" in gone.content.decode()
        assert event.get_absolute_url() not in gone.content.decode()
