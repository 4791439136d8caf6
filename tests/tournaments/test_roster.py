"""The club's roster (issue 33): one person, one player. Adding one player, a pasted list or
a spreadsheet goes through one preview marking each row new / matches an existing player /
looks like a duplicate; nothing is saved until the director confirms; a guest becomes a
club player; a guest typed in at check-in who looks like a known player is asked about."""

from __future__ import annotations

import datetime
import io

import openpyxl
import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from rules import RuleViolation
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.models import Player, Registration, Role
from tournaments.names import name_key
from tournaments.roster import (
    LookAlikes,
    RosterRow,
    RowStatus,
    player_add,
    player_lookalikes,
    player_make_member,
    player_rename,
    roster_import,
    roster_preview,
    roster_rows_from_text,
)
from tournaments.roster_forms import RosterConfirmForm, RosterFilter, preview_token
from tournaments.services import event_create, registration_guest_add

pytestmark = pytest.mark.django_db


def rows(*names: str) -> list[RosterRow]:
    return [RosterRow(row=n, name=name) for n, name in enumerate(names, start=2)]


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


@pytest.fixture
def night(club):
    return event_create(
        published=True,
        club=club,
        name="Joulukuun klubi-ilta",
        date=datetime.date(2026, 12, 1),
        variant_id="rutupeli",
    )


# --- the model and the rule ---------------------------------------------------------------


def test_name_key_is_kept_by_save(club):
    player = Player.objects.create(club=club, name="Ölli  Uusi")
    assert player.name_key == "olli uusi"
    player.name = "Kőrösi Éva"
    player.save(update_fields=["name"])
    player.refresh_from_db()
    assert player.name_key == "korosi eva"


@pytest.mark.parametrize(
    ("first", "second", "alike"),
    [
        ("Olli Uusi", "olli  uusi", True),  # one key
        ("Olli Uusi", "O. Uusi", True),  # an initial
        ("Olli Uusi", "Olli U", True),
        ("Kőrösi Éva", "Éva Kőrösi", True),  # the surname first or last
        ("Olli Uusi", "Oskari Uusi", False),  # brothers, not a typo
        ("Pelaaja 0001 Väisänen", "Pelaaja 0002 Väisänen", False),
        ("Ville", "Ville Vieras", False),
        ("O. Uusi", "Oskari Uusi", True),
    ],
)
def test_the_lookalike_rule(first, second, alike):
    index = LookAlikes([(1, first, name_key(first))])
    found = index.same(name_key(second)) + index.close(name_key(second))
    assert bool(found) is alike
    # The rule is symmetric: whichever was typed first.
    index = LookAlikes([(1, second, name_key(second))])
    assert bool(index.same(name_key(first)) + index.close(name_key(first))) is alike


def test_lookalikes_same_key_and_close(club, night):
    olli = Player.objects.create(club=club, name="Olli Uusi")
    guest = registration_guest_add(event=night, name="Uusi Olli", new_person=True).player
    Player.objects.create(club=club, name="Oskari Uusi")  # a brother, not a typo
    found = list(player_lookalikes(club=club, name="  ÖLLI uusi "))
    assert found[0] == olli
    assert set(found) == {olli, guest}
    guest_found = next(p for p in found if p.pk == guest.pk)
    assert (guest_found.last_event, guest_found.last_date) == (night.name, night.date)
    assert list(player_lookalikes(club=club, name="   ")) == []


# --- one player ---------------------------------------------------------------------------


def test_player_add_refuses_a_lookalike_unless_told(club):
    Player.objects.create(club=club, name="Olli Uusi")
    with pytest.raises(RuleViolation) as refused:
        player_add(club=club, name="olli  uusi")
    assert refused.value.code == "lookalike"
    assert Player.objects.filter(club=club, user=None).count() == 1
    added = player_add(club=club, name="olli  uusi", new_person=True)
    assert (added.name, added.guest) == ("olli uusi", False)


