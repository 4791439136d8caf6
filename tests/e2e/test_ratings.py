"""On a phone and a laptop: the club's rating list (filtered, sorted, paged) and a player's
rating chart on their record page, each checked with axe and photographed at both widths."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.support.browser import shoot_widths
from tests.support.ratings_rows import GAME, rated_club, rated_event, rating_for
from tournaments.models import Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]


def row_names(page) -> list[str]:
    return page.locator("table.table tbody tr td:nth-child(2) a").all_inner_texts()


def test_the_rating_list_filters_sorts_and_pages(live_server, phone):
    club, _players = rated_club(55)
    long_ago = timezone.localdate() - datetime.timedelta(days=500)
    rating_for(Player.objects.create(club=club, name="Long gone"), mu=60, last_played=long_ago)
    rating_for(Player.objects.create(club=club, name="Newcomer"), mu=35, sigma=7, games=3)

    phone.goto(f"{live_server.url}{club.get_absolute_url()}")
    phone.get_by_role("link", name="Ratings", exact=True).click()
    phone.wait_for_url(f"**{reverse('club_rating_list', args=[club.slug, GAME])}")
    assert phone.locator("h1").inner_text() == "Ratings in Rutupeli"
    names = row_names(phone)
    assert len(names) == 50 and names[:2] == ["Long gone", "Rated 001"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_text("What the rating means").click()
    shoot_widths(phone, "ratings-list")

    # Active in the last 12 months, at least 10 games: the two set apart are gone.
    phone.get_by_label("Active").select_option("1")
    phone.get_by_label("At least this many games").fill("10")
    phone.get_by_role("button", name="Show").click()
    phone.wait_for_url("**active=1**")
    names = row_names(phone)
    assert "Long gone" not in names and "Newcomer" not in names
    assert names[0] == "Rated 001"

    # Sorted by name, backwards; the filters stay.
    phone.locator("thead").get_by_role("link", name="Player").click()
    phone.wait_for_url("**sort=name**")
    phone.locator("thead").get_by_role("link", name="Player").click()
    phone.wait_for_url("**sort=-name**")
    assert row_names(phone)[0] == "Rated 055"

    # The second page holds the five left over.
    phone.get_by_role("navigation", name="Pages of Rutupeli").get_by_role("link", name="2").click()
    phone.wait_for_url("**page=2**")
    assert row_names(phone) == [f"Rated {n:03d}" for n in range(5, 0, -1)]
    shoot_widths(phone, "ratings-list-page-2")


def test_the_record_page_draws_the_rating_history(live_server, phone):
    event, seated = rated_event(players=4)
    player = seated[0]
    rating_for(player, mu=29.5, sigma=6.0, games=2)
    phone.goto(f"{live_server.url}{reverse('player_record', args=[event.club.slug, player.pk])}")
    section = phone.locator("section.rating-history")
    assert section.locator('[data-stat="rating"]').inner_text() == "11.5"
    chart = section.locator("svg[role=img]")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    section.get_by_text("Every rated game").click()
    assert section.locator(".rating-steps tbody tr").count() == 2
    shoot_widths(phone, "ratings-record-chart")

    # The event's results show the change over the event.
    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    changes = phone.locator("section.rating-changes")
    assert changes.locator(f'tr[data-player="{player.pk}"] td.rating-delta').inner_text() == "+10.5"
    changes.scroll_into_view_if_needed()
    shoot_widths(phone, "ratings-event-changes")
