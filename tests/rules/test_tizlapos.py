"""Tízlapos Römi, statement by statement from RULES.md (seed 002, second part)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from rules import tizlapos
from rules.errors import RuleViolation
from rules.notation import parse_cards
from rules.results import DealScore
from rules.variants import Variant, get_variant

TIZ = get_variant("tizlapos_romi")
KIS = get_variant("tizlapos_romi", tiz_kis_buli=True)

# All ten melded: J-Q-K-A♠ (ace high, also a royal flush), 5-5-5, 7-8-9♣.
ROMI = "AS KS QS JS 5H 5D 5C 7C 8C 9C"
# Nine melded (4-5-6♥, 9-9-9, 10-J♦ with a joker) and the knock card ♣2.
KNOCK = "4H 5H 6H 9S 9D 9C JK 10D JD 2C"
# Nothing melds: 2+3+7 + 2+10 + 6+8+10 + 10+10 = 68.
LOOSE = "2S 2H 7S 8D KH KD QC 3S 6D 10C"
# A-A-joker and 3-4-5♥ melded; ♠6 ♠8 ♥8 ♦7 left (29).
JOKER_HAND = "3H 4H 5H JK 8S 8H AC AD 6S 7D"
# Piccolo: 1+1+2+2+3+3+4+0+5+1 = 22 counting aces 1 and the joker 0; A-A-A and 3-joker-5♣
# meld, ♠2 ♠4 ♥3 ♦2 are left (11).
PICCOLO = "AS AH 2S 2D 3C 3H 4S JK 5C AD"
# Nine hearts and a spade: a colour flush with the upper card.
HEARTS = "2H 4H 6H 8H 10H QH KH AH 3H 9S"
# No two cards a joker could join (no pair, no same-suit cards two apart): 20 + 66.
NO_USE_FOR_JOKER = "JK 2S 5H 8D JC KS 4C 7S 10H QD"
# Nine figures (A K Q J) and a two.
FIGURES = "AS KS QH JD AC KC QD JH AH 2C"


def line(
    cards: str | None = None,
    points: int | None = None,
    special: str | None = None,
    drop_out: bool = False,
    reenter: bool = False,
) -> dict[str, object]:
    return {
        "cards": cards,
        "points": points,
        "special": special,
        "drop_out": drop_out,
        "reenter": reenter,
    }


EMPTY = line()


def entry(
    winner: int = 0,
    ending: str = "romi",
    knock_card: str | None = None,
    players: list[dict[str, object]] | None = None,
) -> dict[str, object]:
    return {
        "winner": winner,
        "ending": ending,
        "knock_card": knock_card,
        "players": players if players is not None else [line(), line(LOOSE), line(JOKER_HAND)],
    }


def score(data: Mapping[str, object], variant: Variant = TIZ) -> DealScore:
    return tizlapos.score_deal(variant, tizlapos.parse_entry(variant, 1, data))


def refused(data: Mapping[str, object], variant: Variant = TIZ) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        score(data, variant)
    return info.value


# -- one deal: (statement, entry, points per seat) -------------------------------------------

DEALS = [
    # "Römi: all cards melded"; "takes 10 off its own penalty total";
    # "Everyone else scores the value of its unmatched cards" (J Q K A = 10, others face)
    ("römi from points", entry(players=[line(), line(points=68), line(points=29)]), (-10, 68, 29)),
    ("römi from cards", entry(), (-10, 68, 29)),
    (
        "römi with the winner's cards",
        entry(players=[line(ROMI), line(LOOSE), line(JOKER_HAND)]),
        (-10, 68, 29),
    ),
    # "Knock: 9 cards melded and the 10th a 2 or a 3, which the knocker then scores"
    ("knock with a two", entry(ending="knock", knock_card="2C"), (2, 68, 29)),
    ("knock with a three", entry(ending="knock", knock_card="3D"), (3, 68, 29)),
    (
        "knock with the knocker's cards",
        entry(ending="knock", knock_card="2C", players=[line(KNOCK), line(LOOSE), line(points=40)]),
        (2, 68, 40),
    ),
    (
        "winner in another seat",
        entry(winner=2, players=[line(LOOSE), line(points=12), line()]),
        (68, 12, -10),
    ),
    # "A joker left in hand (D): 20"
    (
        "a joker left in hand",
        entry(players=[line(), line(NO_USE_FOR_JOKER), line(points=0)]),
        (-10, 86, 0),
    ),
    # special hands "taken off the holder's penalty total": royal 50, piccolo 25, flushes 25
    (
        "royal flush for the winner",
        entry(players=[line(ROMI, special="royal"), line(LOOSE), line(JOKER_HAND)]),
        (-60, 68, 29),
    ),
    (
        "piccolo",
        entry(players=[line(), line(PICCOLO, special="piccolo"), line(JOKER_HAND)]),
        (-10, 11 - 25, 29),
    ),
    (
        "colour flush with the upper card",
        entry(players=[line(), line(HEARTS, special="colour_flush"), line(points=5)]),
        (-10, 33 - 25, 5),
    ),
    (
        "figure flush",
        entry(players=[line(), line(points=9), line(FIGURES, special="figure_flush")]),
        None,
    ),
    (
        "a claim without cards is taken on trust",
        entry(players=[line(), line(points=30, special="royal"), line(points=5)]),
        (-10, -20, 5),
    ),
    # "After a römi or knock anyone may throw in its hand, i.e. drop out"
    (
        "drop-out scores nothing",
        entry(players=[line(), line(drop_out=True), line(points=29)]),
        (-10, 0, 29),
    ),
    # a seat out of the buli has an empty line
    ("seat out of the buli", entry(players=[line(), EMPTY, line(points=29)]), (-10, 0, 29)),
]


@pytest.mark.parametrize(("data", "points"), [pytest.param(d, p, id=i) for i, d, p in DEALS])
def test_deal_points(data: dict[str, object], points: tuple[int, ...] | None) -> None:
    result = score(data)
    if points is None:
        figures = tizlapos.special_value(TIZ, "figure_flush")
        deadwood = TIZ.best_arrangement(parse_cards(FIGURES)).deadwood
        assert result.points == (-10, 9, deadwood - figures)
    else:
        assert result.points == points


def test_deal_flags() -> None:
    flags = score(
        entry(
            winner=1,
            ending="knock",
            knock_card="3H",
            players=[line(points=7, special="piccolo"), line(), line(drop_out=True), EMPTY],
        )
    ).flags
    assert flags["winner"] == 1
    assert flags["ending"] == "knock"
    assert flags["knock_card"] == "3H"
    assert flags["present"] == [True, True, True, False]
    assert flags["drop_out"] == [2]
    assert flags["special"] == ["piccolo", None, None, None]
    assert flags["special_points"] == [25, 0, 0, 0]


def test_best_melds_are_recorded() -> None:
    flags = score(entry()).flags
    assert flags["deadwood"] == [None, 68, 29]
    assert flags["unmatched"][2] == "6S 8S 8H 7D"  # type: ignore[index]
    assert "AD AC JK" in flags["melds"][2]  # type: ignore[index]


def test_special_values_follow_the_variant() -> None:
    richer = get_variant("tizlapos_romi", tiz_special_royal=60, tiz_romi_deduction=15)
    result = score(
        entry(players=[line(ROMI, special="royal"), line(LOOSE), line(points=1)]), richer
    )
    assert result.points == (-75, 68, 1)


def test_joker_penalty_follows_the_variant() -> None:
    cheap = get_variant("tizlapos_romi", tiz_joker_penalty=15)
    result = score(entry(players=[line(), line(NO_USE_FOR_JOKER), line(points=0)]), cheap)
    assert result.points[1] == 15 + 66


# -- special hands, card by card ---------------------------------------------------------------

HOLDS = [
    ("royal", "AS KS QS JS 2H 3H 4H 5D 6D 7D", True),
    ("royal", "JS QS KS 2S 3H 4H 5H 5D 6D 7D", False),  # no ace
    ("royal", "JS QS JK AS 3H 4H 5H 5D 6D 7D", True),  # a joker for the king
    ("royal", "JS JK JK AS 3H 4H 5H 5D 6D 7D", True),  # two jokers, two naturals
    ("royal", "JK JK JK AS 3H 4H 5H 5D 6D 7D", False),  # more wilds than naturals
    ("royal", "AS KH QS JS 2H 3H 4H 5D 6D 7D", False),  # not one suit
    ("piccolo", PICCOLO, True),
    ("piccolo", "AS AH AD AC 2S 2H 2D 2C 3S 10H", True),  # 1*4 + 2*4 + 3 + 10 = 25
    ("piccolo", "AS AH AD AC 2S 2H 2D 2C 4S 10H", False),  # 26
    ("piccolo", "JK JK JK JK AS AH AD 2C 3C 9H", True),  # jokers count 0
    ("colour_flush", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH", True),
    ("colour_flush", HEARTS, True),  # nine plus the upper card
    ("colour_flush", "2H 4H 6H 8H 10H QH KH AH 9S 9C", False),  # only eight
    ("colour_flush", "2H 4H 6H 8H 10H QH KH JK 9S 9C", False),
    ("colour_flush", "2H 4H 6H 8H 10H QH KH JK JK 9C", True),  # jokers stand in
    ("figure_flush", FIGURES, True),
    ("figure_flush", "AS KS QH JD AC KC QD JH 2H 2C", False),
    ("figure_flush", "AS KS QH JD AC KC QD JH JK 2C", True),
]


@pytest.mark.parametrize(("kind", "cards", "holds"), HOLDS)
def test_special_hands(kind: str, cards: str, holds: bool) -> None:
    assert tizlapos.special_hand_holds(TIZ, kind, parse_cards(cards)) is holds


# -- refusals ----------------------------------------------------------------------------------

REFUSALS = [
    (
        "römi with cards left",
        entry(players=[line(LOOSE), line(KNOCK), line(points=1)]),
        "not_romi",
        "players.0.cards",
    ),
    (
        "knock card not a two or three",
        entry(ending="knock", knock_card="4C"),
        "bad_knock_card",
        "knock_card",
    ),
    ("joker as knock card", entry(ending="knock", knock_card="JK"), "bad_knock_card", "knock_card"),
    ("two knock cards", entry(ending="knock", knock_card="2C 3C"), "bad_knock_card", "knock_card"),
    ("no knock card", entry(ending="knock"), "knock_card_missing", "knock_card"),
    ("knock card on a römi", entry(knock_card="2C"), "bad_entry", "knock_card"),
    (
        "knock card not in the hand",
        entry(ending="knock", knock_card="2D", players=[line(KNOCK), line(LOOSE), line(points=1)]),
        "knock_card_not_in_hand",
        "knock_card",
    ),
    (
        "knock without nine melded",
        entry(ending="knock", knock_card="2S", players=[line(LOOSE), line(KNOCK), line(points=1)]),
        "knock_not_melded",
        "players.0.cards",
    ),
    (
        "special not held",
        entry(players=[line(), line(LOOSE, special="royal"), line(points=1)]),
        "special_not_held",
        "players.1.special",
    ),
    (
        "unknown special",
        entry(players=[line(), line(LOOSE, special="straight"), line(points=1)]),
        "bad_special",
        "players.1.special",
    ),
    (
        "special on an empty line",
        entry(players=[line(), line(special="piccolo"), line(points=1)]),
        "special_without_hand",
        "players.1.special",
    ),
    (
        "special after throwing in",
        entry(players=[line(), line(special="piccolo", drop_out=True), line(points=1)]),
        "special_without_hand",
        "players.1.special",
    ),
    (
        "points disagree with cards",
        entry(players=[line(), line(LOOSE, points=60), line(points=1)]),
        "points_mismatch",
        "players.1.points",
    ),
    (
        "winner throws in",
        entry(players=[line(drop_out=True), line(LOOSE), line(points=1)]),
        "winner_drops_out",
        "players.0.drop_out",
    ),
    (
        "winner with points",
        entry(players=[line(points=0), line(LOOSE), line(points=1)]),
        "winner_points",
        "players.0.points",
    ),
    (
        "drop-out with cards",
        entry(players=[line(), line(LOOSE, drop_out=True), line(points=1)]),
        "dropped_with_score",
        "players.1.cards",
    ),
    (
        "re-entry with no line",
        entry(players=[line(), line(reenter=True), line(points=1)]),
        "penalty_missing",
        "players.1.cards",
    ),
    # "Two decks (108 cards with 4 jokers)": two copies at most, four jokers at most
    (
        "three copies of a card",
        entry(
            players=[
                line(),
                line("AS AS 2H 7S 8D KH KD QC 3S 6D"),
                line("AS 3H 4H 5H 8S 8H AC AD 6S 7D"),
            ]
        ),
        "too_many_copies",
        "players.2.cards",
    ),
    (
        "five jokers",
        entry(
            players=[
                line(),
                line("JK JK JK 2H 7S 8D KH KD QC 3S"),
                line(JOKER_HAND.replace("8S", "JK")),
            ]
        ),
        "too_many_copies",
        "players.2.cards",
    ),
    (
        "knock card is a third copy",
        entry(
            ending="knock",
            knock_card="2S",
            players=[line(), line(LOOSE), line("2S 3H 4H 5H 8S 8H AC AD 6S 7D")],
        ),
        "too_many_copies",
        "knock_card",
    ),
    # "The dealer takes 11 cards and discards one; the others get 10"
    (
        "nine cards",
        entry(players=[line(), line("2S 2H 7S 8D KH KD QC 3S 6D"), line(points=1)]),
        "hand_size",
        "players.1.cards",
    ),
    (
        "bad card text",
        entry(players=[line(), line("2S 2H 7S 8D KH KD QC 3S 6D 1Z"), line(points=1)]),
        "bad_token",
        "players.1.cards",
    ),
    (
        "negative points",
        entry(players=[line(), line(points=-3), line(points=1)]),
        "bad_points",
        "players.1.points",
    ),
    (
        "impossible points",
        entry(players=[line(), line(points=201), line(points=1)]),
        "implausible_points",
        "players.1.points",
    ),
    ("bad winner", entry(winner=3), "bad_seat", "winner"),
    ("no winner", {**entry(), "winner": None}, "winner_missing", "winner"),
    ("bad ending", entry(ending="gin"), "bad_ending", "ending"),
    ("one player", entry(players=[line()]), "player_count", "players"),
    ("seven players", entry(players=[line()] + [line(points=1)] * 6), "player_count", "players"),
    ("unknown key", {**entry(), "upper": "7H"}, "bad_entry", "upper"),
    (
        "unknown player key",
        entry(players=[line(), {**line(points=3), "buys": 1}, line(points=1)]),
        "bad_entry",
        "players.1.buys",
    ),
    (
        "drop_out not a flag",
        entry(players=[line(), {**line(points=3), "drop_out": "yes"}, line(points=1)]),
        "bad_entry",
        "players.1.drop_out",
    ),
]


@pytest.mark.parametrize(
    ("data", "code", "field"), [pytest.param(d, c, f, id=i) for i, d, c, f in REFUSALS]
)
def test_refusals(data: dict[str, object], code: str, field: str) -> None:
    err = refused(data)
    assert (err.code, err.field) == (code, field)
    assert "%(" not in str(err)


def test_two_copies_of_a_card_are_fine() -> None:
    data = entry(players=[line(), line("AS AS 2H 7S 8D KH KD QC 3S 6D"), line(points=1)])
    assert score(data).points[1] == 10 + 10 + 2 + 7 + 8 + 10 + 10 + 10 + 3 + 6


def test_refusals_speak_plainly() -> None:
    err = refused(
        entry(ending="knock", knock_card="2S", players=[line(LOOSE), line(KNOCK), line(points=1)])
    )
    assert str(err).startswith("Seat 1 cannot knock: besides the knock card ♠2, ")
    err = refused(entry(ending="knock", knock_card="4C"))
    assert str(err) == '"4C" cannot be a knock card: it must be one of these ranks: 2, 3.'


@pytest.mark.parametrize(
    ("cards", "says"),
    [("2S", "has 1 card;"), ("2S 2H", "has 2 cards;")],
)
def test_a_short_hand_is_counted_in_words_that_fit_the_number(cards: str, says: str) -> None:
    err = refused(entry(players=[line(), line(cards), line(points=1)]))
    assert err.code == "hand_size"
    assert says in str(err)
    assert str(err).endswith("enter the whole hand of ten.")


# -- the buli ----------------------------------------------------------------------------------


def deal(
    winner: int, points: list[int | None], ending: str = "romi", **lines: dict[str, object]
) -> DealScore:
    """A deal from points: None is an empty line (a seat out of the buli)."""
    players = [EMPTY if p is None else line(points=p) for p in points]
    players[winner] = line()
    for key, value in lines.items():
        players[int(key[1:])] = value
    data = entry(
        winner=winner,
        ending=ending,
        knock_card="2H" if ending == "knock" else None,
        players=players,
    )
    return score(data)


def test_romi_collects_two_units_from_every_player() -> None:
    result = tizlapos.standing(TIZ, 4, [deal(0, [0, 10, 20, 30])])
    assert result.totals == (-10, 10, 20, 30)
    assert result.extra["units"] == [6, -2, -2, -2]
    assert result.finished is False
    assert result.ranking == (0, 1, 2, 3)


def test_knock_collects_one_unit_from_every_player() -> None:
    result = tizlapos.standing(TIZ, 3, [deal(1, [10, 0, 20], ending="knock")])
    assert result.totals == (10, 2, 20)
    assert result.extra["units"] == [-1, 2, -1]


def test_drop_outs_still_pay_and_seats_out_do_not() -> None:
    deals = [
        deal(0, [0, 100, 10, 10]),  # seat 1 reaches 100
        deal(2, [5, None, 0, 0], s3=line(drop_out=True)),
    ]
    result = tizlapos.standing(TIZ, 4, deals)
    assert result.extra["units"] == [6 - 2, -2, -2 + 4, -2 - 2]
    assert result.extra["eliminated"] == [1, 3]
    assert result.extra["active"] == [0, 2]


def test_elimination_at_one_hundred() -> None:
    result = tizlapos.standing(TIZ, 3, [deal(0, [0, 99, 100])])
    assert result.extra["eliminated"] == [2]
    assert result.extra["out_after"] == [None, None, 1]
    assert result.finished is False


def test_last_player_in_wins_the_buli() -> None:
    deals = [deal(0, [0, 60, 70]), deal(0, [0, 40, 30])]
    result = tizlapos.standing(TIZ, 3, deals)
    assert result.finished is True
    assert result.winner == 0
    assert result.extra["ending"] == "last_player"
    # Two römis (2 units from each of two players, twice) and 10 from each at the end.
    assert result.extra["units"] == [8 + 20, -4 - 10, -4 - 10]
    assert result.ranking[0] == 0


def test_reentry_costs_three_units_at_the_worst_total_still_in() -> None:
    deals = [
        deal(0, [0, 100, 40, 55]),  # seat 1 out at 100
        deal(0, [0, 20, 10, 5], s1=line(points=20, reenter=True)),  # back in at 55
    ]
    result = tizlapos.standing(TIZ, 4, deals)
    assert result.totals == (-20, 55 + 20, 50, 60)
    assert result.extra["reentries"] == [0, 1, 0, 0]
    assert result.extra["pot"] == 3
    assert result.extra["active"] == [0, 1, 2, 3]
    units = result.extra["units"]
    assert isinstance(units, list)
    assert units[1] == -2 - 3 - 2
    assert sum(units) + result.extra["pot"] == 0  # type: ignore[operator]


def test_each_reentry_keeps_the_total_it_restarted_at() -> None:
    deals = [
        deal(0, [0, 100, 40, 55]),  # seat 1 out at 100
        deal(0, [0, 20, 10, 5], s1=line(points=20, reenter=True)),  # back in at 55
    ]
    result = tizlapos.standing(TIZ, 4, deals)
    assert result.ledger is not None
    assert result.ledger.restarts == (tizlapos.Reentry(seat=1, deal=2, total=55),)
    assert result.extra["restarts"] == [{"seat": 1, "deal": 2, "total": 55}]
    assert tizlapos.standing(TIZ, 4, deals[:1]).extra["restarts"] == []


def test_drop_out_then_buy_back_in() -> None:
    deals = [
        deal(0, [0, 10, 20], s2=line(drop_out=True)),
        deal(0, [0, 10, None]),
        deal(1, [30, 0, 0], s2=line(points=4, reenter=True)),
    ]
    result = tizlapos.standing(TIZ, 3, deals)
    # Seat 2 dropped out at 0 and came back at the worst total still in: seat 1's 20.
    assert result.totals == (-20 + 30, 20 - 10, 20 + 4)
    assert result.extra["reentries"] == [0, 0, 1]


def test_buli_winner_takes_the_pot() -> None:
    deals = [
        deal(0, [0, 100, 10]),
        deal(0, [0, 5, 100], s1=line(points=5, reenter=True)),  # seat 2 out
        deal(0, [0, 100, None]),  # seat 1 out again: seat 0 is the last in
    ]
    result = tizlapos.standing(TIZ, 3, deals)
    assert result.winner == 0
    assert result.extra["pot"] == 0
    units = result.extra["units"]
    assert units == [4 + 4 + 2 + 20 + 3, -2 - 3 - 2 - 2 - 10, -2 - 2 - 10]
    assert sum(units) == 0  # type: ignore[arg-type]


def test_kis_buli_when_played() -> None:
    deals = [deal(0, [0, 60, 70])]
    assert tizlapos.standing(TIZ, 3, deals).finished is False
    result = tizlapos.standing(KIS, 3, deals)
    assert result.finished is True
    assert result.winner == 0
    assert result.extra["ending"] == "kis_buli"


def test_kis_buli_needs_everyone_else_over_the_line() -> None:
    assert tizlapos.standing(KIS, 3, [deal(0, [0, 60, 50])]).finished is False
    assert tizlapos.standing(KIS, 3, [deal(0, [0, 30, 70])]).finished is False


def test_everyone_out_at_once_leaves_the_deal_winner() -> None:
    deals = [
        deal(0, [0, 95, 95]),  # -10, 95, 95
        deal(1, [108, 0, 0]),  # 98, 85, 95
        deal(0, [0, 150, 10], ending="knock"),  # 100, 235, 105: all at 100 or more
    ]
    result = tizlapos.standing(TIZ, 3, deals)
    assert result.totals == (100, 235, 105)
    assert result.finished is True
    assert result.winner == 0
    assert result.extra["eliminated"] == [1, 2]


def test_no_deal_after_the_buli() -> None:
    deals = [deal(0, [0, 100]), deal(0, [0, None])]
    with pytest.raises(RuleViolation) as info:
        tizlapos.standing(TIZ, 2, deals)
    assert info.value.code == "buli_over"


def test_seat_out_must_buy_back_in_to_play() -> None:
    deals = [deal(0, [0, 100, 10]), deal(0, [0, 5, 10])]
    with pytest.raises(RuleViolation) as info:
        tizlapos.standing(TIZ, 3, deals)
    assert (info.value.code, info.value.field) == ("seat_out", "players.1.reenter")


def test_seat_still_in_needs_a_line() -> None:
    deals = [deal(0, [0, 10, 10]), deal(0, [0, None, 10])]
    with pytest.raises(RuleViolation) as info:
        tizlapos.standing(TIZ, 3, deals)
    assert (info.value.code, info.value.field) == ("penalty_missing", "players.1.cards")


def test_only_a_seat_out_may_buy_back_in() -> None:
    deals = [deal(0, [0, 10, 10], s1=line(points=10, reenter=True))]
    with pytest.raises(RuleViolation) as info:
        tizlapos.standing(TIZ, 3, deals)
    assert info.value.code == "not_out"


def test_winner_must_be_in_the_buli() -> None:
    deals = [deal(0, [0, 100, 10]), deal(1, [0, 0, 10])]
    with pytest.raises(RuleViolation) as info:
        tizlapos.standing(TIZ, 3, deals)
    assert info.value.code == "seat_out"


def test_elimination_limit_is_a_setting() -> None:
    short = get_variant("tizlapos_romi", tiz_elimination=50)
    result = tizlapos.standing(short, 3, [deal(0, [0, 50, 49])])
    assert result.extra["eliminated"] == [1]


# -- the game's defaults (RULES.md's (D)) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "field", "value"),
    [
        ("tizlapos_romi", "min_run", 3),
        ("tizlapos_romi", "ace_high", True),
        ("tizlapos_romi", "wild_jokers", True),
        ("tizlapos_romi", "wild_black_twos", False),
        ("tizlapos_romi", "decks", 2),
        ("tizlapos_romi", "jokers", 4),
        ("tizlapos_romi", "max_players", 6),
        ("tizlapos_romi", "tiz_knock_cards", (2, 3)),
        ("tizlapos_romi", "tiz_romi_deduction", 10),
        ("tizlapos_romi", "tiz_elimination", 100),
        ("tizlapos_romi", "tiz_reentry_units", 3),
        ("tizlapos_romi", "tiz_romi_units", 2),
        ("tizlapos_romi", "tiz_knock_units", 1),
        ("tizlapos_romi", "tiz_last_survivor_units", 10),
        ("tizlapos_romi", "tiz_joker_penalty", 20),
        ("tizlapos_romi", "tiz_special_royal", 50),
        ("tizlapos_romi", "tiz_special_piccolo", 25),
        ("tizlapos_romi", "tiz_special_flush", 25),
        ("tizlapos_romi", "tiz_kis_buli", False),
    ],
)
def test_defaults(variant_id: str, field: str, value: object) -> None:
    assert getattr(get_variant(variant_id), field) == value


@pytest.mark.parametrize(
    ("variant_id", "table"),
    [
        ("tizlapos_romi", {"A": 10, "J": 10, "Q": 10, "K": 10, "2": 2, "9": 9, "JOKER": 20}),
    ],
)
def test_penalty_table(variant_id: str, table: dict[str, int]) -> None:
    v = get_variant(variant_id)
    for key, points in table.items():
        assert v.penalty_table[key] == points
