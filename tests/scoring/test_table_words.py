"""What a table meets on its page: every card a hand can hold has its tap key, the confirming
phone sees what it confirms, a Gin Römi match says who pays whom, a Tízlapos Römi re-entry is
explained, and the fields' examples read in every language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules import hand_from_text, parse_cards
from rules.notation import parse_tokens
from scoring.families import FAMILIES
from tests.support.deals import gin, record, tiz
from tests.support.entry import deal_post, seated_client
from tests.support.events import seated_event

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


def _entered_rows(html: str) -> list[str]:
    """The pending deal's table, a line of text per row (tags dropped, spaces squeezed)."""
    found = re.search(r'<table class="table entered">.*?<tbody[^>]*>(.*?)</tbody>', html, re.S)
    assert found is not None
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", found[1], re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_the_confirming_phone_sees_each_seat_as_entered_in_seat_order():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    entry = deal_post(hands=("", "AS KD", "7H", "QS"), p2_buys="1", p3_cards="", p3_points="15")
    seated_client(table, 0).post(reverse("deal_save", args=[table.entry_key, 1]), entry)
    html = _page(table, 1)
    assert _entered_rows(html) == [
        f"{names[0]} went out 0",
        f"{names[1]} A♠ K♦ 30",
        f"{names[2]} 7♥ · buys: 1 5",
        f"{names[3]} points: 15 15",
    ]
    assert '<span class="red">K♦</span>' in html


def test_a_gin_deal_shows_how_it_ended_and_both_hands():
    _event, (table,) = seated_event(variant_id="gin_romi", players=2)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    hands = ("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "5C 6C 7C 8S 9S 10S JH QH KH 2D")
    entry = {"number": 1, "request_id": "g1", "expected_version": 0, "ending": "knock"}
    entry |= {"by": "0", "upper": "10C", "p0_cards": hands[0], "p1_cards": hands[1]}
    saved = seated_client(table, 0).post(reverse("deal_save", args=[table.entry_key, 1]), entry)
    assert saved.status_code == 302
    html = _page(table, 1)
    facts = re.search(r'<p class="entered-facts">(.*?)</p>', html, re.S)
    assert facts is not None
    assert " ".join(re.sub(r"<[^>]+>", " ", facts[1]).split()) == "ending: Knock · upper card: 10♣"
    rows = _entered_rows(html)
    assert rows[0].startswith(f"{names[0]} knocked or went römi · A♠ 2♠ 3♠ 4♥")
    assert rows[1].startswith(f"{names[1]} 5♣ 6♣")


def test_a_finished_gin_match_says_who_pays_whom(client):
    event, (table, *_rest) = seated_event(
        variant_id="gin_romi", players=4, options={"allow_points_entry": True}
    )
    names = [seat.player.name for seat in table.seats.order_by("position")]
    for number in (1, 2):
        record(table, number, gin(deadwood=(5, 65)))  # 60 each
    assert "pays" not in _page(table, 0)
    record(table, 3, gin(deadwood=(5, 65)))  # 180: the game is over
    # 180 + 3 deals won × 25 + 150 for the game + 150 for the shutout, against nothing.
    says = f"Settlement: {names[1]} pays 555 to {names[0]}."
    assert says in _page(table, 1)
    assert says in client.get(event.get_absolute_url()).content.decode()


def test_a_reentry_says_where_the_total_restarted():
    _event, (table,) = seated_event(
        variant_id="tizlapos_romi", players=4, options={"allow_points_entry": True}
    )
    names = [seat.player.name for seat in table.seats.order_by("position")]
    record(table, 1, tiz(points=(None, 100, 40, 55)))  # seat 1 is out at 100
    assert "bought back in" not in _page(table, 0)
    record(table, 2, tiz(points=(None, 20, 10, 5), reenter=(1,)))  # back in at 55
    assert (
        f"{names[1]} bought back in before deal 2: their total restarted at 55, "
        "the highest of those still in." in _page(table, 2)
    )


def _placeholders():
    for family in FAMILIES.values():
        for form in (family.deal_form, family.seat_form):
            for name, field in form.base_fields.items():
                example = field.widget.attrs.get("placeholder")
                if example:
                    yield pytest.param(family.name, example, id=f"{form.__name__}.{name}")


@pytest.mark.parametrize(("family", "example"), list(_placeholders()))
def test_every_example_reads_in_every_language_and_in_the_engine(family, example):
    # Suit signs and the ranks Finnish and Hungarian letter alike (A, K), no English suit
    # letters (7D) or words of one language (pata).
    assert re.fullmatch(r"[AK0-9♠♥♦♣\s-]+", example), example
    for line in example.splitlines():
        # A Römi hand is read card by card, suits and all; a contract hand by its ranks.
        cards = parse_cards(line) if family != "contract" else parse_tokens(line)
        assert cards
