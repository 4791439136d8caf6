""" "The results are published": sent once the event is both finished and published, with
each player's place as the standings page shows it, once."""

from __future__ import annotations

import pytest
from django.core import mail

from formats.finish import event_finish
from standings.standings import event_standings
from tests.support.factories import ClubFactory
from tests.support.leagues import night, players_of, season_of
from tournaments.models import Notice, NoticeStatus, Registration
from tournaments.services import event_publish

pytestmark = pytest.mark.django_db(transaction=True)


def _with_addresses(event):
    for registration in Registration.objects.filter(event=event).select_related("player"):
        registration.email = f"{registration.player.name.lower()}@example.com"
        registration.save()


def test_results_mail_waits_for_publication_then_carries_the_place():
    club = ClubFactory()
    season = season_of(club)
    order = players_of(club, "Anna", "Bela", "Cecil", "Dora")
    event = night(season, order, day=1, published=False, finish=False)
    _with_addresses(event)
    event_finish(event=event, confirmed=True)
    assert mail.outbox == []  # finished, still private: nothing yet
    event_publish(event=event, published=True)
    assert len(mail.outbox) == 4
    rows = {row.player: row for row in event_standings(event=event).rows}
    for message in mail.outbox:
        name = message.to[0].split("@")[0].capitalize()
        assert f"You placed {rows[name].place_label} of 4" in message.body
        assert "results are published" in message.subject.lower()
    assert rows["Anna"].place == 1
    # Published again (or taken private and back): the mails are not sent twice.
    event_publish(event=event, published=False)
    event_publish(event=event, published=True)
    assert len(mail.outbox) == 4
    assert Notice.objects.filter(event=event, kind="results").count() == 4


def test_results_mail_on_finishing_a_published_event():
    club = ClubFactory()
    season = season_of(club)
    order = players_of(club, "Anna", "Bela", "Cecil")
    event = night(season, order, day=2, finish=False)
    _with_addresses(event)
    Registration.objects.filter(event=event, player__name="Bela").update(email="")
    event_finish(event=event, confirmed=True)
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.com", "cecil@example.com"]
    skipped = Notice.objects.get(event=event, registration__player__name="Bela")
    assert skipped.status == NoticeStatus.SKIPPED
