"""The production lane: the site as the Docker image runs it (DEBUG=0, collected static files
under their hashed names, gunicorn with the Dockerfile's options, PostgreSQL, Redis, a real
Celery worker), crawled and printed from as its users would.

Every test here reads the one stack `conftest.stack` builds; `make test` runs the lane after
the PostgreSQL pass, and with CI=true a lane that cannot run is a failure.
"""

from __future__ import annotations

import io
import json
import re
import socket
import subprocess
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from pypdf import PdfReader

from clubsite.help import PAGES
from tests.production.browser import Answer, Visitor
from tests.production.stack import (
    ROOT,
    dockerfile_healthcheck,
    tls_context,
    worker_healthcheck,
)
from tests.support.production import Crawled
from tests.support.waiting import wait_until

pytestmark = pytest.mark.production

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _url_name(path: str) -> str:
    try:
        return resolve(path.split("?")[0]).url_name or "?"
    except Resolver404:
        return "(none)"


def _routes(resolver: URLResolver, prefix: str = "") -> list[tuple[str, str]]:
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += _routes(entry, route)
        elif isinstance(entry, URLPattern) and entry.name:
            found.append((route, entry.name))
    return found


# Every printed kind the site offers: each address ending in .pdf, and a print job's file.
PDF_KINDS = sorted({name for route, name in _routes(get_resolver()) if route.endswith(".pdf")})


def _report(crawled: Crawled) -> str:
    lines = []
    for label, answers in (
        ("anonymous", crawled.anonymous),
        ("director", crawled.director),
        ("table phones", crawled.tables),
        ("site admin", crawled.admin),
    ):
        statuses = Counter(answer.status for answer in answers)
        kinds = Counter(answer.content_type for answer in answers if answer.status == 200)
        lines.append(
            f"{label}: {len(answers)} loads; statuses "
            + ", ".join(f"{code}×{n}" for code, n in sorted(statuses.items()))
            + "; files "
            + ", ".join(f"{kind or '?'}×{n}" for kind, n in kinds.most_common())
        )
    everything = crawled.answers
    lines.append(
        f"all: {len(everything)} loads of {len({a.path for a in everything})} addresses, "
        f"{len(crawled.table_links)} table links, "
        f"{sum(a.status >= 500 for a in everything)} server errors"
    )
    return "\n".join(lines)


def test_no_address_reachable_from_the_demo_answers_a_server_error(crawled, stack):
    report = _report(crawled)
    print("\n" + report)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "production-lane.txt").write_text(report + "\n")
    errors = [f"{a.status} {a.visitor} {a.path}" for a in crawled.answers if a.status >= 500]
    assert not errors, f"{len(errors)} server errors:\n" + "\n".join(errors[:40])
    # A server error that a page caught and hid still leaves its traceback in the log.
    log = stack.log("gunicorn")
    assert "Traceback" not in log, log[log.index("Traceback") - 2000 :][:6000]


def test_the_crawl_reaches_every_kind_of_page_and_file(crawled):
    """The crawl is only as good as what it reaches: each visitor's share of the site."""
    reached = {(a.visitor, _url_name(a.path)) for a in crawled.answers if a.status == 200}
    for visitor, name in [
        ("anonymous", "home"),
        ("anonymous", "club_detail"),
        ("anonymous", "event_public"),
        ("anonymous", "event_screen"),
        ("anonymous", "event_standings_feed"),
        ("anonymous", "ranking_export"),
        ("anonymous", "season_league"),
        ("anonymous", "player_record"),
        ("director", "event_manage"),
        ("director", "event_tables"),
        ("director", "club_players"),
        ("director", "player_new"),
        ("director", "history_import"),
        ("director", "account"),
        ("anonymous", "account_signup"),
        ("director", "club_start"),
        ("director", "invitation_list"),
        ("director", "invitation_new"),
        ("anonymous", "privacy"),
        ("director", "my_data"),
        ("director", "player_privacy"),
        ("table", "table_entry"),
        ("director", "table_qr"),
        ("table", "table_live"),
        ("admin", "index"),
        ("admin", "scoring_deal_changelist"),
        ("admin", "scoring_deal_change"),
        ("anonymous", "help_index"),
        ("anonymous", "help_page"),
        ("director", "help_page"),
    ]:
        assert (visitor, name) in reached, f"the {visitor} crawl never reached {name}"
    static = [a for a in crawled.answers if a.path.startswith("/static/") and a.status == 200]
    # Collected under hashed names (site.1a2b3c4d5e6f.css), fonts included.
    assert any(re.search(r"/static/css/site\.[0-9a-f]{12}\.css$", a.path) for a in static)
    assert all(a.status != 404 for a in crawled.answers if a.path.startswith("/static/"))


