"""Sending the players' mail: one job per action, in each person's language, never twice,
never to the unsubscribed or the address-less, retried and then FAILED."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction

from core.models import TaskRun
from tests.support.events import drawn_event
from tournaments.models import MailOptOut, Notice, NoticeStatus, Registration
from tournaments.notice_mail import notices_send
from tournaments.notices import MAX_RETRIES, notice_queue, notice_resend, notices_send_task

# Real commits: the mail is sent when the action commits, as on the site.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_draw_mails_every_seated_player_their_table_in_one_job(client):
    event, stage = drawn_event(players=8)
    assert len(mail.outbox) == 8
    assert TaskRun.objects.filter(name="tournaments.notices_send").count() == 1
    seat = stage.tables.get(number=2).seats.select_related("player").first()
    address = Registration.objects.get(event=event, player=seat.player).email
    (message,) = [m for m in mail.outbox if m.to == [address]]
    assert "table 2" in message.subject
    link = next(
        line
        for line in message.body.splitlines()
        if "/t/" in line or ("table" in line and "http" in line)
    )
    assert stage.tables.get(number=2).get_entry_url() in link
    assert message.attachments[0][0] == "table-2.png"
    assert message.attachments[0][1][:8] == b"\x89PNG\r\n\x1a\n"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/unsubscribe/" in message.extra_headers["List-Unsubscribe"]
    assert set(Notice.objects.values_list("status", flat=True)) == {NoticeStatus.SENT}


def test_no_table_mail_unless_the_club_asks():
    drawn_event(players=4, mail_tables=False)
    assert mail.outbox == []
    assert not Notice.objects.exists()


def test_no_address_and_unsubscribed_are_recorded_never_mailed():
    event, _stage = drawn_event(players=4, emails=False)
    assert mail.outbox == []
    assert set(Notice.objects.values_list("status", flat=True)) == {NoticeStatus.SKIPPED}
    registration = Registration.objects.filter(event=event).first()
    registration.email = "Out@Example.com"
    registration.save()
    MailOptOut.objects.create(club=event.club, email="out@example.com", kind="approved")
    notice = notice_queue(kind="approved", registration=registration)
    assert notice.status == NoticeStatus.SKIPPED
    assert mail.outbox == []
    # The same address still gets the kinds it did not unsubscribe from.
    assert notice_queue(kind="received", registration=registration).status == NoticeStatus.QUEUED
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "You have a place"), ("fi", "Sinulla on paikka"), ("hu", "Van helyed")],
)
def test_each_mail_is_in_the_persons_language(language, words):
    event, _stage = drawn_event(players=4, mail_tables=False)
    registration = Registration.objects.filter(event=event).first()
    registration.email, registration.language = "a@example.com", language
    registration.save()
    notice_queue(kind="approved", registration=registration)
    (message,) = mail.outbox
    assert words in message.subject
    assert event.name in message.body


def test_notices_of_one_transaction_go_in_one_job():
    event, _stage = drawn_event(players=4, mail_tables=False)
    registrations = list(Registration.objects.filter(event=event))
    for index, registration in enumerate(registrations):
        registration.email = f"x{index}@example.com"
        registration.save()
    before = TaskRun.objects.count()
    with transaction.atomic():
        for registration in registrations:
            notice_queue(kind="received", registration=registration)
        assert mail.outbox == []  # nothing before the commit
    assert len(mail.outbox) == 4
    assert TaskRun.objects.count() == before + 1


def test_a_rolled_back_action_mails_nobody():
    event, _stage = drawn_event(players=4, mail_tables=False)
    registration = Registration.objects.filter(event=event).first()
    registration.email = "a@example.com"
    registration.save()
    with pytest.raises(RuntimeError), transaction.atomic():
        notice_queue(kind="received", registration=registration)
        raise RuntimeError
    assert mail.outbox == []
    assert not Notice.objects.exists()


def test_a_sent_notice_is_never_sent_again():
    _event, _stage = drawn_event(players=4)
    ids = list(Notice.objects.values_list("pk", flat=True))
    assert len(mail.outbox) == 4
    assert notices_send(notice_ids=ids, last_try=False) == []
    notices_send_task.delay(ids)
    assert len(mail.outbox) == 4


def test_mail_server_down_the_draw_stands_mails_retried_then_failed(broken_smtp):
    _event, stage = drawn_event(players=4)
    assert stage.tables.count() == 1  # the draw committed
    notices = list(Notice.objects.all())
    assert len(notices) == 4
    for notice in notices:
        assert notice.status == NoticeStatus.FAILED
        assert notice.attempts == MAX_RETRIES + 1
        assert "ConnectionRefusedError" in notice.error or "Errno" in notice.error


def test_send_again_sends_a_failed_mail(broken_smtp, settings):
    _event, _stage = drawn_event(players=4)
    notice = Notice.objects.first()
    assert notice.status == NoticeStatus.FAILED
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    notice = notice_resend(notice=notice)
    assert notice.status == NoticeStatus.SENT
    assert notice.attempts == 1
    assert len(mail.outbox) == 1
    # A sent one is not sent again by a second click.
    notice_resend(notice=notice)
    assert len(mail.outbox) == 1


def test_the_send_job_reads_a_fixed_number_of_queries(django_assert_max_num_queries):
    small, _stage = drawn_event(players=4)
    big, _stage = drawn_event(players=40)
    for event in (small, big):
        ids = list(event.notices.values_list("pk", flat=True))
        Notice.objects.filter(pk__in=ids).update(status=NoticeStatus.QUEUED)
        with django_assert_max_num_queries(4):
            notices_send(notice_ids=ids, last_try=False)


def test_the_manage_page_counts_the_mail_and_offers_send_again(broken_smtp, client, settings):
    from tests.support.factories import MembershipFactory, UserFactory
    from tournaments.models import Role

    event, _stage = drawn_event(players=4)
    Notice.objects.filter(pk=Notice.objects.first().pk).update(status=NoticeStatus.SENT)
    director = UserFactory()
    MembershipFactory(club=event.club, user=director, role=Role.DIRECTOR)
    client.force_login(director)
    page = client.get(f"/clubs/{event.club.slug}/events/{event.pk}/manage/")
    html = page.content.decode()
    assert "1 sent" in html
    assert "3 failed" in html
    assert html.count("Send again") == 3
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    failed = Notice.objects.filter(status=NoticeStatus.FAILED).first()
    url = f"/clubs/{event.club.slug}/events/{event.pk}/mail/{failed.pk}/send-again/"
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 302
    assert len(mail.outbox) == 1
    assert (
        "2 failed"
        in client.get(f"/clubs/{event.club.slug}/events/{event.pk}/manage/").content.decode()
    )
    client.logout()
    member = UserFactory()
    MembershipFactory(club=event.club, user=member, role=Role.MEMBER)
    client.force_login(member)
    other = Notice.objects.filter(status=NoticeStatus.FAILED).first()
    url = f"/clubs/{event.club.slug}/events/{event.pk}/mail/{other.pk}/send-again/"
    assert client.post(url).status_code == 403
    assert Notice.objects.get(pk=other.pk).status == NoticeStatus.FAILED


def test_a_stages_table_mails_are_made_once():
    from tournaments.notices import table_notices_queue

    _event, stage = drawn_event(players=4)
    assert Notice.objects.count() == 4
    assert table_notices_queue(stage_id=stage.pk) == []
    assert Notice.objects.count() == 4
    assert len(mail.outbox) == 4


def test_the_sweep_sends_what_no_job_took_and_requeues_lost_table_jobs():
    import datetime

    from django.utils import timezone

    from tournaments.notices import notices_sweep_task

    event, stage = drawn_event(players=4, mail_tables=False)
    registration = Registration.objects.filter(event=event).first()
    # As an action whose queue was down leaves it: made, never handed to a job.
    Notice.objects.create(
        event=event, registration=registration, kind="received", email="late@example.com"
    )
    Notice.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=20))
    # And a draw's table job the queue refused.
    event.club.mail_tables = True
    event.club.save()
    run = TaskRun.objects.create(
        task_id="lost-table-job",
        name="tournaments.table_notices",
        args=[stage.pk],
        state=TaskRun.State.NOT_QUEUED,
        lost_after=timezone.now(),
    )
    assert notices_sweep_task() == 2
    assert sorted(m.to[0] for m in mail.outbox) == [
        "late@example.com",
        "p1@example.com",
        "p2@example.com",
        "p3@example.com",
        "p4@example.com",
    ]
    run.refresh_from_db()
    assert run.state == TaskRun.State.SUCCEEDED
    assert notices_sweep_task() == 0  # nothing twice
    assert len(mail.outbox) == 5


def test_a_registration_without_an_address_is_mailed_at_the_members_account():
    from tests.support.factories import UserFactory
    from tournaments.models import Profile

    event, _stage = drawn_event(players=4, mail_tables=False, emails=False)
    registration = Registration.objects.filter(event=event).select_related("player").first()
    user = UserFactory(email="member@example.com")
    Profile.objects.update_or_create(user=user, defaults={"language": "fi"})
    registration.player.user = user
    registration.player.save()
    notice = notice_queue(kind="approved", registration=registration)
    assert (notice.email, notice.language) == ("member@example.com", "fi")
    (message,) = mail.outbox
    assert message.to == ["member@example.com"]
    assert "Sinulla on paikka" in message.subject


def test_queue_down_the_draw_and_the_registration_stand_and_the_sweep_sends_later():
    import datetime

    from django.utils import timezone

    from tests.support.broker import CLOSED, queue_pointed_at
    from tournaments.notices import notices_sweep_task

    with queue_pointed_at(CLOSED):
        event, stage = drawn_event(players=4)
        registration = Registration.objects.filter(event=event).first()
        notice = notice_queue(kind="received", registration=registration)
    assert stage.tables.exists()  # the draw committed
    assert notice.status == NoticeStatus.QUEUED and mail.outbox == []
    run = TaskRun.objects.get(name="tournaments.table_notices")
    assert run.state == TaskRun.State.NOT_QUEUED
    Notice.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=20))
    notices_sweep_task()  # the queue is back (inline again)
    assert len(mail.outbox) == 5  # the registration mail and the four tables
    assert set(Notice.objects.values_list("status", flat=True)) == {NoticeStatus.SENT}