@pytest.mark.parametrize("name", ["", "   ", "x" * 121])
def test_player_add_refuses_bad_names(club, name):
    with pytest.raises(RuleViolation):
        player_add(club=club, name=name)
    assert not Player.objects.filter(user=None).exists()


def test_make_member_and_rename(club, night):
    guest = registration_guest_add(event=night, name="Vieras Ville").player
    player_make_member(player=guest)
    guest.refresh_from_db()
    assert not guest.guest
    assert Registration.objects.filter(player=guest).count() == 1  # the same row, results kept
    player_rename(player=guest, name="  Ville   Vieras ")
    guest.refresh_from_db()
    assert (guest.name, guest.name_key) == ("Ville Vieras", "ville vieras")
    with pytest.raises(RuleViolation):
        player_rename(player=guest, name=" ")


# --- a guest at check-in --------------------------------------------------------------------


def test_guest_who_looks_like_a_past_guest_is_asked_about(club, night):
    last = event_create(
        published=True, club=club, name="Mestaruus", date=datetime.date(2026, 11, 1),
        variant_id="rutupeli",
    )  # fmt: skip
    registration_guest_add(event=last, name="Olli Uusi")
    with pytest.raises(RuleViolation) as refused:
        registration_guest_add(event=night, name="olli uusi")
    assert refused.value.code == "lookalike"
    assert Player.objects.filter(club=club, user=None).count() == 1
    registration_guest_add(event=night, name="olli uusi", new_person=True)
    assert Player.objects.filter(club=club, user=None).count() == 2


