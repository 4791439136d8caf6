"""The site's own 400, 403, 404, 429 and 500 pages, as production (DEBUG off) shows them."""

from __future__ import annotations

import copy

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path, reverse
from django.utils import translation
from django.utils.translation import gettext

from clubsite import urls as site_urls
from core.ratelimit import rate_limit

SECRET = "s3cr3t-internals"


def _boom(request: HttpRequest) -> HttpResponse:
    raise OperationalError(f"could not connect to server: {SECRET}")


@rate_limit(scope="error_pages_test", rate="1/h")
def _limited(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


def broken_context_processor(request: HttpRequest) -> dict[str, object]:
    raise OperationalError(f"the database is down: {SECRET}")


# This module is also the URLconf of its tests: the site's pages, its error handlers, and two
# views that fail on purpose.
urlpatterns = [
    *site_urls.urlpatterns,
    path("boom/", _boom),
    path("limited/", _limited),
]
handler400 = site_urls.handler400
handler403 = site_urls.handler403
handler404 = site_urls.handler404
handler500 = site_urls.handler500

pytestmark = pytest.mark.urls(__name__)

HEADINGS = {
    400: "Bad request",
    403: "Not allowed",
    404: "Page not found",
    429: "Too many requests",
    500: "Something went wrong",
}
FOOTER_FI = "Lappu pitää kerhosi pistekirjanpidon."  # "Lappu keeps your club's scores."


@pytest.fixture(autouse=True)
def production(settings):
    settings.DEBUG = False


def _client(language: str = "fi") -> Client:
    client = Client(raise_request_exception=False)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _assert_error_page(response, status: int, language: str = "fi") -> str:
    assert response.status_code == status
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    with translation.override(language):
        assert gettext(HEADINGS[status]) in html
    if language == "fi":
        assert FOOTER_FI in html
    assert 'href="/static/css/site.css"' in html  # the site's look, not Django's bare page
    for leak in ("Traceback", SECRET, "Exception Value", "Django Version", "Request Method"):
        assert leak not in html
    return html


def _provoke(status: int, client: Client, outsider=None, club=None):
    if status == 400:
        return client.get("/", {"q": "\x00"})  # the NUL guard refuses it
    if status == 403:
        client.force_login(outsider)
        return client.get(reverse("club_members", args=[club.slug]))
    if status == 404:
        return client.get("/no-such-page/")
    if status == 429:
        client.get("/limited/")
        return client.get("/limited/")
    return client.get("/boom/")


@pytest.mark.parametrize(
    "status", [400, 403, 404, pytest.param(429, marks=pytest.mark.rate_limited), 500]
)
def test_each_error_page_is_the_sites_own_in_the_visitors_language(status, club, outsider):
    response = _provoke(status, _client("fi"), outsider=outsider, club=club)
    html = _assert_error_page(response, status)
    assert "Content-Security-Policy" in response.headers
    assert 'name="viewport"' in html  # phone-sized
    assert f'class="error-code">{status}<' in html


@pytest.mark.parametrize("language", ["en", "hu"])
def test_error_pages_follow_the_language_cookie(language, db):
    _assert_error_page(_client(language).get("/no-such-page/"), 404, language)
    _assert_error_page(_client(language).get("/boom/"), 500, language)


def test_a_404_from_a_view_hides_the_exception_text(db):
    response = _client().get(reverse("club_detail", args=["no-such-club"]))
    html = _assert_error_page(response, 404)
    assert "matches the given query" not in html


def test_the_404_page_keeps_the_sites_navigation(db):
    html = _assert_error_page(_client().get("/no-such-page/"), 404)
    assert 'id="language-select"' in html
    assert 'name="next" value="/no-such-page/"' in html  # switching language stays here


def test_the_500_page_needs_no_database_and_no_context_processor(settings):
    # No `db` fixture: any query in this test raises, as with the database down.
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["OPTIONS"]["context_processors"].append(
        "tests.project.test_error_pages.broken_context_processor"
    )
    settings.TEMPLATES = templates
    html = _assert_error_page(_client().get("/boom/"), 500)
    assert 'id="language-select"' not in html  # the bare layout: nothing that needs a request


def test_an_error_page_whose_layout_fails_is_shown_bare(settings, db):
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["OPTIONS"]["context_processors"].append(
        "tests.project.test_error_pages.broken_context_processor"
    )
    settings.TEMPLATES = templates
    html = _assert_error_page(_client().get("/no-such-page/"), 404)
    assert 'id="language-select"' not in html


def test_the_handlers_are_registered_on_the_site():
    assert site_urls.handler400 == "core.views.bad_request"
    assert site_urls.handler403 == "core.views.permission_denied"
    assert site_urls.handler404 == "core.views.page_not_found"
    assert site_urls.handler500 == "core.views.server_error"


def test_a_server_error_reaches_the_operator_by_mail_and_in_the_log(settings, db, caplog):
    """With DEBUG off, Django mails ADMINS each error's report; the log keeps its traceback
    (the console handler of the settings' LOGGING, which the site's own loggers share)."""
    settings.ADMINS = [("Ops", "ops@club.example")]
    with caplog.at_level("ERROR", logger="django.request"):
        _client().get("/boom/")
    assert [message.to for message in mail.outbox] == [["ops@club.example"]]
    assert mail.outbox[0].subject.startswith("[Lappu] ERROR")
    assert SECRET in mail.outbox[0].body  # the operator sees what the visitor never does
    record = next(r for r in caplog.records if r.name == "django.request")
    assert record.exc_info and record.levelname == "ERROR"


@pytest.mark.parametrize("language", ["en", "fi", "hu"])
def test_a_form_the_csrf_check_refuses_gets_the_sites_page(db, language):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(reverse("language_set"), {"language": "fi", "next": "/"})
    assert response.status_code == 403
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    with translation.override(language):
        assert gettext("The form had gone stale") in html
    assert 'href="/static/css/site.css"' in html
    assert "<style" not in html  # Django's own page has inline style, which the CSP refuses
    assert "CSRF cookie not set" not in html  # the reason is for the log
