"""Privacy: the one "is this record public?" rule on every page and feed, the privacy page,
My data and the director's page, the JSON download, and erasure (every standings the
same but the name, no old name left anywhere in the database, the account gone)."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import models
from django.urls import reverse

from demo.loader import FORMAT_PLAYERS, SERIES, demo_load
from leagues.services import league_recompute, season_league
from privacy.selectors import person_data, player_data
from privacy.services import person_erase, player_erase
from rules import RuleViolation
from standings.standings import event_standings, row_figures
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.leagues import night, players_of, season_of
from tests.support.standings import (
    finished_championship,
    play_night,
    series_in_round_two,
    swiss_two_rounds,
)
from tournaments.models import Club, Erasure, Player, Role, TieBreak
from tournaments.privacy import (
    player_record_hide,
    public_records_filter,
    record_public,
    record_public_for,
)
from tournaments.selectors import club_public_players

pytestmark = pytest.mark.django_db


def record_url(player: Player) -> str:
    return reverse("player_record", args=[player.club.slug, player.pk])


# -- the one rule -------------------------------------------------------------------------------


@pytest.mark.parametrize("guest_pages", [False, True])
def test_the_filter_lets_through_exactly_what_the_rule_does(guest_pages):
    club = ClubFactory(publish_guest_pages=guest_pages)
    for guest in (False, True):
        for hidden in (False, True):
            Player.objects.create(
                club=club, name=f"{guest}{hidden}", guest=guest, record_hidden=hidden
            )
    filtered = set(club.players.filter(public_records_filter(club=club)))
    assert filtered == {p for p in club.players.all() if record_public(player=p)}
    assert not record_public_for(club=club, guest=False, hidden=True)
    assert record_public_for(club=club, guest=True, hidden=False) is guest_pages


def test_a_hidden_record_is_not_found_by_the_public_but_seen_by_the_player_and_directors(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    club = event.club
    person = UserFactory()
    player = Player.objects.filter(club=club).first()
    Player.objects.filter(pk=player.pk).update(user=person)
    player.refresh_from_db()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    assert client.get(record_url(player)).status_code == 200
    player_record_hide(player=player, hidden=True)
    assert client.get(record_url(player)).status_code == 404
    assert client.get(record_url(player) + "record.csv").status_code == 404
    client.force_login(person)
    assert client.get(record_url(player)).status_code == 200
    client.force_login(director)
    page = client.get(record_url(player)).content.decode()
    assert reverse("player_privacy", args=[club.slug, player.pk]) in page


def test_standings_and_club_lists_keep_the_name_without_the_link(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    player, other = list(Player.objects.filter(club=event.club).order_by("pk"))[:2]
    player_record_hide(player=player, hidden=True)
    live = client.get(reverse("event_live", args=[event.club.slug, event.pk])).content.decode()
    page = client.get(event.get_absolute_url()).content.decode()
    for body in (live, page):
        assert player.name in body
        assert record_url(player) not in body
        assert record_url(other) in body
    assert player not in club_public_players(club=event.club)
    standings = event_standings(event=event)
    assert player.pk not in standings.record_links and other.pk in standings.record_links


def test_the_series_round_table_does_not_link_a_hidden_record(client):
    event = series_in_round_two()
    player = Player.objects.filter(seats__table__stage__event=event).first()
    player_record_hide(player=player, hidden=True)
    body = client.get(event.get_absolute_url()).content.decode()
    assert player.name in body and record_url(player) not in body


def test_the_league_table_and_its_feed_do_not_link_a_hidden_record(client):
    club = ClubFactory()
    season = season_of(club)
    a, b, c = players_of(club, "Aino", "Bertta", "Cecilia")
    night(season, [a, b, c], day=1)
    player_record_hide(player=b, hidden=True)
    page = client.get(reverse("season_league", args=[club.slug, season.pk])).content.decode()
    assert "Bertta" in page and record_url(b) not in page and record_url(a) in page
    feed = client.get(reverse("season_league_feed", args=[club.slug, season.pk])).json()
    urls = {row["name"]: row["player_url"] for row in feed["rows"]}
    assert urls["Bertta"] is None and urls["Aino"].endswith(record_url(a))


# -- pages ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "fi", "hu"])
def test_the_privacy_page_is_in_every_language_and_every_footer_links_it(client, language):
    client.cookies["django_language"] = language
    response = client.get(reverse("privacy"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    body = response.content.decode()
    assert f'lang="{language}"' in body
    assert "90" in body and "30" in body  # the retention the housekeeping enforces
    home = client.get(reverse("home")).content.decode()
    assert reverse("privacy") in home
    assert reverse("privacy") in client.get("/no-such-page/").content.decode()


def test_my_data_hides_downloads_and_is_only_mine(client):
    club = ClubFactory()
    person = UserFactory(email="aino@example.com")
    mine = Player.objects.create(club=club, name="Aino Ääninen", user=person)
    other = Player.objects.create(club=club, name="Bertta")
    assert client.get(reverse("my_data")).status_code == 302  # to sign in
    client.force_login(person)
    assert "Aino Ääninen" in client.get(reverse("my_data")).content.decode()
    client.post(reverse("my_player_hide", args=[mine.pk]), {"hidden": "on"})
    mine.refresh_from_db()
    assert mine.record_hidden
    assert (
        client.post(reverse("my_player_hide", args=[other.pk]), {"hidden": "on"}).status_code == 404
    )
    response = client.get(reverse("my_data_download"))
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["account"]["email"] == "aino@example.com"
    assert [p["name"] for p in data["players"]] == ["Aino Ääninen"]


def test_the_directors_page_is_for_directors_and_decides_only_for_players_without_account(
    client, member
):
    club = Club.objects.get(memberships__user=member)
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    guest = Player.objects.create(club=club, name="Vieras", guest=True)
    account = Player.objects.create(club=club, name="Tili", user=UserFactory())
    url = reverse("player_privacy", args=[club.slug, guest.pk])
    client.force_login(member)
    assert client.get(url).status_code == 403
    client.force_login(director)
    assert client.get(url).status_code == 200
    client.post(reverse("player_privacy_hide", args=[club.slug, guest.pk]), {"hidden": "on"})
    client.post(reverse("player_privacy_hide", args=[club.slug, account.pk]), {"hidden": "on"})
    guest.refresh_from_db()
    account.refresh_from_db()
    assert guest.record_hidden and not account.record_hidden
    download = client.get(reverse("player_data_download", args=[club.slug, guest.pk]))
    assert json.loads(download.content)["name"] == "Vieras"
    assert (
        client.get(reverse("player_data_download", args=[club.slug, account.pk])).status_code == 302
    )


# -- the download ----------------------------------------------------------------------------------


def test_the_download_holds_every_seat_registration_and_deal_entered():
    event, tables = seated_event(variant_id="rutupeli", players=4)
    play_night(tables[0], 1)
    seat = tables[0].seats.order_by("position").first()
    person = UserFactory()
    Player.objects.filter(pk=seat.player_id).update(user=person)
    MembershipFactory(club=event.club, user=person, role=Role.MEMBER)
    deal = tables[0].deals.get()
    deal.versions.update(by_user=person)
    data = person_data(user=person)
    assert data["memberships"][0]["role"] == "member"
    (player,) = data["players"]
    assert player["registrations"][0]["event"] == event.name
    assert player["seats"][0]["deals"][0]["points"] == deal.points[seat.position]
    assert data["deals_entered_or_changed"][0]["deal"] == 1
    assert json.dumps(data)  # plain values only
    assert player_data(player=Player.objects.get(pk=seat.player_id))["seats"] == player["seats"]


# -- erasure --------------------------------------------------------------------------------------


def _figures(event) -> tuple[list[tuple[int, bool]], dict[int, dict]]:
    """The places in order, and each player's place and figures. Rows that share a place
    are listed by name, so an erased name may move within its shared place, never out."""
    rows = event_standings(event=event).rows
    order = [(row.place, row.shared) for row in rows]
    return order, {row.player_id: row_figures(row) for row in rows}


def _names(event) -> dict[int, str]:
    return {row.player_id: row.player for row in event_standings(event=event).rows}


def _text_columns() -> list[tuple[type[models.Model], str, bool]]:
    found = []
    for model in apps.get_models():
        for column in model._meta.concrete_fields:
            if isinstance(column, (models.CharField, models.TextField)):
                found.append((model, column.attname, False))
            elif isinstance(column, models.JSONField):
                found.append((model, column.attname, True))
    return found


def assert_name_gone(name: str) -> None:
    """No text or JSON column of any model holds `name` (case ignored)."""
    for model, column, is_json in _text_columns():
        rows = model._base_manager.values_list(column, flat=True)
        if is_json:
            texts = [json.dumps(value, ensure_ascii=False) for value in rows]
        else:
            texts = [value for value in rows.filter(**{f"{column}__icontains": name})]
        held = [text for text in texts if text and name.lower() in text.lower()]
        assert not held, f"{model.__name__}.{column} still holds {name!r}: {held[:1]}"


FORMATS = {
    "championship": finished_championship,
    "series": series_in_round_two,
    "swiss": swiss_two_rounds,
}


@pytest.mark.parametrize("make", FORMATS.values(), ids=FORMATS.keys())
def test_erasure_changes_no_standings_but_the_name_and_leaves_no_name_behind(make):
    event = make()
    rows = event_standings(event=event).rows
    player = Player.objects.get(pk=rows[0].player_id)  # the winner: in every stored outcome
    person = UserFactory(email="winner@example.com")
    Player.objects.filter(pk=player.pk).update(name="Zsófia Ääpälä-Kovács", user=person)
    old = "Zsófia Ääpälä-Kovács"
    TieBreak.objects.filter(stage__event=event).update(note=f"{old} drew the ace")
    for stage in event.stages.exclude(outcome={}):
        # The outcome stored the name as the stage was closed with.
        stage.outcome = json.loads(
            json.dumps(stage.outcome).replace(f'"{rows[0].player}"', json.dumps(old))
        )
        stage.save(update_fields=["outcome"])
    before, names = _figures(event), _names(event)
    assert names[player.pk] == old
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    erasure = player_erase(player=player, by=director, confirmed=True)
    assert _figures(event) == before
    after = _names(event)
    assert after[player.pk] == "Former player 1" != old
    assert {k: v for k, v in after.items() if k != player.pk} == {
        k: v for k, v in names.items() if k != player.pk
    }
    assert not User.objects.filter(pk=person.pk).exists()
    assert Erasure.objects.get(player=player) == erasure and erasure.by == director
    assert erasure.number == 1
    assert_name_gone(old)
    assert_name_gone("winner@example.com")


def test_erasure_keeps_the_league_table_but_the_name():
    club = ClubFactory(language="fi")
    season = season_of(club)
    a, b, c = players_of(club, "Aino", "Bertta Bárány", "Cecilia")
    night(season, [a, b, c], day=1)
    night(season, [b, c, a], day=2)
    league_recompute(season_id=season.pk)
    before = [(r.player_id, r.place_label, r.points) for r in season_league(season=season).rows]
    player_erase(player=b, by=UserFactory(), confirmed=True)
    season.refresh_from_db()
    league = season_league(season=season)
    assert [(r.player_id, r.place_label, r.points) for r in league.rows] == before
    assert {r.name for r in league.rows} == {"Aino", "Entinen pelaaja 1", "Cecilia"}
    assert_name_gone("Bertta Bárány")


def test_erasure_numbers_count_per_club_and_need_confirming():
    club = ClubFactory()
    first, second = players_of(club, "Eka", "Toka")
    by = UserFactory()
    with pytest.raises(RuleViolation):
        player_erase(player=first, by=by, confirmed=False)
    assert player_erase(player=first, by=by, confirmed=True).number == 1
    assert player_erase(player=second, by=by, confirmed=True).number == 2
    with pytest.raises(RuleViolation):
        player_erase(player=first, by=by, confirmed=True)
    assert (
        player_erase(player=players_of(ClubFactory(), "Muu")[0], by=by, confirmed=True).number == 1
    )


def test_a_director_cannot_erase_an_account_with_players_in_other_clubs_but_the_person_can():
    person = UserFactory()
    here, there = ClubFactory(), ClubFactory()
    mine_here = Player.objects.create(club=here, name="Kaksi Kerhoa", user=person)
    Player.objects.create(club=there, name="Kaksi Kerhoa", user=person)
    with pytest.raises(RuleViolation):
        player_erase(player=mine_here, by=UserFactory(), confirmed=True)
    erasures = person_erase(user=person, confirmed=True)
    assert len(erasures) == 2
    assert not User.objects.filter(pk=person.pk).exists()
    assert_name_gone("Kaksi Kerhoa")


def test_the_erase_pages_ask_first_then_erase(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    club = event.club
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    player = Player.objects.filter(club=club, user=None).first()
    url = reverse("player_erase", args=[club.slug, player.pk])
    client.force_login(director)
    asked = client.post(url)
    assert asked.status_code == 200 and 'name="confirm" value="yes"' in asked.content.decode()
    player.refresh_from_db()
    assert not hasattr(player, "erasure")
    client.post(url, {"confirm": "yes"})
    player.refresh_from_db()
    assert player.name == "Former player 1"
    page = client.get(reverse("player_privacy", args=[club.slug, player.pk]))
    assert page.status_code == 200
    assert client.post(url, {"confirm": "yes"}).status_code == 302  # again: refused, not a 500


def test_erasing_oneself_signs_out_and_deletes_the_account(client):
    person = UserFactory()
    Player.objects.create(club=ClubFactory(), name="Itse Poistuva", user=person)
    client.force_login(person)
    assert client.post(reverse("my_erase")).status_code == 200  # the question first
    response = client.post(reverse("my_erase"), {"confirm": "yes"})
    assert response.status_code == 302
    assert not User.objects.filter(pk=person.pk).exists()
    assert client.get(reverse("my_data")).status_code == 302


def test_the_demo_shows_a_hidden_record_and_an_erased_player(client):
    club = demo_load()
    hidden = Player.objects.get(club=club, name=FORMAT_PLAYERS[12])
    assert hidden.record_hidden
    assert client.get(record_url(hidden)).status_code == 404
    erased = Erasure.objects.get(club=club).player
    assert erased.name == "Entinen pelaaja 1"  # the demo club is Finnish
    series = club.events.get(name=SERIES)
    assert erased.pk in {row.player_id for row in event_standings(event=series).rows}
    assert_name_gone(FORMAT_PLAYERS[13])
    demo_load()  # again: nothing more is erased
    assert Erasure.objects.filter(club=club).count() == 1


def test_the_only_owner_of_a_club_is_not_erased_and_my_data_says_why(client):
    club = ClubFactory(name="Ainoa Omistaja")
    owner = MembershipFactory(club=club, role=Role.OWNER).user
    mine = Player.objects.get(club=club, user=owner)  # a member's player, made with the role
    with pytest.raises(RuleViolation) as refused:
        person_erase(user=owner, confirmed=True)
    assert refused.value.code == "last_owner"
    with pytest.raises(RuleViolation):
        player_erase(player=mine, by=UserFactory(), confirmed=True)
    client.force_login(owner)
    page = client.get(reverse("my_data")).content.decode()
    assert "Ainoa Omistaja" in page and reverse("my_erase") not in page
    assert client.post(reverse("my_erase"), {"confirm": "yes"}).status_code == 302
    assert User.objects.filter(pk=owner.pk).exists()
    # With a second owner the first may go.
    MembershipFactory(club=club, role=Role.OWNER)
    assert len(person_erase(user=owner, confirmed=True)) == 1
    assert not User.objects.filter(pk=owner.pk).exists()


def test_my_data_reads_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    person = UserFactory()
    for _ in range(12):
        Player.objects.create(club=ClubFactory(), name="Moni Kerho", user=person)
    client.force_login(person)
    with django_assert_max_num_queries(8):
        assert client.get(reverse("my_data")).status_code == 200
