"""Helpers moved from tests.e2e.conftest."""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Iterable
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.waiting import wait_until
from tournaments.models import Event, Player, Role
from tournaments.services import event_create, registration_add

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))


class PageProblems:
    """What the pages of one test said on their consoles, and what they threw.

    A page that breaks the Content-Security-Policy still mostly works (the refused inline
    script just does nothing), so nothing else in a test would notice: the console does.
    """

    def __init__(self) -> None:
        self.console: list[str] = []  # every console line, for the failure message
        self.problems: list[str] = []  # CSP violations and uncaught errors: each fails the test

    def watch(self, page) -> None:
        page.on("console", lambda message: self._console(page, message))
        page.on(
            "pageerror", lambda error: self.problems.append(f"page error on {page.url}: {error}")
        )

    def _console(self, page, message) -> None:
        line = f"console {message.type} on {page.url}: {message.text}"
        self.console.append(line)
        if "Content Security Policy" in message.text:
            self.problems.append(line)

    def check(self) -> None:
        problems, self.problems = self.problems, []
        if problems:
            pytest.fail(
                "the browser reported problems:\n  "
                + "\n  ".join(problems)
                + "\nits console:\n  "
                + "\n  ".join(self.console),
                pytrace=False,
            )


def director_of(club, username: str = "dora"):
    """A director of `club` whose password is their username, for `sign_in`."""
    director = MembershipFactory(club=club, role=Role.DIRECTOR, user__username=username).user
    director.set_password(username)
    director.save()
    return director


def director_event(
    *, names: Iterable[str] = (), language: str = "en", club_name: str | None = None, **options
) -> tuple[Event, list[Player]]:
    """A published event of a new club with a director "dora" and `names` checked in (in that
    order): what a browser test of the director's night starts from."""
    club = ClubFactory(language=language, **({"name": club_name} if club_name else {}))
    director_of(club)
    event = event_create(published=True, club=club, **options)
    players = [Player.objects.create(club=club, name=name) for name in names]
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    return event, players


def sign_in(page, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    # The click returns before the answer that sets the session's cookie: a test's next
    # `goto` would otherwise cancel it now and then, and land on this form again.
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def cut_network(page) -> None:
    """The phone's network cut, and only once its page knows it: a form sent while the page
    still says online is sent as online (the race a test would otherwise lose now and then)."""
    page.context.set_offline(True)
    wait_until(
        lambda: page.evaluate("() => !navigator.onLine"),
        timeout=5,
        what="the page to learn that the network was cut",
        interval=0.05,
    )


def shoot(page, name: str) -> Path:
    """Save what the page shows under tests/artifacts/ (ignored by git) for a person to look at,
    after checking it with axe: every page a test looks at is a page a person may read with a
    screen reader, a keyboard or a thumb."""
    check_accessibility(page)
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


WIDTHS = (390, 1280)  # a phone at the card table, the director's laptop


def shoot_widths(page, name: str) -> list[Path]:
    """`shoot` the page at each of `WIDTHS` (as `<name>-<width>.png`), ending at the width
    it had: a director's page is used on a laptop as much as on a phone."""
    before = page.viewport_size
    paths = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        paths.append(shoot(page, f"{name}-{width}"))
    if before is not None:
        page.set_viewport_size(before)
    return paths


# axe-core (tests/e2e/vendor/axe-core/README.md): a test-only file, never served by the site.
AXE = Path(__file__).resolve().parents[1] / "e2e" / "vendor" / "axe-core" / "axe.min.js"


AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    # Best practices beyond WCAG that a phone at a card table and a screen reader both need.
    "rules": {
        rule: {"enabled": True}
        for rule in (
            "landmark-unique",
            "region",
            "heading-order",
            "target-size",
            "scrollable-region-focusable",
            "empty-table-header",
        )
    },
    # Each frame is checked on its own (below): axe in the top page cannot reach into a frame
    # of another origin it was not injected into.
    "iframes": False,
    "resultTypes": ["violations"],
}


AXE_RUN = "options => axe.run(document, options)"


# Contexts opened without script (`java_script_enabled=False`), whose pages axe still checks.
SCRIPTLESS: weakref.WeakSet = weakref.WeakSet()


