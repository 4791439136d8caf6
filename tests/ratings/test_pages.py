"""The rating list (filters, paging, sorting, downloads, privacy, 304), the rating changes on
an event's results, and a player's rating history on the record page."""

from __future__ import annotations

import csv
import datetime
import io
import re

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.display import history_chart, shown
from ratings.models import RatingRun
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.ratings_rows import GAME, rated_club, rated_event, rating_for, run_for
from tournaments.models import Player, Role

pytestmark = pytest.mark.django_db


def list_url(club, game=GAME, **query):
    url = reverse("club_rating_list", args=[club.slug, game])
    if query:
        url += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return url


def names(response) -> list[str]:
    body = response.content.decode()
    table = body[body.index("<tbody") : body.index("</tbody>")]
    return re.findall(r'/players/\d+/">([^<]+)</a>', table)


def director_of(club):
    user = UserFactory()
    MembershipFactory(club=club, user=user, role=Role.DIRECTOR)
    return user


def test_the_list_ranks_by_rating_with_one_decimal_and_marks_provisional(client):
    club, _players = rated_club(3)
    rating_for(Player.objects.create(club=club, name="Newcomer"), mu=50.0, sigma=8.0, games=3)
    response = client.get(list_url(club))
    assert response.status_code == 200
    assert names(response) == ["Rated 001", "Rated 002", "Rated 003", "Newcomer"]
    body = response.content.decode()
    assert ">34.0<" in body  # 40 − 3·2, one decimal
    assert ">26.0<" in body  # the newcomer: 50 − 3·8
    row = body[body.index("Newcomer") : body.index("</tr>", body.index("Newcomer"))]
    assert "provisional" in row
    assert "provisional" not in body[body.index("Rated 001") : body.index("Rated 002")]
    assert "What the rating means" in body


def test_filters_narrow_the_list(client):
    club, _players = rated_club(3)
    long_ago = timezone.localdate() - datetime.timedelta(days=400)
    rating_for(Player.objects.create(club=club, name="Gone"), mu=45, games=30, last_played=long_ago)
    rating_for(Player.objects.create(club=club, name="Fresh"), mu=45, games=2)
    assert "Gone" in names(client.get(list_url(club)))
    assert "Gone" not in names(client.get(list_url(club, active=1)))
    assert names(client.get(list_url(club, min_games=10))) == [
        "Gone", "Rated 001", "Rated 002", "Rated 003",
    ]  # fmt: skip
    assert names(client.get(list_url(club, min_games=10, active=1))) == [
        "Rated 001", "Rated 002", "Rated 003",
    ]  # fmt: skip
    # A value the list does not offer filters nothing.
    assert len(names(client.get(list_url(club, active="maybe")))) == 5


def test_sorting_and_paging(client):
    club, _players = rated_club(60)
    first = names(client.get(list_url(club)))
    assert len(first) == 50 and first[0] == "Rated 001"
    second = client.get(list_url(club, page=2))
    assert names(second) == [f"Rated {n:03d}" for n in range(51, 61)]
    by_name_desc = names(client.get(list_url(club, sort="-name")))
    assert by_name_desc[0] == "Rated 060"
    # Sorted by name, each keeps its rank by rating.
    body = client.get(list_url(club, sort="-name")).content.decode()
    assert re.search(r'<td class="num">60</td>\s*<td[^>]*><a[^>]*>Rated 060<', body)
    assert client.get(list_url(club, page=9)).status_code == 404


def test_csv_and_xlsx_hold_every_row_as_filtered(client):
    club, _players = rated_club(60)
    rating_for(Player.objects.create(club=club, name="Fresh"), mu=-30, sigma=3.0, games=2)
    url = reverse("club_rating_export", args=[club.slug, GAME, "csv"])
    response = client.get(url)
    assert response["Content-Disposition"].endswith('.csv"')
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["#", "Player", "Rating", "Games", "Last played", "Provisional"]
    assert len(rows) == 62
    assert rows[1][:4] == ["1", "Rated 001", "34.0", "12"]
    assert rows[-1][1:4] == ["Fresh", "-39.0", "2"] and rows[-1][5] == "*"
    filtered = client.get(url + "?min_games=5")
    assert len(list(csv.reader(io.StringIO(filtered.content.decode("utf-8-sig"))))) == 61
    xlsx = client.get(reverse("club_rating_export", args=[club.slug, GAME, "xlsx"]))
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet.max_row == 62
    assert sheet.cell(row=2, column=3).value == 34.0
    assert isinstance(sheet.cell(row=2, column=5).value, datetime.datetime)
    assert (
        client.get(reverse("club_rating_export", args=[club.slug, GAME, "pdf"])).status_code == 404
    )


