"""What a table meets on its page: every card a hand can hold has its tap key, the confirming
phone sees what it confirms, a Gin Römi match says who pays whom, a Tízlapos Römi re-entry is
explained, and the fields' examples read in every language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules import hand_from_text
from tests.scoring.conftest import seated_event
from tests.scoring.test_entry_views import seated_client

pytestmark = pytest.mark.django_db


def _page(table, position: int = 0) -> str:
    page = seated_client(table, position).get(reverse("table_entry", args=[table.entry_key]))
    assert page.status_code == 200
    return page.content.decode()


def _tap_codes(html: str) -> list[str]:
    row = re.search(r'<div class="tap-row".*?</div>', html, re.S)
    assert row is not None
    return [code for code in re.findall(r'data-card="([^"]*)"', row[0]) if code]


@pytest.mark.parametrize("variant_id", ["ravaytys", "rutupeli"])
def test_every_tap_key_prices(variant_id):
    _event, (table, *_rest) = seated_event(variant_id=variant_id, players=4)
    codes = _tap_codes(_page(table))
    for code in codes:
        hand_from_text(table.variant, code)  # raises on a key the engine cannot price


def test_ravaytys_taps_each_two_by_its_suit():
    _event, (table, *_rest) = seated_event(variant_id="ravaytys", players=4)
    html = _page(table)
    codes = _tap_codes(html)
    assert "2" not in codes
    assert {"2H", "2D", "2S", "2C", "JK"} <= set(codes)
    assert '<button type="button" class="tap red" data-card="2H">♥2</button>' in html


def test_rutupeli_keeps_its_plain_two():
    _event, (table, *_rest) = seated_event(variant_id="rutupeli", players=4)
    codes = _tap_codes(_page(table))
    assert "2" in codes
    assert not {"2H", "2S", "JK"} & set(codes)
