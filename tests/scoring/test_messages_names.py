"""The table's pages name the players in the engine's messages, refuse a hand typed both as
cards and as points, and check every field live, numbers included."""

from __future__ import annotations

import pickle
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from core.i18n import hungarian_articles, violation_text
from rules import RuleViolation
from rules.i18n import Plural, ngettext
from scoring.models import Deal
from tests.support.events import seated_event

NAMES = ["Aino", "Bence", "Célia", "Dóra"]


def _seat_msgids() -> list[str | Plural]:
    # A TranslationCatalog is not iterable as a dict: its keys() are. A message with plural
    # forms is keyed (singular, form); its sample asks for the form of 7.
    keys = trans_real.translation("fi")._catalog.keys()
    single = {key for key in keys if isinstance(key, str) and "%(seat)d" in key}
    plural = {key[0] for key in keys if isinstance(key, tuple) and "%(seat)d" in key[0]}
    return [*sorted(single), *(Plural(msgid, msgid, 7) for msgid in sorted(plural))]


def _sample(template: str, seat: int = 2) -> RuleViolation:
    params: dict[str, object] = {"seat": seat}
    for name, kind in re.findall(r"%\((\w+)\)([ds])", template):
        params.setdefault(name, 7 if kind == "d" else "7H")
    return RuleViolation(template, code="test", **params)


def test_every_seat_message_can_name_its_player_in_each_language():
    msgids = _seat_msgids()
    assert len(msgids) >= 25
    for language in ("en", "fi", "hu"):
        with translation.override(language):
            for msgid in msgids:
                text = violation_text(_sample(msgid), NAMES)
                assert "Bence" in text, (language, msgid, text)
                assert "2" not in text, (language, msgid, text)
                assert not text[0].islower(), (language, text)


BUY_CAP = (
    "At most %(cap)d buy per player in a deal of %(game)s; seat %(seat)d has %(buys)d.",
    "At most %(cap)d buys per player in a deal of %(game)s; seat %(seat)d has %(buys)d.",
)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "At most 3 buys per player in a deal of Rutupeli; Aino has 4."),
        (
            "fi",
            "Rutupeli: pelaaja saa tehdä jaossa enintään 3 sakko-ostoa; pelaajalla Aino niitä on 4.",
        ),
        (
            "hu",
            "A Rutupeli játékban játszmánként és játékosonként legfeljebb 3 vásárlás lehet; "
            "Aino játékosnál 4 van.",
        ),
    ],
)
def test_the_buy_cap_names_the_player(language, expected):
    error = RuleViolation(
        ngettext(*BUY_CAP, 3),
        code="test",
        cap=3,
        game="Rutupeli",
        seat=1,
        buys=4,
    )
    with translation.override(language):
        assert violation_text(error, NAMES) == expected


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("en", 1, "At most 1 buy per player in a deal of Rutupeli; Aino has 2."),
        ("en", 2, "At most 2 buys per player in a deal of Rutupeli; Aino has 3."),
        (
            "fi",
            1,
            "Rutupeli: pelaaja saa tehdä jaossa enintään 1 sakko-oston; pelaajalla Aino niitä on 2.",
        ),
        (
            "hu",
            1,
            "A Rutupeli játékban játszmánként és játékosonként legfeljebb 1 vásárlás lehet; Aino játékosnál 2 van.",
        ),
    ],
)
def test_a_number_takes_the_plural_form_its_language_asks_for(language, count, expected):
    error = RuleViolation(
        ngettext(*BUY_CAP, count), code="test", cap=count, game="Rutupeli", seat=1, buys=count + 1
    )
    with translation.override(language):
        assert violation_text(error, NAMES) == expected
    # The English message and a pickled copy (a task's result) keep the form.
    assert error.message.startswith(f"At most {count} buy")
    assert pickle.loads(pickle.dumps(error)).template.number == count


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Aino went out, so it has no cards left."),
        ("fi", "Pelaajalta Aino loppuivat kortit, joten hänen kädessään ei ole kortteja."),
        ("hu", "Aino játékosnak elfogytak a lapjai, így nincs lap a kezében."),
    ],
)
def test_a_sentence_starting_with_the_seat_starts_with_the_name(language, expected):
    error = RuleViolation("Seat %(seat)d went out, so it has no cards left.", code="test", seat=1)
    with translation.override(language):
        assert violation_text(error, NAMES) == expected
        # Without names, or with a seat the names do not cover, the number stays.
        assert "1" in violation_text(error)
        assert "5" in violation_text(RuleViolation(error.template, code="t", seat=5), NAMES)