def test_the_crawl_reads_every_help_page_and_follows_its_links(crawled):
    """The help is reached from every page's navigation: each of its pages answers, and no
    link in it (to another help page, to the site's own pages) is broken."""
    help_answers = [a for a in crawled.anonymous if a.path.startswith("/help/")]
    reached = {a.path for a in help_answers if a.status == 200}
    for page in PAGES:
        path = "/help/" if page.slug == "index" else f"/help/{page.slug}/"
        assert path in reached, f"the crawl never read {path}"
    assert [f"{a.status} {a.path}" for a in help_answers if a.status != 200] == []


def _fonts(reader: PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for font in fonts.values():
            names.add(str(font.get_object().get("/BaseFont", "")))
    return names


def _check_pdf(answer: Answer) -> PdfReader:
    assert answer.body.startswith(b"%PDF-"), f"{answer.path} is not a PDF"
    reader = PdfReader(io.BytesIO(answer.body))
    assert len(reader.pages) >= 1, answer.path
    assert reader.pages[0].extract_text().strip(), f"{answer.path}: page 1 has no text"
    # The shipped fonts (print/base.html names them Lappu Sans and Lappu Condensed), read
    # through the static storage under their hashed names: a sheet whose fonts were not
    # found would fall back to whatever fonts the server has, or fail.
    fonts = _fonts(reader)
    assert fonts and all(re.search(r"\+Lappu-(Sans|Condensed)", n) for n in fonts), fonts
    return reader


def test_one_pdf_of_every_kind_is_a_whole_pdf_in_the_shipped_fonts(crawled):
    pdfs: dict[str, list[Answer]] = {}
    for answer in crawled.answers:
        name = _url_name(answer.path)
        if name in PDF_KINDS:
            pdfs.setdefault(name, []).append(answer)
    assert set(pdfs) == set(PDF_KINDS), f"not reached: {set(PDF_KINDS) - set(pdfs)}"
    checked = 0
    for _kind, answers in sorted(pdfs.items()):
        assert all(a.status == 200 and a.content_type == "application/pdf" for a in answers), [
            (a.status, a.path) for a in answers if a.status != 200
        ]
        for answer in answers:
            _check_pdf(answer)
            checked += 1
    print(f"\n{checked} PDFs of {len(pdfs)} kinds read back: {sorted(pdfs)}")


def test_a_print_job_runs_on_the_worker_to_its_download(crawled, stack):
    director = Visitor(stack.base, "director")
    director.sign_in("director", "director")
    form = None
    for answer in crawled.director:
        if _url_name(answer.path) == "event_manage" and answer.status == 200:
            form = re.search(
                r'action="(?P<action>[^"]+/print/)"[^>]*>.*?'
                r'<input type="hidden" name="stage" value="(?P<stage>\d+)">.*?'
                r'<option value="Letter"[^>]*>.*?name="kind" value="table_sheets"',
                answer.text,
                re.DOTALL,
            )
            if form:
                manage = answer.path
                break
    assert form, "no manage page offers a print job"
    started = director.post(
        form["action"],
        {"kind": "table_sheets", "stage": form["stage"], "paper": "Letter"},
        form_page=manage,
    )
    assert started.status == 302, started.status
    job_page = started.headers["Location"]

    def download_link() -> re.Match[str] | None:
        page = director.get(job_page)
        assert page.status == 200, page.status
        assert "The print job failed" not in page.text, page.text
        return re.search(r'id="print-download" href="([^"]+)"', page.text)

    download = wait_until(
        download_link,
        timeout=180,
        what="the print job to finish",
        interval=1,
        detail=lambda: stack.log("worker")[-4000:],
    )
    answer = director.get(download[1])
    assert answer.status == 200 and answer.content_type == "application/pdf", (
        download[1],
        answer.status,
        answer.text[:2000],
        stack.log("web")[-3000:],
    )
    reader = _check_pdf(answer)
    # Each table's sheet is linked once per paper (and with the reader's language), so the
    # tables are counted by their sheet's path.
    tables = len(
        set(
            re.findall(
                r'href="([^"?]+)/sheet\.pdf[?"]',
                director.get(manage.replace("manage/", "tables/")).text,
            )
        )
    )
    assert tables, "the tables page links no table's sheet"
    assert len(reader.pages) == tables, "one page per table of the stage"
    # Printed on the paper asked for: Letter is 612 × 792 points (A4 is 595 × 842).
    assert [round(float(side)) for side in reader.pages[0].mediabox[2:]] == [612, 792]
    # On the worker's canvas: the job's task became a chord of shares and a merge, which
    # ran under the job's own task id.
    log = stack.log("worker")
    assert re.search(r"Task printing\.print_share_task\[[^]]+\] succeeded", log)
    merged = re.search(r"Task printing\.print_merge_task\[([^]]+)\] succeeded", log)
    assert merged and re.search(rf"Task printing\.print_job_task\[{merged[1]}\] received", log)
    print(f"\nprint job: {len(reader.pages)} pages, made on the worker")


def test_security_headers_and_cookie_flags(crawled, stack):
    visitor = Visitor(stack.base, "headers")
    page = visitor.get("/accounts/login/")
    assert page.status == 200
    headers = page.headers
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    csp = headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"

    visitor.sign_in("director", "director")
    visitor.post("/language/", {"language": "hu", "next": "/"}, form_page="/")
    phone = Visitor(stack.base, "phone")
    for link in crawled.table_links:
        seat = re.search(r'name="seat" value="(\d+)" class="big">', phone.get(link).text)
        if seat:
            assert phone.post(link + "seat/", {"seat": seat[1]}, form_page=link).status == 302
            break
    cookies = {**visitor.set_cookies, **phone.set_cookies}
    for name in ("sessionid", "csrftoken", "django_language", "lappu_device"):
        assert name in cookies, f"{name} was never set: {sorted(cookies)}"
        morsel = cookies[name]
        assert morsel["secure"], f"{name} is not Secure"
        assert morsel["httponly"], f"{name} is not HttpOnly"
        assert morsel["samesite"] == "Lax", f"{name}: SameSite={morsel['samesite']!r}"

    # Plain HTTP (no proxy saying https) is sent to HTTPS; the health probe is not.
    plain = Visitor(stack.upstream, "plain", proxied=False)
    redirect = plain.get("/")
    assert redirect.status == 301
    assert redirect.headers["Location"].startswith("https://")
    health = plain.get("/healthz", {"Host": "container-name:8000"})
    assert health.status == 200, health.text
    assert health.headers.get("Set-Cookie") is None


def test_static_files_are_served_hashed_compressed_and_cached_for_a_year(crawled, stack):
    visitor = Visitor(stack.base, "static")
    home = visitor.get("/")
    css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', home.text)
    assert css, "the page does not link the hashed stylesheet"
    answer = visitor.get(css[1], {"Accept-Encoding": "gzip"})
    assert answer.status == 200
    assert answer.headers["Content-Encoding"] == "gzip"
    assert "immutable" in answer.headers["Cache-Control"]
    assert "max-age=315360000" in answer.headers["Cache-Control"]


def test_error_pages_are_the_sites_own_and_tell_nothing(stack):
    visitor = Visitor(stack.base, "errors")
    missing = visitor.get("/no-such-page/")
    assert missing.status == 404
    assert 'class="site-header"' in missing.text
    assert "DEBUG" not in missing.text and "URLconf" not in missing.text
    # The proxy serves only SITE_HOST: another name gets nothing of the site...
    elsewhere = visitor.get("/", {"Host": "evil.example"})
    assert elsewhere.status < 500 and 'class="site-header"' not in elsewhere.text
    # ...and gunicorn, reached some other way, answers it with its own 400 page.
    bad_host = Visitor(stack.upstream, "errors-direct").get("/", {"Host": "evil.example"})
    assert bad_host.status == 400
    assert "evil.example" not in bad_host.text and "ALLOWED_HOSTS" not in bad_host.text


def test_a_password_reset_mail_carries_a_working_link_used_once(stack):
    visitor = Visitor(stack.base, "reset")
    stack.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User;"
        "User.objects.filter(username='member').update(email='member@lane.invalid')",
    )
    before = set(stack.mail.glob("*")) if stack.mail.exists() else set()
    for address in ("member@lane.invalid", "nobody@lane.invalid"):
        done = visitor.post("/accounts/password/reset/", {"email": address})
        assert done.status == 302 and done.headers["Location"].endswith("/reset/sent/")
    sent = wait_until(lambda: _sent(stack, before), timeout=30, what="a mail", interval=0.3)
    assert len(sent) == 1, "one mail for the known address, none for the unknown one"
    mail = next(iter(sent)).read_text()
    assert "member@lane.invalid" in mail and "nobody@lane.invalid" not in mail
    link = re.search(re.escape(stack.env["SITE_URL"]) + r"(/accounts/reset/\S+/)", mail)
    assert link, mail
    confirm = visitor.get(link[1])
    assert confirm.status == 302  # Django swaps the token for a session-held one
    form = confirm.headers["Location"]
    new = {"new_password1": "a long new pass 7", "new_password2": "a long new pass 7"}
    assert visitor.post(form, new).status == 302
    again = Visitor(stack.base, "again").get(link[1])
    assert again.status == 200 and 'class="error"' in again.text
    Visitor(stack.base, "member").sign_in("member", "a long new pass 7")


