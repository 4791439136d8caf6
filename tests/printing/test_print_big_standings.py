"""A big event's standings PDF is made by a print job, the same path as the tables' sheets
(a share, the merge, the job's record), not inside a request: the file once it is made, a
page that waits for it meanwhile, the job reused while the results stay as they are, and
the request's own making when the job queue cannot be reached."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from core.models import TaskRun
from core.tasks import QueueUnavailable
from printing import board_views
from printing.jobs import STANDINGS
from printing.models import PrintJob
from tests.support.events import seated_event
from tests.support.print_state import run_of, state_of
from tests.support.standings import play_night

# Files go to a temporary folder.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]


@pytest.fixture
def big(monkeypatch):
    """An event over the threshold (lowered: the path is the same at 1000 players)."""
    monkeypatch.setattr(board_views, "IN_BACKGROUND_FROM", 10)
    event, tables = seated_event(variant_id="rutupeli", players=16)
    play_night(tables[0], 1)
    return event, tables


def _url(event, **query):
    url = reverse("print_standings", args=[event.club.slug, event.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_standings_pdf_of_a_big_event_is_a_print_job(
    client, big, django_capture_on_commit_callbacks
):
    event, tables = big
    # The job is queued as the request's transaction commits (here the test's: the page
    # waits for it); without a worker it runs then, so the next look gets the file.
    with django_capture_on_commit_callbacks(execute=True):
        first = client.get(_url(event, lang="en"))
    assert first.status_code == 202
    response = client.get(_url(event, lang="en"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Standings" in text and "Player 001" in text
    job = PrintJob.objects.get(kind=STANDINGS)
    assert state_of(job) == "done" and job.params["stage"] is None
    assert run_of(job).state == TaskRun.State.SUCCEEDED
    # Asked again while the results stay as they are: the same file, no new job.
    again = client.get(_url(event, lang="en"))
    assert again.content == response.content and PrintJob.objects.count() == 1
    # A result changes: the next PDF is a new job, made from the results as they are now.
    play_night(tables[1], 1)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(_url(event, lang="en"))
    assert PrintJob.objects.filter(kind=STANDINGS).count() == 2


def test_while_the_job_works_the_visitor_gets_a_page_that_waits_for_it(client, big, monkeypatch):
    event, _tables = big
    job = PrintJob.objects.create(
        event=event, kind=STANDINGS, params={"stage": None, "language": "en", "paper": "A4"}
    )
    monkeypatch.setattr(board_views, "print_job_request", lambda **kwargs: job)
    response = client.get(_url(event, lang="en"))
    assert response.status_code == 202 and response["Retry-After"] == "2"
    html = response.content.decode()
    assert '<meta http-equiv="refresh" content="2">' in html
    assert "The standings are being printed" in html


def test_with_the_queue_down_the_request_makes_the_pdf_itself(client, big, monkeypatch):
    event, _tables = big

    def down(**kwargs):
        raise QueueUnavailable("redis is down")

    monkeypatch.setattr(board_views, "print_job_request", down)
    response = client.get(_url(event, lang="en"))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")


def test_a_small_event_s_standings_are_made_in_the_request(client):
    event, tables = seated_event(variant_id="rutupeli", players=8)
    play_night(tables[0], 1)
    response = client.get(_url(event, lang="en"))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    assert not PrintJob.objects.exists()
