"""Score entry through the site for every game: a good deal saves, a wrong one is refused
with the engine's reason in the right field, and the table's game end is respected."""

from __future__ import annotations

import pytest

from rules import RuleViolation
from scoring.models import Deal
from scoring.selectors import table_sheet
from scoring.services import Actor, deal_record
from tests.support.events import new_request_id, seated_event

pytestmark = pytest.mark.django_db
BY = Actor(device="phone", seat=0)


def record(table, number, entry):
    return deal_record(
        table=table,
        number=number,
        entry=entry,
        by=BY,
        expected_version=0,
        request_id=new_request_id(),
    )


def gin(ending="knock", by=0, upper="9H", hands=None, deadwood=(5, 31)):
    return {
        "ending": ending,
        "by": by,
        "upper": upper,
        "hands": hands,
        "deadwood": list(deadwood) if deadwood else None,
    }


def tiz(winner=0, ending="romi", knock_card=None, points=(None, 17, 30, 8)):
    return {
        "winner": winner,
        "ending": ending,
        "knock_card": knock_card,
        "players": [{"cards": None, "points": p} for p in points],
    }


def test_gin_knock_scores_the_difference():
    _event, tables = seated_event(variant_id="gin_romi", players=2)
    assert record(tables[0], 1, gin()).points == [26, 0]


def test_gin_hands_are_solved_by_the_engine():
    _event, tables = seated_event(variant_id="gin_romi", players=2)
    hands = ["AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "AC 2C 3C 5S 6S 7S 9H 10H QD KD"]
    deal = record(tables[0], 1, gin(upper="KH", hands=hands, deadwood=None))
    # Knocker's deadwood: KC = 10; the other's: 9H 10H QD KD = 39, none of it lays off.
    assert deal.points == [29, 0]


@pytest.mark.parametrize(
    ("entry", "field", "code_part"),
    [
        (gin(upper="4D", deadwood=(9, 20)), "deadwood", None),  # 9 > upper card 4
        (
            gin(upper="AH", deadwood=(0, 20), ending="knock"),
            None,
            None,
        ),  # ace upper forbids a knock
        (gin(upper="ZZ"), "upper", "bad_token"),
        (gin(by=5), "by", None),
    ],
)
def test_gin_refusals(entry, field, code_part):
    _event, tables = seated_event(variant_id="gin_romi", players=2)
    with pytest.raises(RuleViolation) as info:
        record(tables[0], 1, entry)
    if field:
        assert (info.value.field or "").startswith(field), info.value.field
    if code_part:
        assert code_part in info.value.code
    assert not Deal.objects.exists()


def test_gin_game_ends_at_150_and_takes_no_more_deals():
    _event, tables = seated_event(variant_id="gin_romi", players=2)
    table = tables[0]
    number = 0
    while not table_sheet(table=table).standing.finished:
        number += 1
        record(table, number, gin(ending="romi", deadwood=(0, 50)))  # 25 + 50 a deal
        assert number < 10
    assert table_sheet(table=table).next_number is None
    with pytest.raises(RuleViolation) as info:
        record(table, number + 1, gin(ending="romi", deadwood=(0, 50)))
    assert info.value.code == "game_over"


def test_tizlapos_romi_and_knock():
    _event, (table,) = seated_event(variant_id="tizlapos_romi", players=4)
    first = record(table, 1, tiz())
    assert first.points[1:] == [17, 30, 8]
    knock = record(
        table, 2, tiz(winner=1, ending="knock", knock_card="3H", points=(12, None, 5, 9))
    )
    assert knock.points[1] == 3  # the knocker scores its knock card


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (tiz(ending="knock", knock_card="7H"), "knock_card"),  # a knock card is a 2 or a 3
        (tiz(winner=9), "winner"),
        (tiz(points=(None, -4, 30, 8)), "players.1"),
    ],
)
def test_tizlapos_refusals(entry, field):
    _event, (table,) = seated_event(variant_id="tizlapos_romi", players=4)
    with pytest.raises(RuleViolation) as info:
        record(table, 1, entry)
    assert (info.value.field or "").startswith(field), info.value.field


def test_ravaytys_wild_black_two_is_priced_and_the_laydown_checked_when_required():
    _event, (table,) = seated_event(
        variant_id="ravaytys", players=4, options={"require_laydown": True}
    )
    entry = {
        "out": 0,
        "laydown": ["7H 7S 7D", "KC KD JK"],
        "players": [
            {"cards": None, "buys": 0},
            {"cards": "2S JK", "buys": 0},
            {"cards": "2H", "buys": 0},
            {"cards": "A", "buys": 1},
        ],
    }
    assert record(table, 1, entry).points == [0, 70, 5, 20]
    wrong = dict(entry, laydown=["7H 7S 7D", "5H 6H 7H 8H"])  # deal 1 asks for 2 sets
    with pytest.raises(RuleViolation) as info:
        record(table, 2, dict(wrong))
    assert (info.value.field or "").startswith("laydown")


def test_rutupeli_buy_cap_and_exhausted_stock():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    exhausted = {"out": None, "players": [{"cards": c, "buys": 0} for c in ("A", "K", "7", "2")]}
    assert record(table, 1, exhausted).points == [20, 10, 5, 5]
    too_many_buys = {
        "out": 0,
        "players": [{"cards": None, "buys": 4}] + [{"cards": "A", "buys": 0}] * 3,
    }
    with pytest.raises(RuleViolation) as info:
        record(table, 2, too_many_buys)
    assert info.value.field == "players.0.buys"


def test_gin_sheet_shows_the_final_settlement_and_tizlapos_its_units():
    from django.template.loader import render_to_string

    _event, (gin_table,) = seated_event(variant_id="gin_romi", players=2)
    record(gin_table, 1, gin(ending="romi", deadwood=(0, 100)))
    record(gin_table, 2, gin(ending="romi", deadwood=(0, 30)))
    sheet = table_sheet(table=gin_table)
    assert sheet.standing.finished and sheet.has_final
    winner = sheet.rows[0]
    # (25 + 100) + (25 + 30) points, 25 for each deal won, 150 for the game, 150 shutout
    assert winner["final"] == 180 + 2 * 25 + 150 + 150
    html = render_to_string(
        "scoring/_totals.html", {"sheet": sheet, "table": gin_table, "actor": BY}
    )
    assert "Settlement" in html and str(winner["final"]) in html

    _event, (tiz_table,) = seated_event(variant_id="tizlapos_romi", players=4)
    record(tiz_table, 1, tiz())
    tiz_sheet = table_sheet(table=tiz_table)
    assert [row["units"] for row in tiz_sheet.rows if row["seat"].position == 0] == [
        6
    ]  # 2 from each of three
    assert "Units" in render_to_string(
        "scoring/_totals.html", {"sheet": tiz_sheet, "table": tiz_table, "actor": BY}
    )
