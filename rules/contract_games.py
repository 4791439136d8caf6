"""Deal entry and scoring for the contract games, Räväytys and Rutupeli.

An entry travels as a JSON-like dict, as it was typed::

    {"out": 2,                      # seat that went out; None when Rutupeli's stock ran out
     "players": [{"cards": "AS K 7 7", "points": None, "buys": 1}, ...],   # one per seat
     "laydown": ["H3 H4 JK H6", "S7-10"],   # the winner's melds, optional
     "ravaytys": True}              # Räväytys only: went out in one turn, optional

Both games are registered here (:data:`RAVAYTYS`, :data:`RUTUPELI`): their settings and
defaults, their rows of the rules page, and the functions below.

Fields in violations count list indexes from 0 (``players.2.cards`` is seat 2, the third
seat; ``laydown.0`` the first meld), the way the entry dict addresses them; messages count
melds and seats from 1, the way players do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from rules.cards import Card
from rules.contracts import check_contract, laydown_cards
from rules.entries import (
    MAX_ENTRY_NUMBER,
    bad_entry,
    deal_number,
    entry_mapping,
    entry_seat,
    is_count,
    is_int,
    line_points,
    read_players,
    stored_scores,
    table_seats,
)
from rules.errors import RulesError, RuleViolation, token_text
from rules.games import GameSpec, TableSizes, game_spec, register
from rules.i18n import _, ngettext
from rules.limits import MAX_CONTRACT_DEALS
from rules.penalties import Hand, check_feasible, hand_from_value, price_breakdown
from rules.results import DealScore, TableStanding
from rules.variants import Contract, Variant, bad_option, range_phrase, shared_options

__all__ = [
    "RAVAYTYS",
    "RUTUPELI",
    "ContractEntry",
    "PlayerEntry",
    "parse_entry",
    "score_deal",
    "standing",
]

_ENTRY_KEYS = frozenset({"out", "players", "laydown", "ravaytys"})
_PLAYER_KEYS = frozenset({"cards", "points", "buys"})


@dataclass(frozen=True)
class PlayerEntry:
    """One seat's line of a deal: the cards left (or their points) and the buys made."""

    hand: Hand | None
    points: int | None
    buys: int


@dataclass(frozen=True)
class ContractEntry:
    """A whole table's entry for deal ``number`` of a contract game."""

    number: int
    out: int | None
    players: tuple[PlayerEntry, ...]
    laydown: tuple[tuple[Card, ...], ...] | None
    ravaytys: bool


def _require_contract_game(variant: Variant) -> None:
    if not variant.is_contract_game:
        raise RulesError(f"{variant.id} is not a contract game")


def parse_entry(variant: Variant, number: int, data: Mapping[str, object]) -> ContractEntry:
    """Check the shape of a deal entry and read its cards.

    Raises :class:`RuleViolation` with ``field`` set (``"out"``, ``"players.1.cards"``,
    ``"players.0.buys"``, ``"laydown.2"``) for anything a person must correct.
    """
    _require_contract_game(variant)
    number = deal_number(variant, number)
    data = entry_mapping(data, _ENTRY_KEYS)
    players = read_players(variant, data, _parse_player)

    if "out" not in data:
        raise RuleViolation(_("Say who went out."), code="out_missing", field="out")
    out = data["out"]
    if out is None and not variant.stock_out_ends_deal:
        raise RuleViolation(
            _("In %(game)s a deal ends only when a player goes out: say who it was."),
            code="out_missing",
            field="out",
            game=variant.name,
        )
    out_seat = None if out is None else entry_seat(out, "out", len(players))

    ravaytys = data.get("ravaytys", False)
    if not isinstance(ravaytys, bool):
        raise bad_entry("ravaytys", "ravaytys")
    if ravaytys and not game_spec(variant).records_ravaytys:
        raise RuleViolation(
            _("Going out at once is recorded only in Räväytys."),
            code="bad_entry",
            field="ravaytys",
            where="ravaytys",
        )
    if ravaytys and out_seat is None:
        raise RuleViolation(
            _("A räväytys needs the player who went out."),
            code="out_missing",
            field="out",
        )

    laydown = _parse_laydown(variant, data.get("laydown"))
    if laydown is not None and out_seat is None:
        raise RuleViolation(
            _("A laydown belongs to the player who went out, and nobody did."),
            code="bad_entry",
            field="laydown",
            where="laydown",
        )
    if laydown is None and out_seat is not None and variant.require_laydown:
        raise RuleViolation(
            _("Enter the melds of the player who went out."),
            code="laydown_required",
            field="laydown",
        )
    return ContractEntry(number, out_seat, players, laydown, ravaytys)


