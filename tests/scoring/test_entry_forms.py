"""The entry page's forms, per entry family: each bad input is refused in its own field, in
the players' words; the engine's errors land on the field they name; a stored entry comes
back as it was; the registry, not a game's id, decides what the page shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

import scoring.services
import scoring.views
from rules import VARIANT_IDS, RuleViolation, get_variant
from rules.gin import ENDINGS as GIN_ENDINGS
from rules.tizlapos import ENDINGS as TIZ_ENDINGS
from rules.tizlapos import SPECIALS
from scoring.families import ENDING_WORDS, FAMILIES, SPECIAL_WORDS, DealEntry, family_of, field_of
from scoring.forms import TEXT_LIMIT
from scoring.models import Deal
from tests.support.entry import GOOD, entry_table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _entry(table, data=None, stored=None) -> DealEntry:
    seats = table.seats.select_related("player").order_by("position")
    return DealEntry(table.stage.event.variant, seats, data=data, stored=stored)


def _errors(entry: DealEntry) -> dict[str, list[str]]:
    """Every error by the name its field posts as ("__all__" above the form)."""
    found = {field.html_name: list(field.errors) for field in entry.fields if field.errors}
    if entry.non_field_errors():
        found["__all__"] = entry.non_field_errors()
    return found


# Per family: (a seat field, a number field, a text field).
FIELDS = {
    "rutupeli": ("out", "p2_buys", "laydown"),
    "ravaytys": ("out", "p3_points", "p1_cards"),
    "gin_romi": ("by", "p1_points", "upper"),
    "tizlapos_romi": ("winner", "p2_points", "knock_card"),
}


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_good_post_reads(variant_id):
    entry = _entry(entry_table(variant_id), GOOD[variant_id])
    assert entry.is_valid(), _errors(entry)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("x1", "“x1” is not a whole number."),
        ("¹", "“¹” is not a whole number."),
        ("2.5", "“2.5” is not a whole number."),
        ("-1", "expected 0 or more"),
        ("9" * 12, "expected 0 or more"),
    ],
)
def test_a_bad_number_is_refused_in_its_own_field(variant_id, value, words):
    number_field = FIELDS[variant_id][1]
    entry = _entry(entry_table(variant_id), {**GOOD[variant_id], number_field: value})
    assert not entry.is_valid()
    errors = _errors(entry)
    assert list(errors) == [number_field]
    assert words in errors[number_field][0]


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@pytest.mark.parametrize("value", ["9", "4", "-1", "٣", "one", "none"])
def test_a_seat_not_at_the_table_is_refused(variant_id, value):
    seat_field = FIELDS[variant_id][0]
    if value == "none" and variant_id == "rutupeli":
        value = "7"  # "none" is Rutupeli's exhausted stock: a choice of its own
    entry = _entry(entry_table(variant_id), {**GOOD[variant_id], seat_field: value})
    assert not entry.is_valid()
    assert _errors(entry) == {seat_field: ["Pick a player."]}


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_seat_offers_the_tables_players_only(variant_id):
    table = entry_table(variant_id)
    entry = _entry(table)
    seat_field = entry.deal[FIELDS[variant_id][0]]
    names = [str(label) for _value, label in seat_field.field.choices]
    players = [seat.player.name for seat in table.seats.order_by("position")]
    assert names[: len(players)] == players
    extra = names[len(players) :]
    assert extra == (["Nobody: the stock ran out"] if variant_id == "rutupeli" else [])


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_text_longer_than_any_hand_is_refused(variant_id):
    text_field = FIELDS[variant_id][2]
    long = "7H " * (TEXT_LIMIT // 3 + 1)
    entry = _entry(entry_table(variant_id), {**GOOD[variant_id], text_field: long})
    assert not entry.is_valid()
    assert _errors(entry) == {
        text_field: [
            f"This is longer than any hand: at most 400 characters, not {len(long.strip())}."
        ]
    }


@pytest.mark.parametrize(
    ("engine_field", "place"),
    [
        ("players.2.cards", (2, "cards")),
        ("players.2.buys", (2, "buys")),
        ("players.2", (2, "cards")),
        ("hands.1", (1, "cards")),
        ("deadwood.0", (0, "points")),
        ("laydown.1", (None, "laydown")),
        ("laydown", (None, "laydown")),
        ("upper", (None, "upper")),
        ("winner", (None, "winner")),
        ("players", (None, "players")),
        ("players.²", (None, "players")),
        ("", None),
        (None, None),
    ],
)
def test_where_an_engine_field_belongs(engine_field, place):
    assert field_of(engine_field) == place


@pytest.mark.parametrize(
    ("variant_id", "engine_field", "page_field"),
    [
        ("rutupeli", "players.2.cards", "p2_cards"),
        ("rutupeli", "players.1.buys", "p1_buys"),
        ("rutupeli", "laydown.1", "laydown"),
        ("rutupeli", "out", "out"),
        ("ravaytys", "ravaytys", "ravaytys"),
        ("gin_romi", "hands.1", "p1_cards"),
        ("gin_romi", "deadwood.0", "p0_points"),
        ("gin_romi", "upper", "upper"),
        ("gin_romi", "by", "by"),
        ("tizlapos_romi", "winner", "winner"),
        ("tizlapos_romi", "players.2.reenter", "p2_reenter"),
        ("tizlapos_romi", "knock_card", "knock_card"),
        # No place on the page: above the form, never lost.
        ("rutupeli", "players.9.cards", "__all__"),
        ("rutupeli", "players.1.colour", "__all__"),
        ("rutupeli", "ravaytys", "__all__"),  # Rutupeli has no räväytys box
        ("gin_romi", "hands", "__all__"),
        ("tizlapos_romi", "deal", "__all__"),
        ("tizlapos_romi", None, "__all__"),
    ],
)
def test_an_engine_error_lands_on_its_field(variant_id, engine_field, page_field):
    entry = _entry(entry_table(variant_id), GOOD[variant_id])
    assert entry.is_valid()
    entry.add_violation(
        RuleViolation("Wrong at %(where)s.", code="x", field=engine_field, where="y")
    )
    assert _errors(entry) == {page_field: ["Wrong at y."]}
    assert not entry.is_valid()


def test_an_engine_error_without_points_fields_goes_above_the_form():
    entry = _entry(
        entry_table("gin_romi", allow_points_entry=False), {"ending": "knock", "by": "0"}
    )
    assert entry.is_valid()
    entry.add_violation(RuleViolation("Too much deadwood.", code="x", field="deadwood.1"))
    assert _errors(entry) == {"__all__": ["Too much deadwood."]}


@pytest.mark.parametrize(
    ("variant_id", "post", "page_field", "words"),
    [
        ("rutupeli", {"p1_cards": "AS KZ"}, "p1_cards", "KZ"),
        ("ravaytys", {"laydown": "7H 7S 7D\n5H 6H 7H 8H"}, "laydown", None),
        ("gin_romi", {"upper": "ZZ"}, "upper", "ZZ"),
        ("gin_romi", {"upper": "4D", "p0_points": "9"}, "p0_points", None),
        ("tizlapos_romi", {"ending": "knock", "knock_card": "7H"}, "knock_card", None),
        ("tizlapos_romi", {"p2_reenter": "on"}, "p2_reenter", None),
    ],
)
def test_the_live_check_puts_the_engines_error_in_the_fields_slot(
    variant_id, post, page_field, words
):
    table = entry_table(variant_id)
    client = Client()
    client.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    html = client.post(
        reverse("table_check", args=[table.entry_key]), {**GOOD[variant_id], **post, "number": 1}
    ).content.decode()
    assert "Not yet right" in html
    start = html.index(f'id="err-{page_field}" hx-swap-oob="true"')
    slot = html[start : html.index("</div></div>", start)]
    assert '<p class="error">' in slot
    if words:
        assert words in slot


def test_a_refused_save_marks_the_field_for_assistive_technology():
    table = entry_table("rutupeli")
    client = Client()
    client.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    html = client.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        {**GOOD["rutupeli"], "p2_buys": "lots", "number": 1},
    ).content.decode()
    tag = re.search(r"<input[^>]*name=\"p2_buys\"[^>]*>", html).group(0)
    assert 'aria-invalid="true"' in tag
    described = re.search(r'aria-describedby="([^"]+)"', tag).group(1)
    assert f'id="{described}"' in html
    assert "“lots” is not a whole number." in html
    assert 'for="f-p2_buys">Buys</label>' in html


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_save_is_scored_once_and_the_live_check_judges_once(variant_id, monkeypatch):
    table = entry_table(variant_id)
    calls = {"score": 0, "judge": 0}
    real_score, real_judge = scoring.services.score_deal, scoring.views.deal_judge

    def counted_score(*args, **kwargs):
        calls["score"] += 1
        return real_score(*args, **kwargs)

    def counted_judge(*args, **kwargs):
        calls["judge"] += 1
        return real_judge(*args, **kwargs)

    monkeypatch.setattr(scoring.services, "score_deal", counted_score)
    monkeypatch.setattr(scoring.views, "score_deal", counted_score)
    monkeypatch.setattr(scoring.views, "deal_judge", counted_judge)
    client = Client()
    client.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    post = {**GOOD[variant_id], "number": 1, "request_id": "once", "expected_version": 0}
    check = client.post(reverse("table_check", args=[table.entry_key]), post)
    assert "Looks right" in check.content.decode()
    assert calls == {"score": 1, "judge": 1}
    response = client.post(reverse("deal_save", args=[table.entry_key, 1]), post)
    assert response.status_code == 302
    assert calls == {"score": 2, "judge": 1}
    assert Deal.objects.get(table=table).version == 1


# -- what the forms give the engine, and what a correction starts from --------------------------


def test_contract_entries_as_the_engine_reads_them():
    table = entry_table("rutupeli")
    post = {**GOOD["rutupeli"], "p1_buys": "2", "ravaytys": "on"}
    entry = _entry(table, post)
    assert entry.is_valid()
    # A räväytys is no Rutupeli thing, so not read.
    assert entry.to_entry() == {
        "out": 0,
        "players": [
            {"cards": None, "points": None, "buys": 0},
            {"cards": "AS KD", "points": None, "buys": 2},
            {"cards": "7H", "points": None, "buys": 0},
            {"cards": "QS", "points": None, "buys": 0},
        ],
    }
    nobody = _entry(table, {"out": "none", "p0_points": "15"})
    assert nobody.is_valid()
    assert nobody.to_entry()["out"] is None
    assert nobody.to_entry()["players"][0] == {"cards": None, "points": 15, "buys": 0}
    unsaid = _entry(table, {"laydown": " 7H 7S 7D \n\n pata-5-8 "})
    assert unsaid.is_valid()
    assert "out" not in unsaid.to_entry()  # the engine then asks who went out
    assert unsaid.to_entry()["laydown"] == ["7H 7S 7D", "pata-5-8"]


def test_the_ravaytys_box_is_the_registrys_call():
    ravaytys, rutupeli = entry_table("ravaytys"), entry_table("rutupeli")
    assert "ravaytys" in _entry(ravaytys).deal.fields
    assert "ravaytys" not in _entry(rutupeli).deal.fields
    ticked = _entry(ravaytys, {**GOOD["ravaytys"], "ravaytys": "on"})
    assert ticked.is_valid() and ticked.to_entry()["ravaytys"] is True
    unticked = _entry(ravaytys, GOOD["ravaytys"])
    assert unticked.is_valid() and unticked.to_entry()["ravaytys"] is False
    for variant_id in VARIANT_IDS:
        variant = get_variant(variant_id)
        assert family_of(variant).records_ravaytys(variant) is (variant_id == "ravaytys")


def test_gin_entries_as_the_engine_reads_them():
    table = entry_table("gin_romi")
    counts = _entry(table, {"by": "1", "p0_points": "5", "p1_points": "31", "p0_cards": "AS"})
    assert counts.is_valid()
    assert counts.to_entry() == {
        "ending": "knock",  # nothing ticked: the usual ending
        "by": 1,
        "upper": None,
        "hands": None,
        "deadwood": [5, 31],
    }
    hands = _entry(table, {"ending": "romi", "by": "0", "p0_cards": "AS", "p1_cards": "KD"})
    assert hands.is_valid()
    assert hands.to_entry()["hands"] == ["AS", "KD"]
    assert hands.to_entry()["deadwood"] is None


def test_tizlapos_entries_as_the_engine_reads_them():
    table = entry_table("tizlapos_romi")
    post = {"winner": "2", "p0_cards": "7H", "p1_special": "piccolo", "p3_drop_out": "on"}
    entry = _entry(table, post)
    assert entry.is_valid()
    assert entry.to_entry() == {
        "winner": 2,
        "ending": "romi",
        "knock_card": None,
        "players": [
            {"cards": "7H", "points": None, "special": None, "drop_out": False, "reenter": False},
            {
                "cards": None,
                "points": None,
                "special": "piccolo",
                "drop_out": False,
                "reenter": False,
            },
            {"cards": None, "points": None, "special": None, "drop_out": False, "reenter": False},
            {"cards": None, "points": None, "special": None, "drop_out": True, "reenter": False},
        ],
    }


STORED = {
    "rutupeli": {
        "out": None,
        "players": [{"cards": c, "points": None, "buys": b} for c, b in [("A", 0), ("K", 2), ("7", 0), ("2", 1)]],
    },
    "ravaytys": {
        "out": 0,
        "players": [{"cards": None, "points": None, "buys": 0}] + [{"cards": None, "points": p, "buys": 0} for p in (5, 10, 20)],
        "laydown": ["7H 7S 7D", "KC KD JK"],
        "ravaytys": True,
    },
    "gin_romi": {"ending": "void", "by": None, "upper": "KH", "hands": ["AS 2S 3S", "AC 2C 3C"], "deadwood": None},
    "tizlapos_romi": {
        "winner": 1,
        "ending": "knock",
        "knock_card": "3H",
        "players": [
            {"cards": None, "points": 12, "special": None, "drop_out": True, "reenter": False},
            {"cards": None, "points": None, "special": None, "drop_out": False, "reenter": False},
            {"cards": "7H 8S", "points": None, "special": "royal", "drop_out": False, "reenter": False},
            {"cards": None, "points": 9, "special": None, "drop_out": False, "reenter": True},
        ],
    },
}  # fmt: skip


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_correction_starts_from_the_stored_entry(variant_id):
    """The page shows the stored entry; posting it back unchanged gives the same entry."""
    table = entry_table(variant_id)
    shown = _entry(table, stored=STORED[variant_id])
    post = {}
    for field in shown.fields:
        value = field.value()
        if field.widget_type == "checkbox":
            if value:
                post[field.html_name] = "on"
        elif value not in (None, ""):
            post[field.html_name] = str(value)
    again = _entry(table, post)
    assert again.is_valid(), _errors(again)
    assert again.to_entry() == STORED[variant_id]


def test_an_unreadable_stored_entry_still_shows_a_page():
    table = entry_table("tizlapos_romi")
    shown = _entry(table, stored={"players": [None, "x", {"cards": 5}], "winner": "z"})
    assert [form["cards"].value() for form in shown.seat_forms][:3] == [None, None, 5]


# -- the registry --------------------------------------------------------------------------------


def test_every_game_has_an_entry_family_with_its_own_partial():
    for variant_id in VARIANT_IDS:
        family = family_of(get_variant(variant_id))
        assert (ROOT / "templates" / family.template).exists()
    assert set(FAMILIES) == {get_variant(v).family for v in VARIANT_IDS}


def test_every_value_the_engine_knows_has_the_players_words():
    assert set(GIN_ENDINGS) | set(TIZ_ENDINGS) <= set(ENDING_WORDS)
    assert set(SPECIALS) <= set(SPECIAL_WORDS)
    tiz = FAMILIES["tizlapos"].choices
    assert [value for value, _words in tiz["special"]] == list(SPECIALS)
    assert [value for value, _words in FAMILIES["gin"].choices["ending"]] == list(GIN_ENDINGS)


def test_no_template_or_view_compares_a_game_id():
    found = []
    for folder in ("templates", "scoring", "tournaments"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".html", ".txt"} or "migrations" in path.parts:
                continue
            name = path.relative_to(ROOT).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"variant\.id ==|variant_id ==", line):
                    found.append(f"{name}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
