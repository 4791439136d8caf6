"""A director brings the club's roster in from a spreadsheet (issue 33): the preview marks
the rows that match a player the club has or look like another row, nothing is saved until
the confirm, and the roster then lists whom the director chose. Shot at a phone's width and
a laptop's (tests/artifacts/roster-*.png), each page checked by axe."""

from __future__ import annotations

import datetime

from tests.support.browser import director_of, shoot_widths, sign_in
from tests.support.factories import ClubFactory
from tournaments.models import Player
from tournaments.services import event_create, registration_guest_add

FIRST = ["Aino", "Bertta", "Cecilia", "Daniel", "Eero", "Fanni", "Gábor", "Hilkka", "Ilona"]
LAST = ["Aalto", "Berg", "Csányi", "Dávid", "Eskola", "Fekete", "Gál"]
LONG = "Örkényi-Szentgyörgyi Zsófia Éva"  # 31 characters, accents throughout


def roster_csv() -> str:
    """60 rows: 57 people, one of them already the club's ("olli  uusi"), and two rows that
    repeat an earlier one with other accents or spacing."""
    names = [*[f"{first} {last}" for last in LAST for first in FIRST][:56], LONG]
    assert len(set(names)) == 57
    rows = [*names[:20], "olli  uusi", *names[20:40], "Áino Aalto", *names[40:]]
    rows += ["daniel   BERG"]
    assert len(rows) == 60
    return "nimi;seura\n" + "".join(
        f"{name};{'Kerho' if n % 9 == 0 else ''}\n" for n, name in enumerate(rows)
    )


def test_a_director_imports_a_roster_through_the_preview(live_server, phone, tmp_path):
    club = ClubFactory(name="Kortteliklubi")
    director_of(club)
    Player.objects.create(club=club, name="Olli Uusi")
    before = Player.objects.filter(club=club).count()
    sign_in(phone, live_server.url, "dora", "dora")

    phone.goto(f"{live_server.url}/clubs/{club.slug}/")
    phone.get_by_role("link", name="The club's players").click()
    phone.get_by_role("link", name="Add players").click()
    file = tmp_path / "jasenet.csv"
    file.write_text(roster_csv(), encoding="utf-8-sig")
    upload = phone.locator("#upload")
    upload.get_by_label("Spreadsheet (CSV or XLSX)").set_input_files(str(file))
    upload.get_by_role("button", name="Preview").click()

    phone.get_by_role("heading", name="Preview: nothing is saved yet").wait_for()
    body = phone.locator("main").inner_text()
    assert "57 new players" in body
    assert "1 matches an existing player" in body
    assert "2 look like duplicates" in body
    assert Player.objects.filter(club=club).count() == before  # a preview saves nothing
    row = phone.locator("tr", has_text="Áino Aalto")
    assert "looks like a duplicate" in row.inner_text()
    assert "Compare with: row 2" in row.inner_text()
    assert "matches an existing player" in phone.locator("tr", has_text="olli uusi").inner_text()
    shoot_widths(phone, "roster-preview")

    # One look-alike added anyway (two people of one name), the other skipped.
    phone.locator("tr", has_text="daniel BERG").get_by_label("Add anyway").check()
    phone.get_by_role("button", name="Add the players").click()
    phone.get_by_text("58 players added.").wait_for()
    assert Player.objects.filter(club=club).count() == before + 58
    assert Player.objects.filter(club=club, name_key="daniel berg").count() == 2
    assert Player.objects.filter(club=club, name_key="aino aalto").count() == 1
    assert Player.objects.filter(club=club, name_key="olli uusi").count() == 1
    phone.get_by_label("Name", exact=True).fill("zsofia")
    phone.get_by_role("button", name="Show").click()
    phone.wait_for_url("**q=zsofia**")
    assert LONG in phone.locator("table").inner_text()
    phone.goto(f"{live_server.url}/clubs/{club.slug}/players/")
    shoot_widths(phone, "roster")


def test_adding_one_who_looks_like_a_player_warns(live_server, phone):
    club = ClubFactory(name="Kortteliklubi")
    director_of(club)
    event = event_create(
        published=True, club=club, name="Syysmestaruus", date=datetime.date(2026, 10, 3),
        variant_id="rutupeli",
    )  # fmt: skip
    registration_guest_add(event=event, name=LONG)
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/players/new/")
    phone.get_by_label("Name", exact=True).fill("orkenyi-szentgyorgyi  zsofia eva")
    phone.locator("#add-one").get_by_role("button", name="Add").click()
    alert = phone.get_by_role("alert")
    assert "may be a player the club already has" in alert.inner_text()
    assert "played Syysmestaruus" in alert.inner_text()
    shoot_widths(phone, "roster-add-warning")
    phone.get_by_label("Add a new person anyway").check()
    phone.locator("#add-one").get_by_role("button", name="Add").click()
    phone.get_by_text("added.").wait_for()
    assert Player.objects.filter(club=club, name_key="orkenyi-szentgyorgyi zsofia eva").count() == 2


def test_a_returning_guest_typed_in_again_is_offered_not_copied(live_server, phone):
    club = ClubFactory(name="Kortteliklubi")
    director_of(club)
    past = event_create(
        published=True, club=club, name="Mestaruus", date=datetime.date(2026, 11, 1),
        variant_id="rutupeli",
    )  # fmt: skip
    olli = registration_guest_add(event=past, name="Olli Uusi").player
    tonight = event_create(
        published=True, club=club, name="Joulukuun klubi-ilta", date=datetime.date(2026, 12, 5),
        variant_id="rutupeli",
    )  # fmt: skip
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/{tonight.pk}/manage/#registration")
    # The picker's search finds him although past guests are hidden.
    phone.get_by_label("Find a player").fill("ölli")
    phone.get_by_label("Find a player").press("Enter")
    phone.wait_for_url("**q=*")
    assert "Olli Uusi (guest)" in phone.locator("#add-player").inner_text()
    # Typed in as a new guest instead, he is offered, told apart by his last event.
    phone.get_by_label("Guest's name").fill("olli  uusi")
    phone.get_by_role("button", name="Check in", exact=True).click()
    phone.get_by_role("heading", name="Is this a player the club has?").wait_for()
    assert "played Mestaruus" in phone.get_by_role("alert").inner_text()
    shoot_widths(phone, "roster-checkin-lookalike")
    phone.get_by_role("button", name="Check in Olli Uusi").click()
    phone.wait_for_url("**/manage/**")
    assert tonight.registrations.get().player == olli
    assert Player.objects.filter(club=club, name_key="olli uusi").count() == 1
    # On the roster, the guest becomes one of the club's own players.
    phone.goto(f"{live_server.url}/clubs/{club.slug}/players/?kind=guest")
    shoot_widths(phone, "roster-guests")
    phone.get_by_role("button", name="Make a club player: Olli Uusi").click()
    phone.get_by_text("Olli Uusi is a club player now.").wait_for()
    olli.refresh_from_db()
    assert not olli.guest
