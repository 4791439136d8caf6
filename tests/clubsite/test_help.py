"""The help inside the site (clubsite/help.py): every page in every language, the "?" links
of the director's screens landing on a heading that exists in each language, and the pages
keeping to the CSP."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from clubsite.help import BY_SLUG, LANGUAGES, PAGES, SECTIONS, rendered_help
from tests.support.csp import inline_code
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

TEMPLATES = Path(settings.BASE_DIR) / "templates"
HELP_LINK = re.compile(r'\{%\s*help_link\s+"([^"]+)"\s+"([^"]+)"\s*%\}')


def _help_links() -> list[tuple[str, str, str]]:
    """Every `{% help_link %}` written in the site's templates: (template, page, section)."""
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for slug, section in HELP_LINK.findall(path.read_text(encoding="utf-8")):
            found.append((str(path.relative_to(TEMPLATES)), slug, section))
    return found


class Anchors(HTMLParser):
    """The ids and links of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")


def _get(client, path: str, language: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(path)


def _anchors(html: str) -> Anchors:
    parser = Anchors()
    parser.feed(html)
    return parser


def _url(slug: str) -> str:
    return reverse("help_index") if slug == "index" else reverse("help_page", args=[slug])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", [page.slug for page in PAGES])
def test_every_page_reads_in_every_language(client, db, slug, language):
    response = _get(client, _url(slug), language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    with translation.override(language):
        title = str(BY_SLUG[slug].title)
    assert f"<h1>{escape(title)}</h1>" in html
    # The file of that language, not English left in place: its own text is on the page.
    own = (TEMPLATES / "help" / language / f"{slug}.md").read_text(encoding="utf-8")
    first_line = next(line for line in own.splitlines() if line and not line.startswith("#"))
    words = []
    for word in first_line.split()[:4]:
        if any(mark in word for mark in "*_[`<"):
            break
        words.append(word)
    assert len(words) >= 2, first_line
    assert " ".join(words) in unescape(re.sub(r"\s+", " ", html))
    # A table of contents (the index: every page), and nothing the CSP would refuse.
    if slug == "index":
        assert all(_url(page.slug) in html for page in PAGES)
    else:
        assert 'class="help-toc"' in html
    assert inline_code(html) == []


def test_the_headings_carry_the_same_ids_in_every_language():
    for page in PAGES:
        english = rendered_help(page.slug, "en").ids
        assert english, page.slug
        for language in ("fi", "hu"):
            assert rendered_help(page.slug, language).ids == english, (page.slug, language)


def test_every_help_link_in_the_templates_lands_on_a_heading_in_every_language(client, db):
    links = _help_links()
    # The director's screens: event creation, manage, registration, check-in, printing,
    # seasons and the league scheme, the roster, merges, settings, the import, the formats.
    assert len(links) >= 20, links
    pages = {}
    for language in LANGUAGES:
        for slug in {slug for _, slug, _ in links}:
            pages[slug, language] = _anchors(_get(client, _url(slug), language).content.decode())
    broken = [
        f"{template}: {slug}#{section} ({language})"
        for template, slug, section in links
        for language in LANGUAGES
        if (slug, section) not in SECTIONS or section not in pages[slug, language].ids
    ]
    assert broken == []


def test_a_link_between_help_pages_finds_its_page_and_heading(client, db):
    """The pages link one another (`../confirmation/#pins`) in each language's own file."""
    broken = []
    for language in LANGUAGES:
        for page in PAGES:
            path = _url(page.slug)
            body = rendered_help(page.slug, language).html
            for link in _anchors(body).links:
                target = urlsplit(urljoin(path, link))
                if target.netloc:
                    continue
                response = _get(client, target.path, language)
                if response.status_code != 200:
                    broken.append(f"{language} {page.slug}: {link} → {response.status_code}")
                elif (
                    target.fragment
                    and target.fragment not in _anchors(response.content.decode()).ids
                ):
                    broken.append(f"{language} {page.slug}: {link} → no #{target.fragment}")
    assert broken == []


def test_the_question_mark_is_a_link_named_for_the_section():
    with translation.override("fi"):
        html = Template('{% load help_tags %}{% help_link "club-night" "draw" %}').render(Context())
    assert 'href="/help/club-night/#draw"' in html
    assert '<span aria-hidden="true">?</span>' in html
    assert '<span class="visually-hidden">Ohje: Pöytien arvonta</span>' in html


def test_the_directors_manage_page_links_its_help(client, db):
    event, _ = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    html = client.get(reverse("event_manage", args=[event.club.slug, event.pk])).content.decode()
    assert 'href="/help/club-night/#draw"' in html
    assert 'href="/help/club-night/#registration"' in html


def test_every_page_of_the_site_links_the_help(client, db):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("help_index")}"' in html


@pytest.mark.parametrize("path", ["/help/no-such-page/", "/help/index/", "/help/../settings/"])
def test_an_unknown_help_page_is_not_found(client, db, path):
    assert client.get(path).status_code == 404


def test_a_help_page_is_rendered_once_per_language(client, db):
    rendered_help.cache_clear()
    _get(client, _url("printing"), "hu")
    _get(client, _url("printing"), "hu")
    _get(client, _url("printing"), "fi")
    info = rendered_help.cache_info()
    assert (info.misses, info.hits) == (2, 1)


def test_a_help_page_asks_the_database_almost_nothing(client, db, django_assert_max_num_queries):
    event, _ = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    _get(client, _url("club-night"), "fi")
    # The session and the signed-in user (2 queries): the help itself reads no table.
    with django_assert_max_num_queries(2):
        assert _get(client, _url("club-night"), "fi").status_code == 200


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_club_night_guide_starts_at_registration(language):
    """The guide to a club night (the README's "Running a club night" once) follows the night
    as it happens: players register, are checked in at the door, then the draw."""
    html = rendered_help("club-night", language).html
    order = [html.index(f'id="{section}"') for section in ("registration", "check-in", "draw")]
    assert order == sorted(order)
    first = re.sub(r"<[^>]+>", "", html.split("<h2", 1)[0])
    registers = {"en": "players register", "fi": "ilmoittautuvat", "hu": "jelentkeznek"}
    assert registers[language] in first