def check_accessibility(page) -> None:
    """Fail the test on any axe violation on the page or any of its frames, naming each."""
    found: list[str] = []
    for frame, violations in _axe_results(page):
        for violation in violations:
            targets = "; ".join(
                " ".join(str(part) for part in node["target"]) for node in violation["nodes"]
            )
            found.append(f"{violation['id']} ({violation['help']}) on {frame}: {targets}")
    if found:
        pytest.fail("axe found on the page:\n  " + "\n  ".join(found), pytrace=False)


def _axe_results(page):
    """Each frame's address and axe's violations there.

    axe is evaluated through the browser's debugging protocol, not added as a <script> of
    the page, so the site's Content-Security-Policy (no inline script) neither refuses it
    nor needs loosening.
    """
    if page.context in SCRIPTLESS:
        yield from _axe_results_scriptless(page)
        return
    # A click on a link returns once the browser has started to follow it, not once the next
    # page is there: axe may begin in the page being left and fail when its document goes
    # (or pass it, judging the wrong page). So axe looks again until one document, the one
    # the test is on, was there from before it began to after it ended.
    for attempt in range(1, 4):
        page.wait_for_load_state("load")
        before = _document_of(page)
        if before is None:
            continue
        try:
            results = [(frame.url, _axe_frame(frame)) for frame in page.frames]
        except PlaywrightError:
            if attempt == 3 or _document_of(page) == before:
                raise
            continue
        if _document_of(page) == before:
            yield from results
            return
    pytest.fail("the page kept changing while axe looked at it", pytrace=False)


def _axe_frame(frame) -> list:
    if not frame.evaluate("() => Boolean(window.axe)"):
        frame.evaluate(AXE.read_text())
    return frame.evaluate(AXE_RUN, AXE_OPTIONS)["violations"]


def _document_of(page):
    """Which document the page shows (its address and when it began), or None while it
    changes: two reads that agree were made in one document."""
    try:
        return page.evaluate("() => [location.href, performance.timeOrigin]")
    except PlaywrightError:
        return None


def _axe_results_scriptless(page):
    """axe's violations on a page opened without script.

    axe waits on timers, which never fire in such a page: it looks instead at the same
    document, its scripts taken out and its <noscript> parts shown as they were, at the same
    address and size in a page that runs script.
    """
    html = page.content()
    html = re.sub(r"<script\b[^>]*>.*?</script>", "", html, flags=re.DOTALL)
    html = re.sub(r"</?noscript>", "", html)
    context = page.context.browser.new_context(viewport=page.viewport_size)
    try:
        copy = context.new_page()
        copy.route(page.url, lambda route: route.fulfill(body=html, content_type="text/html"))
        copy.goto(page.url)
        yield from _axe_results(copy)
    finally:
        context.close()


# Rutupeli: seat 0 goes out; the others' hands left (as tests/scoring's deal_post enters them).
DEALS = {1: ("AS KD", "7H", "QS"), 2: ("2D 3D", "KH", "5C 6C")}


def ready_offline(page) -> None:
    """The table's worker runs the page and keeps a copy of it: the network may go. (Asked
    from here: wait_for_function's polling would evaluate a string, which the CSP refuses.)"""
    ready = (
        "async () => Boolean(navigator.serviceWorker.controller) && "
        "Boolean(await caches.match(document.getElementById('offline').dataset.page))"
    )
    wait_until(
        lambda: page.evaluate(ready),
        timeout=30,
        what="the table's service worker to run the page",
        interval=0.1,
    )


def enter_offline_deal(page, number: int) -> None:
    """Deal `number` of DEALS, entered as a phone does (the fields of closed folds set as
    typing would)."""
    expect(page.locator("h2.deal-title")).to_have_text(f"Deal {number}")
    page.locator("input[name=out][value='0']").check(force=True)
    for seat, cards in enumerate(DEALS[number], start=1):
        page.locator(f"input[name=p{seat}_cards]").evaluate(
            "(field, cards) => { field.value = cards;"
            " field.dispatchEvent(new Event('input', {bubbles: true})); }",
            cards,
        )
    page.get_by_role("button", name="Submit").click()
