"""The documented backup restores the demo whole: every feed, standings page and league
table reads the same after `site_backup`, an empty database and `site_restore` (on SQLite
and, in make test's second pass, PostgreSQL)."""

from __future__ import annotations

import json
import tarfile
from xml.etree import ElementTree

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from core.backup import site_restore
from core.models import TaskRun
from printing.models import PrintJob
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.print_state import with_run
from tournaments.models import Club, Event, Player, Season, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite]


def outputs() -> dict[str, object]:
    """What the public and the director read, for every event and season of the site."""
    client = Client()
    seen: dict[str, object] = {"tables": Table.everything.count()}
    for event in Event.objects.select_related("club").order_by("pk"):
        args = [event.club.slug, event.pk]
        feed = client.get(reverse("event_standings_feed", args=args))
        seen[f"feed {event.pk}"] = (feed.status_code, feed.status_code == 200 and feed.json())
        export = client.get(reverse("ranking_export", args=[*args, "csv"]))
        seen[f"csv {event.pk}"] = (export.status_code, export.status_code == 200 and export.content)
    for season in Season.objects.select_related("club").order_by("pk"):
        league = client.get(reverse("season_league_feed", args=[season.club.slug, season.pk]))
        seen[f"league {season.pk}"] = (
            league.status_code,
            league.status_code == 200 and league.json(),
        )
    return seen


def test_the_demo_backed_up_and_restored_reads_the_same(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("demo_load")
    playoffs = Table.everything.filter(playoff_of__isnull=False).count()
    assert playoffs, "the demo has a play-off table: the rows a default manager hides"
    job = _printed(Event.objects.order_by("pk").first())
    before = outputs()
    answered = [value[0] for key, value in before.items() if key != "tables"]
    assert answered.count(200) > 5
    backup = tmp_path / "lappu.tar.gz"
    call_command("site_backup", str(backup))

    call_command("flush", "--noinput")
    default_storage.delete(job.file.name)
    assert not Event.objects.exists()
    call_command("site_restore", str(backup))

    assert Table.everything.filter(playoff_of__isnull=False).count() == playoffs
    assert outputs() == before
    assert (tmp_path / "media" / job.file.name).read_bytes() == b"%PDF-1.7 kept"
    # The director's account came back with its password.
    assert get_user_model().objects.get(username="director").check_password("director")
    # The restored site takes new rows (PostgreSQL's sequences moved past the loaded ids).
    newest = Club.objects.order_by("-pk").values_list("pk", flat=True).first()
    assert ClubFactory().pk > newest


def _printed(event: Event) -> PrintJob:
    job = PrintJob.objects.create(event=event, kind="table_sheets")
    with_run(job, state=TaskRun.State.SUCCEEDED)
    job.file.save("sheets.pdf", ContentFile(b"%PDF-1.7 kept"), save=True)
    return job


def test_the_print_files_go_through_the_storage_not_a_disk(tmp_path, settings):
    """Web and worker may keep their files in an object store (docs/install.md): the backup
    reads them, and the restore writes them, through the site's storage. An in-memory
    storage stands in for one; nothing is on the disk, and a stray file there is not kept."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    (tmp_path / "media" / "print" / "partial").mkdir(parents=True)
    (tmp_path / "media" / "print" / "partial" / "share-1.pdf").write_bytes(b"half made")
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    job = _printed(event)
    backup = tmp_path / "lappu.tar.gz"
    call_command("site_backup", str(backup))
    with tarfile.open(backup) as archive:
        assert sorted(archive.getnames()) == ["data.xml", f"media/{job.file.name}"]

    call_command("flush", "--noinput")
    default_storage.delete(job.file.name)
    call_command("site_restore", str(backup))
    restored = PrintJob.objects.get(pk=job.pk)
    with restored.file.open("rb") as file:
        assert file.read() == b"%PDF-1.7 kept"
    assert not (tmp_path / "media" / job.file.name).exists()


def test_a_backup_reads_every_model_through_a_manager_that_hides_no_row():
    """`dumpdata --all` serialises through each model's base manager: none may filter (as
    `Table.objects`, the default, leaves play-off tables out)."""
    hiding = [
        model._meta.label
        for model in apps.get_models()
        if model._base_manager.get_queryset().query.where
    ]
    assert hiding == []
    assert Table._default_manager.get_queryset().query.where, "the hidden rows this is about"


def test_a_plain_dumpdata_keeps_the_rows_a_default_manager_hides(tmp_path):
    """Django's usual backup: `dumpdata` without --all read `Table.objects`, which leaves
    out play-off tables, and its file could not be loaded again."""
    _event, (table, *_rest) = seated_event(variant_id="rutupeli", players=8)
    playoff = Table.everything.create(stage=table.stage, number=3, playoff_of=table)
    out = tmp_path / "tables.json"
    call_command("dumpdata", "tournaments.table", output=str(out), verbosity=0)
    dumped = {row["pk"] for row in json.loads(out.read_text())}
    assert playoff.pk in dumped
    assert dumped == set(Table.everything.values_list("pk", flat=True))


def test_a_restore_never_mixes_two_sites(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    ClubFactory()
    backup = tmp_path / "lappu.tar.gz"
    call_command("site_backup", str(backup))
    with pytest.raises(CommandError, match="already holds a site"):
        call_command("site_restore", str(backup))
    (tmp_path / "notes.tar.gz").write_bytes(b"not a backup")
    Club.objects.all().delete()
    with pytest.raises(CommandError, match="Not a backup"):
        call_command("site_restore", str(tmp_path / "notes.tar.gz"))
    with pytest.raises(CommandError, match="No backup"):
        call_command("site_restore", str(tmp_path / "missing.tar.gz"))
    assert not Club.objects.exists()  # nothing half-loaded


def test_a_restored_member_keeps_their_one_player(tmp_path, settings):
    # Loading a membership must not make the member's player again (the backup has it):
    # whichever is loaded first, the other still loads.
    settings.MEDIA_ROOT = tmp_path / "media"
    club = ClubFactory()
    for number in range(5):  # the member's player is not the first the restore could make
        Player.objects.create(club=club, name=f"Gone {number}").delete()
    membership = MembershipFactory(club=club)
    player = Player.objects.get(club=membership.club, user=membership.user)
    backup = tmp_path / "one.tar.gz"
    call_command("site_backup", str(backup))
    # The memberships before the players: the order dumpdata writes models in can differ
    # from run to run.
    with tarfile.open(backup) as archive:
        data = ElementTree.fromstring(archive.extractfile("data.xml").read())
    objects = list(data)
    members = [o for o in objects if o.get("model") == "tournaments.membership"]
    rest = [o for o in objects if o not in members]
    players = next(i for i, o in enumerate(rest) if o.get("model") == "tournaments.player")
    for element in objects:
        data.remove(element)
    for element in rest[:players] + members + rest[players:]:
        data.append(element)
    reordered = tmp_path / "data.xml"
    reordered.write_bytes(ElementTree.tostring(data))
    with tarfile.open(backup, "w:gz") as archive:
        archive.add(reordered, arcname="data.xml")
    call_command("flush", "--noinput")
    with backup.open("rb") as source:
        site_restore(source=source)
    assert list(Player.objects.values_list("pk", "club_id")) == [(player.pk, membership.club_id)]
