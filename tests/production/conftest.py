"""The production lane's fixtures: one stack for the whole lane, crawled once."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import pytest
from django.urls import Resolver404, resolve

from tests.production.browser import Answer, Crawl, Visitor
from tests.production.stack import Stack, build_stack, tls_context
from tests.support.production import REDIS_URL, SERVER_URL, Crawled, reachable

TABLE_LINK = re.compile(r"^/t/[^/?]+/$")


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not (reachable(SERVER_URL, 5432) and reachable(REDIS_URL, 6379)):
        pytest.skip("the production lane needs PostgreSQL and Redis (make test says so in CI)")
    if shutil.which("caddy") is None:
        pytest.fail("the production lane runs behind Caddy: apt-get install caddy (.ci/run does)")
    with build_stack(
        tmp_path_factory.mktemp("production"),
        server_url=SERVER_URL,
        redis_url=REDIS_URL,
        proxied=True,
    ) as built:
        Visitor.trust(tls_context(built))
        yield built
        Visitor.trust(None)


def _signed_out(path: str) -> bool:
    # Signing out would end a crawl half-way (it is a POST anyway).
    return path.startswith(("/accounts/logout", "/admin/logout"))


@pytest.fixture(scope="session")
def crawled(stack: Stack) -> Crawled:
    """Every page and file reachable from the demo: as a stranger, as the club's director,
    and as a phone at each table (its link opened, a seat taken, then everything it links)."""
    anonymous = Crawl(stack.base).run(Visitor(stack.base, "anonymous"), ["/"])
    director = Visitor(stack.base, "director")
    director.sign_in("director", "director")
    director_answers = Crawl(stack.base, skip=_signed_out).run(director, ["/"])
    links = sorted({answer.path for answer in director_answers if TABLE_LINK.match(answer.path)})
    phones = Crawl(stack.base)
    table_answers: list[Answer] = []
    for link in links:
        phone = Visitor(stack.base, "table")
        first = phone.get(link)
        seat = re.search(r'name="seat" value="(\d+)" class="big">', first.text)
        if seat:  # a table still being played: sit down, so the entry page is crawled too
            phone.post(link + "seat/", {"seat": seat[1]}, form_page=link)
        phones.seen.discard(link)
        table_answers += phones.run(phone, [link])
    # The site admin's screens, with Django's own static files: every kind of admin page
    # (the list, the change page, the history... of each model) a few times, not every row's.
    admin = Visitor(stack.base, "admin")
    admin.sign_in("admin", "admin")
    admin_answers = Crawl(
        stack.base,
        skip=lambda path: not path.startswith(("/admin/", "/static/")) or _signed_out(path),
        shape=_admin_shape,
    ).run(admin, ["/admin/"])
    return Crawled(anonymous, director_answers, table_answers, admin_answers, links)


def _admin_shape(path: str) -> str:
    if path.startswith("/static/"):
        return path
    try:
        return resolve(path.split("?")[0]).url_name or path
    except Resolver404:
        return path
