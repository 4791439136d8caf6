"""Where the people features meet: a merge takes a player's imported past results along,
an erasure reaches a duplicate merged into the player, the download lists invitations,
merged duplicates are offered nowhere, and a history preview the cache cannot keep says so."""

from __future__ import annotations

import datetime
import io
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues.services import league_recompute, season_league
from privacy.selectors import person_data
from privacy.services import player_erase
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.history import club_players_by_key, history_import
from tournaments.joining import invitation_create
from tournaments.merge import player_merge, player_merge_undo
from tournaments.models import ImportedResult, Invitation, Player, Role, Season
from tournaments.roster import club_roster, player_lookalikes

pytestmark = pytest.mark.django_db

PAST = (
    "date,game,event name,player,place,total\n"
    "2025-09-04,Rutupeli,Autumn night,Olli Uusi,1,35\n"
    "2025-09-04,Rutupeli,Autumn night,Aino Virtanen,2,80\n"
)


def _file(text: str) -> io.BytesIO:
    upload = io.BytesIO(text.encode())
    upload.name = "past.csv"
    return upload


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club,
        name="2025",
        starts_on=datetime.date(2025, 8, 1),
        ends_on=datetime.date(2025, 12, 31),
    )


def _league_names(season: Season) -> list[str]:
    season = league_recompute(season_id=season.pk)
    return sorted(row.name for row in season_league(season=season).rows)


def test_a_merge_takes_imported_results_along_and_its_undo_brings_them_back(club, director, season):
    history_import(club=club, upload=_file(PAST))
    imported = Player.objects.get(club=club, name="Olli Uusi")
    kept = Player.objects.create(club=club, name="Olli Uusi (member)")
    merge = player_merge(kept=kept, merged=imported, by=director, confirmed=True)
    assert list(ImportedResult.objects.filter(player=kept).values_list("place", flat=True)) == [1]
    assert not ImportedResult.objects.filter(player=imported).exists()
    assert _league_names(season) == ["Aino Virtanen", "Olli Uusi (member)"]
    player_merge_undo(merge=merge, by=director, confirmed=True)
    assert ImportedResult.objects.get(place=1).player == imported
    assert _league_names(season) == ["Aino Virtanen", "Olli Uusi"]


def test_merged_duplicates_are_offered_by_no_roster_import_or_lookalike_check(club, director):
    kept = Player.objects.create(club=club, name="Olli Uusi")
    duplicate = Player.objects.create(club=club, name="olli  uusi", guest=True)
    player_merge(kept=kept, merged=duplicate, by=director, confirmed=True)
    roster = list(club_roster(club=club))
    assert kept in roster and duplicate not in roster
    assert list(player_lookalikes(club=club, name="OLLI UUSI")) == [kept]
    assert club_players_by_key(club=club)["olli uusi"] == kept


def test_an_erasure_renames_the_duplicate_merged_into_the_player(club, director):
    kept = Player.objects.create(club=club, name="Kristiina Väisänen-Lindqvist")
    duplicate = Player.objects.create(club=club, name="kristiina väisänen-lindqvist", guest=True)
    player_merge(kept=kept, merged=duplicate, by=director, confirmed=True)
    player_erase(player=kept, by=director, confirmed=True)
    names = set(Player.objects.filter(club=club).values_list("name", flat=True))
    assert not any("isänen" in name for name in names), names
    duplicate.refresh_from_db()
    assert duplicate.name == Player.objects.get(pk=kept.pk).name


def test_the_download_lists_the_invitations_sent_to_the_person(club, director):
    person = UserFactory(email="olli@club.example")
    invitation_create(club=club, email="OLLI@club.example", role=Role.MEMBER, by=director)
    data = person_data(user=person)
    assert [(i["club"], i["role"]) for i in data["invitations"]] == [(club.name, "member")]
    assert "token" not in str(data)
    assert Invitation.objects.get().token not in str(data)


def test_a_history_preview_the_cache_cannot_keep_says_so(client, club, director):
    client.force_login(director)
    url = reverse("history_import", args=[club.slug])
    with mock.patch("tournaments.history_views.cache.set", side_effect=ConnectionError):
        page = client.post(url, {"file": SimpleUploadedFile("p.csv", PAST.encode())})
    assert page.status_code == 200
    assert "upload the file again in a minute" in page.content.decode()
    assert "confirm_form" not in page.context
    with mock.patch("tournaments.history_views.cache.get", side_effect=ConnectionError):
        gone = client.post(reverse("history_import_confirm", args=[club.slug]), {"token": "x"})
    assert gone.status_code == 302
