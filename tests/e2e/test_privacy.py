"""Privacy in a browser: the privacy page from any page's footer; a director erases a player
and every standings page reads as before but for the name; a member's My data page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.browser import director_of, shoot_widths, sign_in
from tests.support.factories import ClubFactory, UserFactory
from tests.support.standings import finished_championship, series_in_round_two
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

LONG_NAME = "Zsófia Ääpälä-Kovács Östermann"  # 30 characters, accented


def test_the_privacy_page_opens_from_the_footer(live_server, phone):
    phone.goto(f"{live_server.url}/")
    phone.locator("footer").get_by_role("link", name="Privacy").click()
    phone.wait_for_url(f"**{reverse('privacy')}")
    assert phone.locator("h1").inner_text() == "Privacy"
    assert "90 days" in phone.locator("main").inner_text()
    shoot_widths(phone, "privacy-page")
    phone.goto(f"{live_server.url}/no-such-page/")
    assert phone.locator("footer").get_by_role("link", name="Privacy").count() == 1


def _standings_rows(page, url: str) -> list[str]:
    page.goto(url)
    rows = page.locator("table.ranking-table tbody tr").all_inner_texts()
    return sorted(re.sub(r"\s+", " ", row).strip() for row in rows)


def _standings_pages(event) -> list[str]:
    pages = [event.get_absolute_url()]
    pages += [
        reverse("stage_standings", args=[event.club.slug, event.pk, stage.number])
        for stage in event.stages.order_by("number")
    ]
    return pages


@pytest.mark.parametrize("make", [finished_championship, series_in_round_two])
def test_a_director_erases_a_player_and_the_standings_read_the_same_but_the_name(
    live_server, phone, make
):
    event = make()
    director_of(event.club)
    player = Player.objects.filter(seats__table__stage__event=event).distinct().first()
    Player.objects.filter(pk=player.pk).update(name=LONG_NAME)
    for stage in event.stages.exclude(outcome={}):
        stage.outcome = _renamed(stage.outcome, player.pk, LONG_NAME)
        stage.save(update_fields=["outcome"])
    urls = [f"{live_server.url}{path}" for path in _standings_pages(event)]
    before = {url: _standings_rows(phone, url) for url in urls}
    assert any(LONG_NAME in row for rows in before.values() for row in rows)

    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}{reverse('player_record', args=[event.club.slug, player.pk])}")
    phone.get_by_role("link", name="Privacy: hide, download, erase").click()
    phone.wait_for_url("**/privacy/")
    shoot_widths(phone, f"player-privacy-{make.__name__}")
    phone.get_by_role("button", name="Erase the player").click()
    phone.get_by_role("button", name="Erase", exact=True).wait_for()
    shoot_widths(phone, f"player-erase-confirm-{make.__name__}")
    phone.get_by_role("button", name="Erase", exact=True).click()
    phone.get_by_text("Erased: the player is now Former player 1.").wait_for()

    for url in urls:
        after = _standings_rows(phone, url)
        expected = sorted(row.replace(LONG_NAME, "Former player 1") for row in before[url])
        assert after == expected, url
    assert LONG_NAME not in phone.content()


def _renamed(value, player_id: int, name: str):
    if isinstance(value, dict):
        renamed = {key: _renamed(item, player_id, name) for key, item in value.items()}
        if "name" in renamed and renamed.get("player") == player_id:
            renamed["name"] = name
        return renamed
    if isinstance(value, list):
        return [_renamed(item, player_id, name) for item in value]
    return value


def test_a_member_hides_their_record_on_my_data(live_server, phone):
    club = ClubFactory(name="Ääninen Rommikerho")
    person = UserFactory(username="aino")
    person.set_password("aino")
    person.save()
    Player.objects.create(club=club, name=LONG_NAME, user=person)
    sign_in(phone, live_server.url, "aino", "aino")
    phone.goto(f"{live_server.url}{reverse('account')}")
    phone.get_by_role("link", name="My data").click()
    phone.wait_for_url(f"**{reverse('my_data')}")
    shoot_widths(phone, "my-data")
    phone.get_by_role("button", name="Hide the record from the public").click()
    phone.get_by_text("hidden from the public", exact=True).wait_for()
    assert Player.objects.get(user=person).record_hidden
    shoot_widths(phone, "my-data-hidden")
