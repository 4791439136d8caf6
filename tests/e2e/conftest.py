"""A real browser (Debian's chromium, driven by Playwright) against a live test server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.browser import (
    CHROMIUM,
    SCRIPTLESS,
    PageProblems,
)

CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def _chromium():
    if not CHROMIUM.exists():
        message = f"browser tests need {CHROMIUM}: apt-get install -y chromium"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to
    # run beside it. The test process is the only client, so the guard protects nothing here.
    # Set only while the browser lives, so no subprocess of another test inherits it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield browser
        finally:
            browser.close()
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


class WatchedBrowser:
    """The session's browser, whose every new page reports to this test's PageProblems."""

    def __init__(self, browser, problems: PageProblems) -> None:
        self._browser = browser
        self.problems = problems
        self.opened: list = []  # closed when the test ends, so no page polls the next test

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        if kwargs.get("java_script_enabled") is False:
            SCRIPTLESS.add(context)
        context.on("page", self.problems.watch)
        self.opened.append(context)
        return context

    def new_page(self, **kwargs):
        page = self._browser.new_page(**kwargs)
        self.problems.watch(page)
        self.opened.append(page)
        return page

    def close_opened(self) -> None:
        for item in reversed(self.opened):
            item.close()
        self.opened.clear()

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture
def browser(_chromium):
    """The browser, for a test that opens its own pages: any of them that breaks the CSP or
    throws fails the test when it ends."""
    problems = PageProblems()
    watched = WatchedBrowser(_chromium, problems)
    yield watched
    watched.close_opened()
    problems.check()


@pytest.fixture
def phone(browser):
    """A phone-sized page: the site's first screen is a phone at a card table. A CSP
    violation or an uncaught script error on it fails the test (at this fixture's teardown)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
    browser.problems.check()