def _sent(stack, before: set) -> set:
    """The mails the stack's mailer wrote since `before`."""
    return set(stack.mail.glob("*")) - before if stack.mail.exists() else set()


def _new_mail(stack, before: set) -> str:
    sent = wait_until(lambda: _sent(stack, before), timeout=30, what="a mail", interval=0.3)
    return next(iter(sent)).read_text()


def test_a_sign_up_mail_verifies_behind_the_proxy_and_the_account_starts_a_club(stack):
    visitor = Visitor(stack.base, "signup")
    before = set(stack.mail.glob("*")) if stack.mail.exists() else set()
    password = "a long new pass 7"
    done = visitor.post(
        "/accounts/signup/",
        {"username": "lane-signup", "email": "signup@lane.invalid",
         "password1": password, "password2": password},
    )  # fmt: skip
    assert done.status == 302, done.text
    assert done.headers["Location"].endswith("/accounts/confirm-email/")
    mail = _new_mail(stack, before)
    link = re.search(re.escape(stack.env["SITE_URL"]) + r"(/accounts/confirm-email/\S+/)", mail)
    assert link, mail
    assert visitor.get(link[1]).status == 200
    assert visitor.post(link[1], {}).status == 302
    started = visitor.post(
        "/clubs/new/",
        {"name": "Lane Club", "slug": "", "language": "fi", "time_zone": "Europe/Helsinki"},
    )
    assert started.status == 302 and started.headers["Location"].endswith("/clubs/lane-club/")
    assert visitor.get("/clubs/lane-club/invitations/new/").status == 200