def test_a_name_with_a_percent_sign_is_shown_as_typed():
    error = RuleViolation(
        "Seat %(seat)d's cards do not make %(special)s.", code="t", seat=1, special="x"
    )
    assert violation_text(error, ["100% Aino"]) == "100% Aino's cards do not make x."


# -- through the table's pages ------------------------------------------------------------------


@pytest.fixture
def table(db):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    return table


def _client(table, position: int = 0) -> Client:
    client = Client()
    client.post(reverse("table_seat", args=[table.entry_key]), {"seat": position})
    return client


def _post(out="0", hands=("", "AS KD", "7H", "QS"), **extra):
    data = {"number": 1, "request_id": "r1", "expected_version": 0, "out": out}
    for seat, hand in enumerate(hands):
        data[f"p{seat}_cards"] = hand
    data.update(extra)
    return data


def _names(table) -> list[str]:
    return [seat.player.name for seat in table.seats.order_by("position")]


def _check(table, data, client: Client | None = None) -> str:
    client = client or _client(table)
    page = client.post(reverse("table_check", args=[table.entry_key]), data)
    return unescape(page.content.decode())


def _field_error(html: str, name: str) -> str:
    start = html.index(f'id="err-{name}" hx-swap-oob="true"')
    end = html.find('class="field-errors"', start)
    return html[start : end if end != -1 else None]


def test_live_check_names_the_player_not_the_seat(table):
    names = _names(table)
    html = _check(table, _post(p2_buys="4"))
    assert "Not yet right" in html
    assert f"{names[2]} has 4" in html
    assert "seat 3" not in html.lower()


def test_saving_names_the_player_not_the_seat(table):
    names = _names(table)
    response = _client(table).post(
        reverse("deal_save", args=[table.entry_key, 1]), _post(hands=("", "AS KD", "", "QS"))
    )
    assert response.status_code == 422
    assert f"Enter the cards left in {names[2]}&#x27;s hand" in response.content.decode()
    assert not Deal.objects.exists()


def test_cards_and_points_both_typed_are_refused_on_the_points(table):
    html = _check(table, _post(p1_points="15"))
    assert "Looks right" not in html
    assert "not both" in _field_error(html, "p1_points")
    assert "Looks right" in _check(table, _post(hands=("", "", "7H", "QS"), p1_points="15"))


@pytest.mark.parametrize(
    ("field", "value"), [("p1_buys", "x"), ("p2_points", "-3"), ("p3_buys", "2.5")]
)
def test_live_check_reports_a_bad_number_on_its_field(table, field, value):
    html = _check(table, _post(**{field: value}))
    assert "Not yet right" in html and "Looks right" not in html
    assert '<p class="error">' in _field_error(html, field)


def test_number_fields_leave_checking_to_the_site_not_the_browser(table):
    page = _client(table).get(reverse("table_entry", args=[table.entry_key])).content.decode()
    inputs = re.findall(r"<input[^>]*name=\"p\d_(?:buys|points)\"[^>]*>", page)
    assert inputs
    assert all("pattern=" not in tag and 'inputmode="numeric"' in tag for tag in inputs)


@pytest.mark.django_db
def test_cards_typed_for_the_player_who_went_out_are_refused_not_dropped(client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    client.post(reverse("table_seat", args=[table.entry_key]), {"seat": "0"})
    post = {"number": "1", "out": "0", "p0_cards": "AS", "p1_cards": "KD", "p2_cards": "7H",
            "p3_cards": "QS"}  # fmt: skip
    check = client.post(reverse("table_check", args=[table.entry_key]), post).content.decode()
    name = table.seats.get(position=0).player.name
    assert f"{name} went out" in check
    save = client.post(reverse("deal_save", args=[table.entry_key, 1]), post)
    assert save.status_code == 422
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    ("seat", "start"), [(1, "Az 1."), (2, "A 2."), (3, "A 3."), (5, "Az 5."), (6, "A 6.")]
)
def test_a_hungarian_seat_without_a_name_takes_its_numbers_article(seat, start):
    error = RuleViolation("Seat %(seat)d went out, so it has no cards left.", code="t", seat=seat)
    with translation.override("hu"):
        assert violation_text(error).startswith(f"{start} játékosnak elfogytak a lapjai")


def test_no_hungarian_engine_message_shows_the_article_placeholder():
    # "A(z) 3." is how a translation writes an article it cannot choose; no reader sees it.
    with translation.override("hu"):
        for msgid in _seat_msgids():
            for seat in range(1, 7):
                text = violation_text(_sample(msgid, seat=seat))
                assert "(z)" not in text, text
    assert hungarian_articles("a(z) 10. játszmában, a(z) 50. helyen, A(z) 1000.") == (
        "a 10. játszmában, az 50. helyen, Az 1000."
    )