def test_check_in_page_warns_and_offers_the_existing_player(client, club, night, director):
    last = event_create(
        published=True, club=club, name="Mestaruus", date=datetime.date(2026, 11, 1),
        variant_id="rutupeli",
    )  # fmt: skip
    olli = registration_guest_add(event=last, name="Olli Uusi").player
    client.force_login(director)
    url = reverse("registration_create", args=[club.slug, night.pk])
    response = client.post(url, {"name": "OLLI  uusi"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Olli Uusi" in html and "played Mestaruus" in html
    assert f'name="player" value="{olli.pk}"' in html
    assert 'name="new_person"' in html
    assert Player.objects.filter(club=club, user=None).count() == 1
    # Checking in the one offered registers him, not a copy.
    response = client.post(url, {"player": olli.pk, "guests": "on"})
    assert response.status_code == 302
    assert Registration.objects.filter(event=night, player=olli).exists()
    # Someone else of the same name, said so outright.
    client.post(url, {"name": "Olli Uusi", "new_person": "on"})
    assert Player.objects.filter(club=club, name_key="olli uusi").count() == 2


# --- a list: preview and import --------------------------------------------------------------


def test_preview_marks_each_row(club):
    Player.objects.create(club=club, name="Olli Uusi")
    Player.objects.create(club=club, name="Kaisa Kallio")
    preview = roster_preview(
        club=club,
        rows=rows(
            "olli  uusi", "Aino Aalto", "Äino aalto", "K. Kallio", "Bertta Berg", "Berg Bertta"
        ),
    )
    assert [(r.name, r.status) for r in preview] == [
        ("olli uusi", RowStatus.EXISTING),
        ("Aino Aalto", RowStatus.NEW),
        ("Äino aalto", RowStatus.LOOKALIKE),
        ("K. Kallio", RowStatus.LOOKALIKE),
        ("Bertta Berg", RowStatus.NEW),
        ("Berg Bertta", RowStatus.LOOKALIKE),
    ]
    assert preview[0].similar == ("Olli Uusi",)
    assert preview[2].similar_rows == (3,)
    assert preview[3].similar == ("Kaisa Kallio",)
    assert Player.objects.filter(user=None).count() == 2  # a preview saves nothing


def test_import_saves_the_new_rows_and_the_chosen_lookalikes(club):
    Player.objects.create(club=club, name="Olli Uusi")
    listed = rows("olli  uusi", "Aino Aalto", "Äino aalto", "Bertta Berg", "Cecilia Cruz")
    assert roster_import(club=club, rows=listed, add_anyway=set()) == 3
    assert Player.objects.filter(club=club, user=None).count() == 4
    assert set(Player.objects.values_list("name_key", flat=True)) == {
        "olli uusi", "aino aalto", "bertta berg", "cecilia cruz",
    }  # fmt: skip
    # Importing the same list again adds nobody; the look-alike row only when chosen.
    assert roster_import(club=club, rows=listed, add_anyway={4}) == 0
    Player.objects.filter(name_key="aino aalto").delete()
    assert roster_import(club=club, rows=listed, add_anyway={4}) == 2


def test_pasted_text_rows():
    assert roster_rows_from_text("Aino\n\n  \nBertta Berg\r\n") == [
        RosterRow(1, "Aino"), RosterRow(4, "Bertta Berg"),
    ]  # fmt: skip
    for bad in ("", "\n \n", "x\n" * 2001, "y" * 121):
        with pytest.raises(RuleViolation):
            roster_rows_from_text(bad)


@pytest.mark.parametrize("count", [20, 2000])
def test_import_query_count_does_not_grow(club, count, django_assert_max_num_queries):
    Player.objects.bulk_create(
        [Player(club=club, name=f"Old {n}", name_key=f"old {n}") for n in range(50)]
    )
    many = rows(*(f"Pelaaja {n:04}" for n in range(count)))
    with django_assert_max_num_queries(1):
        roster_preview(club=club, rows=many)
    # The lock, the roster read, the inserts (savepoints aside): one insert on PostgreSQL;
    # SQLite caps a statement's values (999), so there the batches are as few as it allows.
    fields = [f for f in Player._meta.concrete_fields if not f.primary_key]
    inserts = -(-count // connection.ops.bulk_batch_size(fields, many))
    with django_assert_max_num_queries(4 + inserts):
        assert roster_import(club=club, rows=many, add_anyway=set()) == count


# --- pages ---------------------------------------------------------------------------------


def roster_url(club, name="club_players", *args):
    return reverse(name, args=[club.slug, *args])


def test_roster_page_for_directors_only(client, club, director):
    client.force_login(UserFactory())
    assert client.get(roster_url(club)).status_code == 403
    member = MembershipFactory(club=club, role=Role.MEMBER).user
    client.force_login(member)
    assert client.get(roster_url(club)).status_code == 403
    client.force_login(director)
    html = client.get(roster_url(club)).content.decode()
    assert "paste a list of names" in html
    club_page = client.get(club.get_absolute_url()).content.decode()
    assert roster_url(club) in club_page


def test_roster_page_lists_searches_and_keeps_queries_flat(
    client, club, director, night, django_assert_max_num_queries
):
    user = UserFactory(email="olli@example.org")
    Player.objects.create(club=club, name="Olli Uusi", user=user)
    registration_guest_add(event=night, name="Vieras Ville")
    for n in range(60):
        Player.objects.create(club=club, name=f"Pelaaja {n:02}")
    client.force_login(director)
    with django_assert_max_num_queries(20):
        html = client.get(roster_url(club)).content.decode()
    assert "olli@example.org" in html and "Pelaaja 40" in html
    assert "Vieras Ville" not in html  # the guests come after the club's players: page 2
    assert "Vieras Ville" in client.get(roster_url(club), {"page": 2}).content.decode()
    html = client.get(roster_url(club), {"q": "ÖLLI  uu"}).content.decode()
    assert "Olli Uusi" in html and "Pelaaja 01" not in html
    html = client.get(roster_url(club), {"kind": "guest"}).content.decode()
    assert "Vieras Ville" in html and "Olli Uusi" not in html
    assert "Make a club player" in html
    for junk in ({"sort": "nope"}, {"page": "x"}, {"kind": "zzz"}, {"q": "x" * 500}):
        assert client.get(roster_url(club), junk).status_code in (200, 404)


def test_roster_export_has_emails_for_directors_only(client, club, director):
    Player.objects.create(club=club, name="Olli Uusi", user=UserFactory(email="olli@example.org"))
    Player.objects.create(club=club, name="=cmd()")
    scorer = MembershipFactory(club=club, role=Role.SCORER).user
    client.force_login(director)
    csv = client.get(roster_url(club, "club_players_export", "csv")).content.decode()
    assert "olli@example.org" in csv and "'=cmd()" in csv
    xlsx = client.get(roster_url(club, "club_players_export", "xlsx"))
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    assert "olli@example.org" in [cell.value for cell in sheet["D"]]
    client.force_login(scorer)
    csv = client.get(roster_url(club, "club_players_export", "csv")).content.decode()
    assert "Olli Uusi" in csv and "olli@example.org" not in csv
    assert client.get(roster_url(club, "club_players_export", "pdf")).status_code == 404


def test_add_one_warns_then_adds_when_ticked(client, club, director):
    Player.objects.create(club=club, name="Olli Uusi")
    client.force_login(director)
    response = client.post(roster_url(club, "player_new"), {"name": "olli uusi"})
    assert response.status_code == 200
    assert "may be a player the club already has" in response.content.decode()
    assert Player.objects.filter(user=None).count() == 1
    response = client.post(
        roster_url(club, "player_new"), {"name": "olli uusi", "new_person": "on"}
    )
    assert response.status_code == 302
    assert Player.objects.filter(user=None).count() == 2


def test_make_member_page(client, club, director, night):
    guest = registration_guest_add(event=night, name="Vieras Ville").player
    client.force_login(director)
    response = client.post(roster_url(club, "player_make_member", guest.pk))
    assert response.status_code == 302
    guest.refresh_from_db()
    assert not guest.guest
    assert client.get(roster_url(club, "player_make_member", guest.pk)).status_code == 405
    response = client.post(roster_url(club, "player_rename", guest.pk), {"name": "Ville V."})
    assert response.status_code == 302
    other = MembershipFactory(role=Role.DIRECTOR)
    client.force_login(other.user)
    assert client.post(roster_url(club, "player_make_member", guest.pk)).status_code == 403


def test_paste_preview_then_confirm(client, club, director):
    Player.objects.create(club=club, name="Olli Uusi")
    client.force_login(director)
    text = "olli  uusi\nAino Aalto\nÄino Aalto\nBertta Berg\n"
    response = client.post(roster_url(club, "roster_paste"), {"names": text})
    assert response.status_code == 200
    html = response.content.decode()
    assert "matches an existing player" in html and "looks like a duplicate" in html
    assert Player.objects.filter(user=None).count() == 1
    token = response.context["confirm"]["rows"].value()
    response = client.post(roster_url(club, "roster_confirm"), {"rows": token, "add": ["3"]})
    assert response.status_code == 302
    assert Player.objects.filter(user=None).count() == 4


def test_confirm_refuses_a_changed_or_foreign_preview(client, club, director):
    client.force_login(director)
    token = preview_token(club=club, rows=rows("Aino Aalto"))
    for bad in (token[:-2] + "xx", "", "junk", signing.dumps({"club": club.pk}, salt="other")):
        response = client.post(roster_url(club, "roster_confirm"), {"rows": bad})
        assert response.status_code == 302
    response = client.post(roster_url(club, "roster_confirm"), {"rows": token, "add": ["x"]})
    assert response.status_code == 302
    assert not Player.objects.filter(user=None).exists()
    other = MembershipFactory(role=Role.DIRECTOR)
    client.force_login(other.user)
    response = client.post(roster_url(other.club, "roster_confirm"), {"rows": token})
    assert not Player.objects.filter(user=None).exists()


def upload(client, club, content: bytes, name: str = "roster.csv"):
    file = SimpleUploadedFile(name, content)
    return client.post(roster_url(club, "roster_upload"), {"file": file})


def workbook(*rows_: tuple[object, ...]) -> bytes:
    book = openpyxl.Workbook()
    for row in rows_:
        book.active.append(row)
    written = io.BytesIO()
    book.save(written)
    return written.getvalue()


@pytest.mark.parametrize(
    ("content", "name"),
    [
        ("nimi;seura\nOlli Uusi;Kerho\nÄänekoski Ähtäri;\n".encode(), "fi.csv"),
        ("\ufeffNév,Klub\nKőrösi Éva,Budapest\n".encode(), "hu.csv"),
        (b"Name\tHome club\nAino Aalto\tX\n", "en.tsv"),
        (workbook(("Nimi", "Seura"), ("Olli Uusi", None), (None, None), ("Aino", "K")), "r.xlsx"),
    ],
)
def test_upload_reads_three_languages_headers(client, club, director, content, name):
    client.force_login(director)
    response = upload(client, club, content, name)
    assert response.status_code == 200
    assert "Preview: nothing is saved yet" in response.content.decode()
    assert not Player.objects.filter(user=None).exists()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"   \n",
        "nimi\nVäisänen\n".encode("latin-1"),
        b"surname,town\nOlli,Oulu\n",
        b"name\n=HYPERLINK(\"x\")\n",
        b"name\n" + b"Pelaaja\n" * 10_000,
        b"name\n" + b"x" * 20_000_000,
        b"name\n" + b"y" * 200 + b"\n",
        workbook(("name",), ("=A1&A1",)),
        b"\xd0\xcf\x11\xe0 old excel",
        b"PK\x03\x04 not a zip",
    ],
    ids=[
        "blank", "spaces", "latin-1", "wrong headers", "formula", "10000 rows", "20 MB",
        "too long", "xlsx formula", "xls", "broken xlsx",
    ],
)  # fmt: skip
def test_bad_files_are_refused_and_save_nothing(client, club, director, content):
    client.force_login(director)
    response = upload(client, club, content)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="error"' in html
    assert "Preview: nothing is saved yet" not in html
    assert not Player.objects.filter(user=None).exists()


def test_bad_posts_never_fail(client, club, director):
    client.force_login(director)
    assert client.post(roster_url(club, "roster_upload"), {}).status_code == 200
    assert client.post(roster_url(club, "roster_paste"), {"names": ""}).status_code == 200
    # A NUL is refused site-wide with a 400 (core's middleware), before any view.
    assert client.post(roster_url(club, "roster_paste"), {"names": "a\x00b"}).status_code == 400
    assert client.post(roster_url(club, "player_new"), {"name": "‮"}).status_code in (200, 302)
    too_many = "\n".join(f"P {n}" for n in range(2001))
    response = client.post(roster_url(club, "roster_paste"), {"names": too_many})
    assert response.status_code == 200 and "at most 2000" in response.content.decode()
    assert client.get(roster_url(club, "roster_paste")).status_code == 405
    assert not Player.objects.filter(user=None).exists()


# --- forms ---------------------------------------------------------------------------------


def test_confirm_form_takes_only_its_own_rows(club):
    token = preview_token(club=club, rows=rows("Aino Aalto", "Äino Aalto"))
    form = RosterConfirmForm({"rows": token, "add": ["3"]}, club=club)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["add"] == [3]
    assert [r.name for r in form.cleaned_data["rows"]] == ["Aino Aalto", "Äino Aalto"]
    assert not RosterConfirmForm({"rows": token, "add": ["99"]}, club=club).is_valid()
    assert not RosterConfirmForm({"rows": token + "x"}, club=club).is_valid()
    other = ClubFactory()
    assert not RosterConfirmForm({"rows": token}, club=other).is_valid()


def test_roster_filter_is_accent_blind(club):
    Player.objects.create(club=club, name="Kőrösi Éva")
    Player.objects.create(club=club, name="Aino Aalto", guest=True)
    found = RosterFilter({"q": "KOROSI  e"}, queryset=Player.objects.filter(club=club)).qs
    assert [p.name for p in found] == ["Kőrösi Éva"]
    guests = RosterFilter({"kind": "guest"}, queryset=Player.objects.filter(club=club)).qs
    assert [p.name for p in guests] == ["Aino Aalto"]
    everyone = RosterFilter({"kind": "nonsense"}, queryset=Player.objects.filter(club=club))
    assert everyone.qs.count() == 2  # a value the list does not offer filters nothing