def _parse_player(variant: Variant, seat: int, raw: object) -> PlayerEntry:
    where = f"players.{seat}"
    raw = entry_mapping(raw, _PLAYER_KEYS, where)
    hand: Hand | None = None
    cards = raw.get("cards")
    if cards is not None:
        try:
            hand = hand_from_value(variant, cards)
        except RuleViolation as err:
            raise err.at(f"{where}.cards") from None
    points = line_points(
        variant,
        raw,
        where,
        _("Enter the cards left in the hand; %(game)s prices them itself."),
    )
    buys = raw.get("buys", 0)
    if buys is None:
        buys = 0
    if not is_count(buys, MAX_ENTRY_NUMBER):
        raise RuleViolation(
            _('"%(token)s" is not a number of buys: expected 0 or more.'),
            code="bad_buys",
            field=f"{where}.buys",
            token=token_text(buys),
        )
    # A game without a cap still records no more than ``max_buys`` (see rules.limits).
    if buys > variant.max_buys:
        raise RuleViolation(
            ngettext(
                "At most %(cap)d buy per player in a deal of %(game)s; seat %(seat)d has %(buys)d.",
                "At most %(cap)d buys per player in a deal of %(game)s; seat %(seat)d has %(buys)d.",
                variant.max_buys,
            ),
            code="too_many_buys",
            field=f"{where}.buys",
            cap=variant.max_buys,
            game=variant.name,
            seat=seat + 1,
            buys=buys,
        )
    return PlayerEntry(hand, points, buys)


def _parse_laydown(variant: Variant, raw: object) -> tuple[tuple[Card, ...], ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list | tuple):
        raise bad_entry("laydown", "laydown")
    return tuple(tuple(cards) for cards in laydown_cards(variant, raw))


def _card_values(variant: Variant) -> list[int]:
    table = variant.penalty_table
    keys = ["A", *(str(r) for r in range(2, 11)), "J", "Q", "K"]
    if variant.jokers:
        keys.append("JOKER")
    if variant.wild_black_twos:
        keys.append("BLACK_TWO")
    return [table[k] for k in keys]


def max_hand_size(variant: Variant, number: int, buys: int) -> int:
    """The most cards a hand can hold at the end of deal ``number``.

    The cards dealt, one more (the dealer's extra card, or a drawn card not yet
    discarded), and two per buy (the bought card and the penalty card).
    """
    return variant.cards_dealt[number - 1] + 1 + 2 * buys


def _check_points(variant: Variant, number: int, seat: int, points: int, buys: int) -> None:
    values = _card_values(variant)
    field = f"players.{seat}.points"
    most = max_hand_size(variant, number, buys) * max(values)
    if points > most:
        raise RuleViolation(
            _(
                "%(points)d penalty points is more than a hand can hold: "
                "at most %(max)d in deal %(deal)d with %(buys)d buys."
            ),
            code="implausible_points",
            field=field,
            points=points,
            max=most,
            deal=number,
            buys=buys,
        )
    positive = [v for v in values if v > 0]
    least = min(positive) if positive else 0
    step = math.gcd(*values)
    if points < least or (step and points % step):
        raise RuleViolation(
            _(
                "%(points)d penalty points cannot be made from cards worth %(values)s; "
                "a hand left holds at least one card."
            ),
            code="implausible_points",
            field=field,
            points=points,
            values=", ".join(str(v) for v in sorted(set(values))),
        )