def test_a_hidden_record_is_off_the_public_list_but_on_the_directors(client):
    club, players = rated_club(3)
    Player.objects.filter(pk=players[1].pk).update(record_hidden=True)
    guest = Player.objects.create(club=club, name="Visiting guest", guest=True)
    rating_for(guest, mu=41)
    assert names(client.get(list_url(club))) == ["Rated 001", "Rated 003"]
    client.force_login(director_of(club))
    response = client.get(list_url(club))
    assert names(response) == ["Visiting guest", "Rated 001", "Rated 002", "Rated 003"]
    assert "hidden from the public" in response.content.decode()
    csv_text = client.get(reverse("club_rating_export", args=[club.slug, GAME, "csv"])).content
    assert "Rated 002" in csv_text.decode("utf-8-sig")


def test_hidden_players_are_out_of_the_public_download(client):
    club, players = rated_club(2)
    Player.objects.filter(pk=players[0].pk).update(record_hidden=True)
    csv_text = client.get(reverse("club_rating_export", args=[club.slug, GAME, "csv"])).content
    assert "Rated 001" not in csv_text.decode("utf-8-sig")


def test_304_while_nothing_changed_and_200_after_a_computation_or_a_hidden_record(client):
    club, players = rated_club(3)
    client.get(list_url(club))  # the first visit sets the CSRF cookie the page's forms use
    tag = client.get(list_url(club))["ETag"]
    assert tag.startswith('W/"')
    assert client.get(list_url(club), HTTP_IF_NONE_MATCH=tag).status_code == 304
    # Another query (page, order, filter) is another page.
    assert client.get(list_url(club, active=1), HTTP_IF_NONE_MATCH=tag).status_code == 200
    RatingRun.objects.filter(club=club).update(version=2)
    again = client.get(list_url(club), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200
    tag = again["ETag"]
    Player.objects.filter(pk=players[0].pk).update(record_hidden=True)
    hidden = client.get(list_url(club), HTTP_IF_NONE_MATCH=tag)
    assert hidden.status_code == 200 and "Rated 001" not in names(hidden)


def test_304_is_the_readers_own(client):
    club, _players = rated_club(2)
    client.get(list_url(club))
    tag = client.get(list_url(club))["ETag"]
    assert client.get(list_url(club), HTTP_IF_NONE_MATCH=tag).status_code == 304
    client.force_login(director_of(club))
    assert client.get(list_url(club), HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_being_updated_and_last_computed_are_said(client):
    club, _players = rated_club(2)
    run_for(club, games=2, updating_since=timezone.now())
    body = client.get(list_url(club)).content.decode()
    assert "being rated" in body and "Last computed" in body


def test_empty_state_says_what_makes_ratings(client):
    club = ClubFactory()
    response = client.get(reverse("club_ratings", args=[club.slug]))
    assert "No rated games yet" in response.content.decode()
    assert "stage is closed" in response.content.decode()
    body = client.get(list_url(club)).content.decode()
    assert "No rated games yet" in body
    assert client.get(list_url(club, game="no-such-game")).status_code == 404


def test_the_index_leads_to_the_games_list(client):
    club, _players = rated_club(2)
    response = client.get(reverse("club_ratings", args=[club.slug]))
    assert response.status_code == 302 and response["Location"] == list_url(club)
    run_for(club, game="gin_romi")
    body = client.get(reverse("club_ratings", args=[club.slug])).content.decode()
    assert list_url(club) in body and list_url(club, game="gin_romi") in body


def test_the_club_page_links_to_the_ratings(client):
    club, _players = rated_club(1)
    body = client.get(club.get_absolute_url()).content.decode()
    assert reverse("club_ratings", args=[club.slug]) in body


@pytest.mark.parametrize("count", [10, 100])
def test_the_list_takes_a_fixed_number_of_queries(client, django_assert_max_num_queries, count):
    club, _players = rated_club(count)
    with django_assert_max_num_queries(7):
        response = client.get(list_url(club, per_page=100))
    assert len(names(response)) == count


def test_an_events_results_show_each_players_rating_change(client):
    event, seated = rated_event(players=4)
    body = client.get(reverse("event_public", args=[event.club.slug, event.pk])).content.decode()
    assert "Rating changes" in body
    section = body[body.index('id="rating-changes"') :]
    best = seated[0]
    # Before the first step: 25 − 3·8 = 1.0; after the last: mu 25+3+3−1.5 = 29.5, σ 6 → 11.5.
    row = re.search(rf'data-player="{best.pk}">(.*?)</tr>', section, re.S).group(1)
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
    assert cells == [best.name, "1.0", "11.5", "+10.5"]
    last = seated[-1]
    row = re.search(rf'data-player="{last.pk}">(.*?)</tr>', section, re.S).group(1)
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
    # 25 − 24 = 1.0 before; after: mu 25 − 1.5 = 23.5, σ 6 → 5.5.
    assert cells == [last.name, "1.0", "5.5", "+4.5"]


def test_an_event_without_rated_games_has_no_rating_section(client):
    event, _tables = seated_event(variant_id=GAME, players=4)
    body = client.get(reverse("event_public", args=[event.club.slug, event.pk])).content.decode()
    assert "Rating changes" not in body


def test_the_record_page_shows_the_rating_and_its_chart(client, django_assert_max_num_queries):
    event, seated = rated_event(players=4)
    player = seated[0]
    rating_for(player, mu=29.5, sigma=6.0, games=2)
    url = reverse("player_record", args=[event.club.slug, player.pk])
    response = client.get(url)
    body = response.content.decode()
    assert 'data-stat="rating">11.5<' in body
    assert "provisional" in body
    assert "<svg" in body and 'role="img"' in body and "<polyline" in body
    steps = body[body.index('class="rating-steps"') : body.index("</details>")]
    assert steps.count("<tr>") == 3  # the header and two games
    assert "cdn" not in body.lower()


def test_the_record_page_reads_ratings_in_fixed_queries(client, django_assert_max_num_queries):
    counts = []
    for players in (4, 8):
        event, seated = rated_event(players=players)
        player = seated[0]
        rating_for(player, mu=29.5, sigma=6.0, games=2)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            client.get(reverse("player_record", args=[event.club.slug, player.pk]))
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_chart_draws_the_band_around_the_line():
    from ratings.display import ChartPoint

    assert history_chart([ChartPoint(1, 0.0, 25.0, 8.0)]) is None
    chart = history_chart([ChartPoint(1, 1.0, 25.0, 8.0), ChartPoint(2, 11.5, 29.5, 6.0)])
    assert chart is not None
    assert len(chart.line.split()) == 2 and len(chart.band.split()) == 4
    # The band's top is above (smaller y than) the line everywhere.
    line_y = [float(point.split(",")[1]) for point in chart.line.split()]
    band_y = [float(point.split(",")[1]) for point in chart.band.split()]
    assert band_y[0] < line_y[0] and band_y[1] < line_y[1]
    assert shown(25.0, 8.0) == 1.0


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fi", ["Mitä rankingluku tarkoittaa", "μ − 3σ", "Rankingluvut: Rutupeli", "alustava"]),
        ("hu", ["Mit jelent az értékszám", "μ − 3σ", "Értékszámok: Rutupeli", "ideiglenes"]),
    ],
)
def test_the_list_explains_the_number_in_each_language(client, settings, language, words):
    club, _players = rated_club(2)
    rating_for(Player.objects.create(club=club, name="Newcomer"), mu=50.0, sigma=8.0, games=3)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    body = client.get(list_url(club)).content.decode()
    for word in words:
        assert word in body
