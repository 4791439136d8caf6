"""The players' mail over real SMTP: a server started in the test process (aiosmtpd)
takes what the site sends; stopped, the actions still succeed and the mail is retried,
counted, then FAILED and shown to the director."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.support.events import drawn_event
from tests.support.factories import MembershipFactory, UserFactory
from tests.support.smtp import text_of
from tournaments.models import Notice, NoticeStatus, Registration, Role
from tournaments.notices import MAX_RETRIES, notice_queue

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_registration_mail_arrives_over_smtp(smtp_sink):
    event, _stage = drawn_event(players=4, mail_tables=False)
    registration = Registration.objects.filter(event=event).first()
    registration.email, registration.language = "anna@example.com", "en"
    registration.save()
    notice = notice_queue(kind="received", registration=registration)
    (mail,) = smtp_sink.mails
    assert mail["To"] == "anna@example.com"
    assert "Registration received" in mail["Subject"]
    assert "/unsubscribe/" in mail["List-Unsubscribe"]
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert event.name in text_of(mail)
    notice.refresh_from_db()
    assert (notice.status, notice.attempts) == (NoticeStatus.SENT, 1)


def test_a_table_mail_over_smtp_opens_its_table(smtp_sink, client):
    event, stage = drawn_event(players=8)
    assert len(smtp_sink.mails) == 8
    mail = next(m for m in smtp_sink.mails if "table 2" in m["Subject"])
    link = next(word for word in text_of(mail).split() if "/t/" in word)
    table = stage.tables.get(number=2)
    assert urlsplit(link).path == table.get_entry_url()
    assert any(p.get_content_type() == "image/png" for p in mail.walk())
    page = client.get(urlsplit(link).path, follow=True)
    assert page.status_code == 200
    assert event.name in page.content.decode()


def test_smtp_down_the_draw_stands_and_the_director_sees_the_failures(smtp_sink, client, settings):
    settings.EMAIL_PORT = 9  # the sink's port closed: nothing listens there
    event, stage = drawn_event(players=4)
    assert stage.tables.exists() and stage.status == "confirmed"
    assert smtp_sink.mails == []
    notices = list(Notice.objects.filter(event=event))
    assert [n.status for n in notices] == [NoticeStatus.FAILED] * 4
    assert {n.attempts for n in notices} == {MAX_RETRIES + 1}
    director = UserFactory()
    MembershipFactory(club=event.club, user=director, role=Role.DIRECTOR)
    client.force_login(director)
    page = client.get(f"/clubs/{event.club.slug}/events/{event.pk}/manage/").content.decode()
    assert "4 failed" in page and page.count("Send again") == 4