def score_deal(variant: Variant, entry: ContractEntry) -> DealScore:
    """Score a parsed deal: the player out scores 0, everyone else the penalty of its hand.

    Raises :class:`RuleViolation` for an impossible deal: cards left by the player who went
    out, a hand with no cards or too many, points that no hand could make, cards that
    disagree with the points given, more copies of a card than the decks hold, or a laydown
    that does not meet the deal's contract.
    """
    _require_contract_game(variant)
    number = entry.number
    points: list[int] = []
    hands: list[Hand] = []
    fields: list[str | None] = []
    for seat, player in enumerate(entry.players):
        where = f"players.{seat}"
        hand = player.hand
        if hand is not None:
            hands.append(hand)
            fields.append(f"{where}.cards")
        if seat == entry.out:
            if hand is not None and len(hand):
                raise RuleViolation(
                    _("Seat %(seat)d went out, so it has no cards left."),
                    code="out_has_cards",
                    field=f"{where}.cards",
                    seat=seat + 1,
                )
            if player.points:
                raise RuleViolation(
                    _("Seat %(seat)d went out, so it has no penalty points."),
                    code="out_has_cards",
                    field=f"{where}.points",
                    seat=seat + 1,
                )
            points.append(-variant.ravaytys_bonus if entry.ravaytys else 0)
            continue
        if hand is None and player.points is None:
            raise RuleViolation(
                _("Enter the cards left in seat %(seat)d's hand, or their points."),
                code="penalty_missing",
                field=f"{where}.cards",
                seat=seat + 1,
            )
        if hand is not None:
            if not len(hand):
                raise RuleViolation(
                    _("Seat %(seat)d has no cards left, but only the player who went out can."),
                    code="empty_hand",
                    field=f"{where}.cards",
                    seat=seat + 1,
                )
            most = max_hand_size(variant, number, player.buys)
            if len(hand) > most:
                raise RuleViolation(
                    _(
                        "Seat %(seat)d has %(count)d cards left, more than a hand can hold "
                        "in deal %(deal)d with %(buys)d buys (%(max)d)."
                    ),
                    code="too_many_cards",
                    field=f"{where}.cards",
                    seat=seat + 1,
                    count=len(hand),
                    deal=number,
                    buys=player.buys,
                    max=most,
                )
            priced = sum(value for _label, value in price_breakdown(variant, hand))
            if player.points is not None and player.points != priced:
                raise RuleViolation(
                    _(
                        "The cards left in seat %(seat)d's hand are worth %(priced)d, not %(points)d."
                    ),
                    code="points_mismatch",
                    field=f"{where}.points",
                    seat=seat + 1,
                    priced=priced,
                    points=player.points,
                )
            points.append(priced)
        else:
            assert player.points is not None
            _check_points(variant, number, seat, player.points, player.buys)
            points.append(player.points)

    melds = entry.laydown or ()
    check_feasible(
        variant,
        [*hands, *melds],
        [*fields, *(f"laydown.{i}" for i in range(len(melds)))],
    )
    if entry.laydown is not None:
        check_contract(variant, number, entry.laydown)

    flags: dict[str, object] = {
        "deal": number,
        "contract": variant.contract(number).describe(),
        "went_out": entry.out,
        "stock_exhausted": entry.out is None,
        "ravaytys": entry.ravaytys,
        "buys": [p.buys for p in entry.players],
        "from_cards": [p.hand is not None for p in entry.players],
    }
    return DealScore(points=tuple(points), flags=flags)


