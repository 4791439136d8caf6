"""The director's choice of the ranking while the tables are at different deals: by points per
deal played (AVERAGE) or by points after the same number of deals (SAME_DEALS), the plain
total beside it either way; and the form on the manage page that chooses it."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from rules import RuleViolation
from scoring.services import Actor, deal_record
from standings.selectors import event_ranking, same_deals_count, tables_at_different_deals
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory
from tournaments.event_settings import event_ranking_mode_set
from tournaments.models import Event, RankingMode, Role

pytestmark = pytest.mark.django_db

SEAT0 = Actor(device="phone-0", seat=0)
THIRTY = "QS KH QC"  # a Rutupeli hand worth 30


def play(table, number, hands, out=0):
    entry = {"out": out, "players": [{"cards": hand or None, "buys": 0} for hand in hands]}
    return deal_record(
        table=table, number=number, entry=entry, by=SEAT0, expected_version=0,
        request_id=new_request_id(),
    )  # fmt: skip


def with_mode(event, mode):
    event_ranking_mode_set(event=event, mode=mode)
    return Event.objects.select_related("club").get(pk=event.pk)


def row_of(ranking, table, seat_name):
    return next(row for row in ranking if row.table == table and row.player == seat_name)


def names(table):
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def ranking_section(html):
    return html.split("<h2>Ranking</h2>", 1)[1].split("</table>", 1)[0]


def body_rows(html):
    body = ranking_section(html).split("<tbody", 1)[1]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td.*?</td>", row, re.S)]
        for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)
    ]


@pytest.fixture
def one_deal_against_three():
    """The issue's evening: table 1 one deal in, its first seat out with 0; table 2 three
    deals in, its first seat out twice (0, 0) and then caught with 30."""
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    play(one, 1, ["", "KD 2D", "2D", "3D"])
    play(two, 1, ["", THIRTY, "2D", "3D"])
    play(two, 2, ["", THIRTY, "2D", "3D"])
    play(two, 3, [THIRTY, "", "2D", "3D"], out=1)
    return event, one, two


def test_by_average_the_player_one_deal_in_with_0_ranks_above_thirty_in_three(
    one_deal_against_three,
):
    event, one, two = one_deal_against_three
    ranking = event_ranking(event=with_mode(event, RankingMode.AVERAGE))
    zero, thirty = row_of(ranking, 1, names(one)[0]), row_of(ranking, 2, names(two)[0])
    assert (zero.total, zero.deals, thirty.total, thirty.deals) == (0, 1, 30, 3)
    assert (zero.average, thirty.average) == (0, 10)
    assert zero.place == 1 and not zero.shared
    assert thirty.place > zero.place
    assert all(row.by_average and row.after_deals is None for row in ranking)


def test_after_the_same_deals_both_have_0_after_one_deal_and_share_first_place(
    one_deal_against_three, client
):
    event, one, two = one_deal_against_three
    event = with_mode(event, RankingMode.SAME_DEALS)
    ranking = event_ranking(event=event)
    zero, thirty = row_of(ranking, 1, names(one)[0]), row_of(ranking, 2, names(two)[0])
    assert {row.after_deals for row in ranking} == {1}
    assert not any(row.by_average for row in ranking)
    # After one deal both had 0: they share first place; the plain total stays on the row.
    assert (zero.after_total, thirty.after_total) == (0, 0)
    assert (zero.place, thirty.place) == (1, 1) and zero.shared and thirty.shared
    assert thirty.total == 30
    # Table 2's others after its first deal: 30 (seat 2), 5 and 5 (2D, 3D) — not their
    # totals after three.
    assert [row.after_total for row in ranking] == sorted(row.after_total for row in ranking)

    html = client.get(event.get_absolute_url()).content.decode()
    section = ranking_section(html)
    caption = re.search(r"<caption[^>]*><span[^>]*>(.*?)</span></caption>", section, re.S).group(1)
    assert caption == "Ranked by points after 1 deal, the fewest any table has played."
    header = section.split("</thead>", 1)[0]
    assert "After 1 deal" in header and "Total" in header and "Per deal" not in header
    rows = body_rows(html)
    assert [row[0] for row in rows[:2]] == ["=1", "=1"]
    thirty_cells = next(row for row in rows if row[1] == names(two)[0])
    assert thirty_cells[2].rstrip("*") == "30" and thirty_cells[3] == "0"


def test_the_two_modes_order_the_same_players_differently(client):
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    play(one, 1, ["", "KD 2D", "2D", "3D"])  # table 1, seat 2: 15 in one deal
    play(two, 1, [THIRTY, "", "2D", "3D"], out=1)  # table 2, seat 1: 30 in its first deal,
    play(two, 2, ["", THIRTY, "2D", "3D"])  # then out twice: 30 in three, 10 a deal
    play(two, 3, ["", THIRTY, "2D", "3D"])
    fifteen, thirty = (1, names(one)[1]), (2, names(two)[0])

    average = event_ranking(event=with_mode(event, RankingMode.AVERAGE))
    assert row_of(average, *thirty).place < row_of(average, *fifteen).place  # 10 < 15 a deal

    same = event_ranking(event=with_mode(event, RankingMode.SAME_DEALS))
    assert (row_of(same, *fifteen).after_total, row_of(same, *thirty).after_total) == (15, 30)
    assert row_of(same, *fifteen).place < row_of(same, *thirty).place  # 15 < 30 after one

    html = client.get(event.get_absolute_url()).content.decode()
    assert "After 1 deal" in ranking_section(html)


def test_players_of_one_table_are_ordered_by_its_tie_order_after_the_same_deals():
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    play(one, 1, ["", "KD 2D", "2D", "3D"])
    play(two, 1, ["", "2D", "2D", THIRTY])  # seats 2 and 3 equal after one deal…
    play(two, 2, ["", THIRTY, "2D", "3D"])  # …and seat 2 far behind after two
    ranking = event_ranking(event=with_mode(event, RankingMode.SAME_DEALS))
    second, third = row_of(ranking, 2, names(two)[1]), row_of(ranking, 2, names(two)[2])
    assert second.after_total == third.after_total == 5
    # Now seat 3 (10) is ahead of seat 2 (35) at their table, but the ranking after one deal
    # reads the table as it stood then: level on everything (5 each, the same last deal, no
    # deal won), so they share their place with table 1's two players of 5 (2D, 3D) too.
    assert (second.place, third.place) == (3, 3)
    assert [(row.place, row.table) for row in ranking if row.after_total == 5] == [
        (3, 1), (3, 1), (3, 2), (3, 2)
    ]  # fmt: skip
    assert all(row.shared for row in ranking if row.after_total == 5)


def test_a_table_yet_to_play_does_not_hold_everyone_at_zero_deals():
    event, (one, two, three) = seated_event(variant_id="rutupeli", players=12)
    play(one, 1, ["", "KD 2D", "2D", "3D"])
    play(one, 2, ["", "KD 2D", "2D", "3D"])
    play(two, 1, ["", "KD", "2D", "3D"])
    ranking = event_ranking(event=with_mode(event, RankingMode.SAME_DEALS))
    assert {row.after_deals for row in ranking} == {1}
    waiting = [row for row in ranking if row.table == three.number]
    assert len(waiting) == 4 and all(row.after_total is None for row in waiting)
    # The table yet to play comes after everyone who has.
    assert [row.table for row in ranking[-4:]] == [three.number] * 4


@pytest.mark.parametrize("mode", RankingMode.values)
def test_tables_at_the_same_deal_rank_by_plain_totals_in_either_mode(mode, client):
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    play(one, 1, ["", "KD 2D", "2D", "3D"])
    play(two, 1, ["", THIRTY, "2D", "3D"])
    event = with_mode(event, mode)
    ranking = event_ranking(event=event)
    assert not any(row.by_average or row.after_deals is not None for row in ranking)
    assert [row.total for row in ranking] == sorted(row.total for row in ranking)
    section = ranking_section(client.get(event.get_absolute_url()).content.decode())
    assert ">Ranked by total points.</span></caption>" in section
    assert "Per deal" not in section and "After " not in section


def test_the_average_caption_says_so(one_deal_against_three, client):
    event, _one, _two = one_deal_against_three
    section = ranking_section(client.get(event.get_absolute_url()).content.decode())
    assert (
        ">Ranked by points per deal while the tables are at different deals.</span></caption>"
        in section
    )
    assert "Per deal" in section.split("</thead>", 1)[0]


def sheet(played, *, finished=False, problem=None):
    return SimpleNamespace(
        played=played, standing=SimpleNamespace(finished=finished), problem=problem
    )


@pytest.mark.parametrize(
    "sheets, apart",
    [
        ([sheet(3), sheet(3)], False),
        ([sheet(1), sheet(3)], True),
        ([sheet(8, finished=True), sheet(5)], True),
        # Every table finished, at whatever deal (a Gin game ends when it ends): plain totals.
        ([sheet(8, finished=True), sheet(5, finished=True)], False),
    ],
)
def test_the_tables_are_apart_while_some_play_on_at_another_deal(sheets, apart):
    assert tables_at_different_deals(sheets) is apart


@pytest.mark.parametrize(
    "sheets, count",
    [
        ([sheet(2), sheet(5)], 2),
        ([sheet(0), sheet(4), sheet(6)], 4),  # a table yet to play does not count
        ([sheet(1, problem="deal 2"), sheet(4), sheet(6)], 4),  # nor one the director fixes
        ([sheet(3, problem="deal 4"), sheet(5, problem="deal 1")], 3),  # unless all are
        ([sheet(0), sheet(0)], 0),
    ],
)
def test_the_same_deals_are_the_fewest_any_playing_table_has_played(sheets, count):
    assert same_deals_count(sheets) == count


def _apart_page_queries(players, client, django_assert_max_num_queries):
    event, tables = seated_event(variant_id="rutupeli", players=players)
    # Table 1 one deal in, table 2 two, every other three.
    for number, table in enumerate(tables, start=1):
        for deal in range(1, min(number, 3) + 1):
            play(table, deal, ["", "KD 2D", "2D", "3D"])
    event = with_mode(event, RankingMode.SAME_DEALS)
    with django_assert_max_num_queries(12) as captured:
        response = client.get(event.get_absolute_url())
    html = response.content.decode()
    assert "After 1 deal" in html and f"Player {players:03d}" in html
    return len(captured.captured_queries)


def test_the_same_deals_ranking_page_takes_the_same_queries_as_the_event_grows(
    client, django_assert_max_num_queries
):
    few = _apart_page_queries(8, client, django_assert_max_num_queries)
    many = _apart_page_queries(60, client, django_assert_max_num_queries)
    assert few == many


# -- the director's choice ----------------------------------------------------------------------


def mode_url(event):
    return reverse("event_ranking_mode", args=[event.club.slug, event.pk])


def manage_url(event):
    return reverse("event_manage", args=[event.club.slug, event.pk])


def test_a_director_chooses_the_ranking_and_is_sent_back_with_a_message(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    response = client.post(mode_url(event), {"ranking_mode": "same_deals"}, follow=True)
    assert response.redirect_chain == [(manage_url(event), 302)]
    event.refresh_from_db()
    assert event.ranking_mode == RankingMode.SAME_DEALS
    assert (
        "While the tables are at different deals, the ranking now goes by points after the "
        "same number of deals." in response.content.decode()
    )


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCORER])
def test_a_member_or_scorer_cannot_choose_the_ranking(role, client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=role).user)
    assert client.post(mode_url(event), {"ranking_mode": "same_deals"}).status_code == 403
    event.refresh_from_db()
    assert event.ranking_mode == RankingMode.AVERAGE


def test_a_director_of_another_club_or_nobody_cannot_choose_it(client, outsider):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    anonymous = client.post(mode_url(event), {"ranking_mode": "same_deals"})
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    client.force_login(outsider)
    assert client.post(mode_url(event), {"ranking_mode": "same_deals"}).status_code == 403
    event.refresh_from_db()
    assert event.ranking_mode == RankingMode.AVERAGE


def test_another_clubs_event_under_this_clubs_address_is_not_found(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    other, _ = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    url = reverse("event_ranking_mode", args=[event.club.slug, other.pk])
    assert client.post(url, {"ranking_mode": "same_deals"}).status_code == 404


@pytest.mark.parametrize("posted", [{}, {"ranking_mode": "by_luck"}, {"ranking_mode": ""}])
def test_a_mode_the_form_does_not_offer_changes_nothing_and_says_so(posted, client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=Role.OWNER).user)
    response = client.post(mode_url(event), posted, follow=True)
    assert response.redirect_chain == [(manage_url(event), 302)]
    assert "Pick one of the ways to rank the event." in response.content.decode()
    event.refresh_from_db()
    assert event.ranking_mode == RankingMode.AVERAGE


def test_the_choice_is_posted_only(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    assert client.get(mode_url(event)).status_code == 405


def test_the_service_refuses_a_mode_that_is_not_one():
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    with pytest.raises(RuleViolation) as refused:
        event_ranking_mode_set(event=event, mode="by_luck")
    assert refused.value.code == "ranking_mode" and refused.value.field == "ranking_mode"
    event.refresh_from_db()
    assert event.ranking_mode == RankingMode.AVERAGE


def test_the_include_shows_the_events_choice_and_posts_it():
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    event = with_mode(event, RankingMode.SAME_DEALS)
    html = render_to_string(
        "standings/_ranking_mode.html",
        {"event": event, "club": event.club, "csrf_token": "token-1234"},
    )
    form = re.search(r'<form method="post" action="([^"]+)"', html)
    assert form and form.group(1) == mode_url(event)
    assert 'name="csrfmiddlewaretoken" value="token-1234"' in html
    assert '<option value="same_deals" selected>' in html
    assert '<option value="average">by points per deal played</option>' in html
    assert '<label for="ranking-ranking_mode">Ranking mid-evening</label>' in html
    assert "the plain total is always shown beside it" in html