def test_the_images_and_composes_health_checks_pass_against_the_running_stack(stack):
    """The very commands Docker runs: the image's HEALTHCHECK against gunicorn, compose's
    against the worker."""
    web = subprocess.run(
        dockerfile_healthcheck(stack.port), env=stack.env, capture_output=True, timeout=30
    )
    assert web.returncode == 0, web.stderr
    worker = subprocess.run(
        worker_healthcheck(),
        shell=True,
        cwd=ROOT,
        env={**stack.env, "HOSTNAME": socket.gethostname()},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert worker.returncode == 0, worker.stdout + worker.stderr
    assert "pong" in worker.stdout


def test_a_tables_offline_worker_names_only_collected_files(crawled, stack):
    """The service worker that lets a table's page open with no network (scoring/install.py)
    caches the site's files under the names the image collected: one missing name and the
    worker never installs, so the page would not survive an outage."""
    assert crawled.table_links, "the crawl found no table link"
    visitor = Visitor(stack.base, "offline")
    link = crawled.table_links[0]
    worker = visitor.get(link + "sw.js")
    assert worker.status == 200, worker.status
    assert worker.headers["Content-Type"].startswith("text/javascript")
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", worker.text)[1])
    assert config["page"] == link and config["assets_first"] is True
    assert config["queue"] in config["assets"]
    for path in config["assets"]:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", path), f"{path} is not under its hashed name"
        assert visitor.get(path).status == 200, path
    # The page it keeps registers it, and says which of this phone's saves landed.
    page = visitor.get(link)
    assert page.status == 200
    assert f'data-worker="{link}sw.js"' in page.text and "data-recorded=" in page.text


def test_half_sent_requests_hold_no_worker_behind_the_proxy(stack):
    """Three connections that send half a request and wait froze gunicorn's sync workers
    when it was published directly (/healthz waited 20 s). Behind the proxy, which reads
    each request whole before gunicorn sees it, the site answers at once."""
    host, port = urlsplit(stack.base).hostname, urlsplit(stack.base).port
    context = tls_context(stack)
    assert context is not None, "the lane runs behind the proxy"
    stalled = []
    for _ in range(6):  # twice gunicorn's workers
        raw = socket.create_connection((host, port), timeout=5)
        conn = context.wrap_socket(raw, server_hostname=host)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        stalled.append(conn)
    try:
        started = time.monotonic()
        answer = Visitor(stack.base, "probe").get("/healthz")
        waited = time.monotonic() - started
        assert answer.status == 200
        assert waited < 1.0, (
            f"/healthz waited {waited:.2f} s behind {len(stalled)} half-sent requests"
        )
        page = Visitor(stack.base, "after").get("/")
        assert page.status == 200
    finally:
        for conn in stalled:
            conn.close()