def standing(variant: Variant, seats: int, deals: Sequence[DealScore]) -> TableStanding:
    """Totals and ranking after the deals so far; lowest total first.

    Ties are broken by the variant's ``tie_order`` (by default: fewer points in the last
    deal, then more deals won by going out); seat order stands in for the tie-break the
    director records, and such groups are listed in ``extra["tie_unresolved"]``.
    """
    _require_contract_game(variant)
    seats = table_seats(variant, seats)
    deals = stored_scores(variant, seats, deals)
    totals = [0] * seats
    won = [0] * seats
    ravaytys = [0] * seats
    for deal in deals:
        for seat, value in enumerate(deal.points):
            totals[seat] += value
        out = deal.flags.get("went_out")
        if is_int(out) and 0 <= out < seats:
            won[out] += 1
            if deal.flags.get("ravaytys") is True:
                ravaytys[out] += 1
    last = deals[-1].points if deals else (0,) * seats

    def tie_keys(seat: int) -> tuple[int, ...]:
        keys: list[int] = []
        for rule in variant.tie_order:
            if rule == "last_deal":
                keys.append(last[seat])
            elif rule == "deals_won":
                keys.append(-won[seat])
        return tuple(keys)

    def sort_key(seat: int) -> tuple[int, ...]:
        return (totals[seat], *tie_keys(seat), seat)

    ranking = sorted(range(seats), key=sort_key)
    unresolved: list[list[int]] = []
    group: list[int] = []
    for seat in ranking:
        if group and (totals[group[0]], tie_keys(group[0])) == (totals[seat], tie_keys(seat)):
            group.append(seat)
            continue
        if len(group) > 1:
            unresolved.append(group)
        group = [seat]
    if len(group) > 1:
        unresolved.append(group)

    finished = len(deals) == len(variant.deals)
    # A table whose top players stay level after the tie order has no winner of its own:
    # the director's recorded tie-break decides, never the seat order.
    tied_at_top = bool(unresolved) and seats > 0 and ranking[0] in unresolved[0]
    return TableStanding(
        totals=tuple(totals),
        lower_is_better=True,
        finished=finished,
        ranking=tuple(ranking),
        winner=ranking[0] if finished and seats and not tied_at_top else None,
        extra={
            "deals_played": len(deals),
            "deals_won": won,
            "ravaytys": ravaytys,
            "tie_order": list(variant.tie_order),
            "tie_unresolved": unresolved,
        },
    )


# -- the games ---------------------------------------------------------------------------------


def _check(v: Variant) -> None:
    """Settings that make a contract game nobody can score."""
    if not v.deals:
        raise bad_option("deals", _("at least one contract: this is a contract game"), v.deals)
    if len(v.deals) > MAX_CONTRACT_DEALS:
        raise bad_option("deals", range_phrase(1, MAX_CONTRACT_DEALS), v.deals)
    if len(v.cards_dealt) != len(v.deals):
        raise bad_option("cards_dealt", _("one number per deal"), v.cards_dealt)
    if any(n < 1 for n in v.cards_dealt):
        raise bad_option("cards_dealt", _("a number of cards for each deal"), v.cards_dealt)
    for contract, dealt in zip(v.deals, v.cards_dealt, strict=True):
        # The contract is laid down from one hand: the cards dealt, one drawn, and buys.
        if contract.sets * v.min_set + contract.runs * v.min_run > dealt + 1 + 2 * v.max_buys:
            raise bad_option("deals", _("contracts that a hand of the deal can lay down"), v.deals)


def _describe(v: Variant, translate: Callable[[str], str]) -> list[tuple[str, str]]:
    """The contract games' own rows of the rules page."""
    _ = translate  # shadows the module's marker for every message below
    return [
        (
            _("Buying a discard"),
            _("at most %(count)d buys per player per deal") % {"count": v.buy_cap}
            if v.buy_cap is not None
            # The engine's own cap (rules.limits.UNCAPPED_BUYS), stated where it is met.
            else _("no limit; a score sheet takes up to %(count)d per player per deal")
            % {"count": v.max_buys},
        ),
        (
            _("Runs of one suit in a laydown"),
            _("may overlap or leave a gap, but may not continue each other")
            if v.runs_must_not_continue
            else _("may also continue each other"),
        ),
        (
            _("Stock used up"),
            _("after going through twice, the deal ends and everyone scores its hand")
            if v.stock_out_ends_deal
            else _("the discards are shuffled into a new stock"),
        ),
        (
            _("Going out at once (räväytys)"),
            _("recorded, %(points)d points off") % {"points": v.ravaytys_bonus}
            if v.ravaytys_bonus
            else _("recorded, no bonus"),
        ),
        (
            _("Laydown on the score sheet"),
            _("required") if v.require_laydown else _("optional"),
        ),
    ]


