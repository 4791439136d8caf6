"""A table's page can sit on a phone's home screen (its own manifest, icons, theme colour)
and stays out of search engines; /favicon.ico answers."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tests.support.events import seated_event
from tournaments.services import table_key_revoke

pytestmark = pytest.mark.django_db


def _static_path(url: str) -> str:
    return url.removeprefix("/static/")


def test_the_table_page_links_its_own_manifest_and_is_not_indexed(client: Client):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    page = client.get(table.get_entry_url())
    text = page.content.decode()
    manifest_url = reverse("table_manifest", args=[table.entry_key])
    assert f'<link rel="manifest" href="{manifest_url}" crossorigin="use-credentials">' in text
    assert '<meta name="robots" content="noindex, nofollow">' in text
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="theme-color" content="#0b3a57">' in text
    assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in text
    assert finders.find("icons/apple-touch-icon.png")

    answer = client.get(manifest_url)
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == f"Table 1 · {event.name}" and manifest["short_name"] == "Table 1"
    assert manifest["start_url"] == manifest["scope"] == table.get_entry_url()
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#0b3a57"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(_static_path(icon["src"])), icon


def test_the_manifest_is_in_the_pages_language(client: Client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = reverse("table_manifest", args=[table.entry_key])
    manifest = json.loads(client.get(url, headers={"accept-language": "fi"}).content)
    assert manifest["lang"] == "fi" and manifest["short_name"] == "Pöytä 1"


def test_every_answer_of_a_table_link_is_kept_out_of_search_engines(client: Client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    key = table.entry_key
    for url in (reverse("table_live", args=[key]), reverse("table_qr", args=[key])):
        assert client.get(url)["X-Robots-Tag"] == "noindex, nofollow", url
    table_key_revoke(table=table)
    gone = client.get(reverse("table_entry", args=[key]))
    assert gone.status_code == 404 and gone["X-Robots-Tag"] == "noindex, nofollow"
    assert client.get(reverse("table_manifest", args=[key])).status_code == 404


def test_favicon_ico_answers_with_the_sites_icon(client: Client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302 and answer["Location"].endswith(".ico")
    assert finders.find(_static_path(answer["Location"]))