def playoff(variant: Variant) -> Variant:
    """One deal of the game's last contract, playable by two: a play-off between players
    the table left level. The last contract, because the tie order's first test is already
    the last deal; by two, because a tie is most often between two."""
    return replace(
        variant,
        deals=variant.deals[-1:],
        cards_dealt=variant.cards_dealt[-1:],
        min_players=min(variant.min_players, 2),
    )


def _c(sets: int = 0, runs: int = 0) -> Contract:
    return Contract(sets=sets, runs=runs)


# What a card left in hand costs (docs/rules.md); Rutupeli has no wild twos to price apart.
_PENALTIES = {
    "A": 20,
    **{str(r): 5 for r in range(2, 10)},
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
    "JOKER": 50,
    "BLACK_TWO": 20,
}
# Three to six at a table, four when the room allows (within the variant's own players).
_TABLES = TableSizes(min_size=3, max_size=6, preferred=4)

RAVAYTYS = register(
    GameSpec(
        id="ravaytys",
        family="contract",
        variant_class=Variant,
        options=shared_options(
            name=_("Räväytys"),
            min_players=3,
            max_players=6,
            decks=2,
            jokers=4,
            wild_jokers=True,
            wild_black_twos=True,
            max_wild_ratio_half=True,
            ace_low=True,
            ace_high=True,
            min_run=4,
            min_set=3,
            max_set=None,
            set_suits_distinct=False,
            deals=(
                _c(sets=2),
                _c(sets=3),
                _c(sets=4),
                _c(runs=2),
                _c(runs=3),
                _c(sets=1, runs=1),
                _c(sets=1, runs=2),
                _c(sets=2, runs=1),
            ),
            cards_dealt=(11, 11, 12, 11, 12, 11, 11, 11),
            penalty_table=dict(_PENALTIES),
            buy_cap=None,
            black_two_natural=True,
            runs_must_not_continue=True,
            stock_out_ends_deal=False,
            allow_points_entry=True,
            require_laydown=False,
            ravaytys_bonus=0,
            tie_order=("last_deal", "deals_won", "seat"),
        ),
        parse_entry=parse_entry,
        score_deal=score_deal,
        standing=standing,
        tables=_TABLES,
        records_ravaytys=True,
        describe=_describe,
        check=_check,
        playoff=playoff,
    )
)

RUTUPELI = register(
    GameSpec(
        id="rutupeli",
        family="contract",
        variant_class=Variant,
        options=shared_options(
            name=_("Rutupeli"),
            min_players=2,
            max_players=6,
            decks=2,
            jokers=0,
            wild_jokers=False,
            wild_black_twos=False,
            max_wild_ratio_half=True,
            ace_low=True,
            ace_high=True,
            min_run=4,
            min_set=3,
            max_set=None,
            set_suits_distinct=False,
            deals=(
                _c(sets=2),
                _c(sets=1, runs=1),
                _c(runs=2),
                _c(sets=2, runs=1),
                _c(sets=1, runs=2),
                _c(sets=3),
                _c(runs=3),
            ),
            cards_dealt=(12,) * 7,
            penalty_table={**_PENALTIES, "BLACK_TWO": 5},
            buy_cap=3,
            black_two_natural=True,
            runs_must_not_continue=False,
            stock_out_ends_deal=True,
            allow_points_entry=True,
            require_laydown=False,
            ravaytys_bonus=0,
            tie_order=("last_deal", "deals_won", "seat"),
        ),
        parse_entry=parse_entry,
        score_deal=score_deal,
        standing=standing,
        tables=_TABLES,
        describe=_describe,
        check=_check,
        playoff=playoff,
    )
)
