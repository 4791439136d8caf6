"""Deal entry and scoring for Tízlapos Römi: 2 to 6 players, two decks and four jokers, a buli.

An entry travels as a JSON-like dict, as it was typed::

    {"winner": 1,                  # seat that ended the deal
     "ending": "knock",            # "romi" or "knock"
     "knock_card": "2H",           # the knocker's tenth card, a 2 or a 3 (None for a römi)
     "players": [                  # one per seat of the table, in seat order
        {"cards": "AS KS QS ...", "points": None, "special": "royal",
         "drop_out": False, "reenter": False},
        ...]}

A seat that is out of the buli and does not buy back in has an empty line (no cards, no
points). ``cards`` is the whole hand (ten cards); the engine melds it as well as it can and
counts the rest. ``points`` is that count when the cards are not typed; a special hand is
taken off it by the engine.

Decisions where the source is silent (docs/rules.md lists them all):

* A joker left in hand counts 20 (the variant's ``tiz_joker_penalty``, :data:`JOKER_PENALTY`).
* Special hands are taken off the deal's penalty; a joker may stand in them for any card
  (in a royal flush no more jokers than natural cards). A flush may use the upper card, which
  the entry does not hold, so nine cards of the suit (or nine figures) in hand are enough.
* ``reenter`` on a deal means the seat bought back in before that deal: it pays the
  re-entry units into the pot and starts at the total of the worst player still in.
* ``drop_out`` means the seat threw in its hand after the römi or knock: it scores nothing
  for the deal (it still pays the winner's units) and is out of the buli.
* When the buli ends, its winner collects the survivor's units from every other seat and
  takes the pot of re-entry payments. A kis buli (when played) ends the buli the same way.
* If one deal would put every player out, the deal's winner stays in.

The game is registered here (:data:`TIZLAPOS_ROMI`): its own settings (:class:`TizVariant`)
and their defaults, its rows of the rules page, and the buli's account (:class:`BuliLedger`).

Fields in violations count seats from 0 (``players.2.cards``); messages count from 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.arrangement import best_arrangement
from rules.cards import Card, Suit, rank_code
from rules.entries import (
    bad_entry,
    bad_score,
    deal_number,
    entry_mapping,
    entry_seat,
    is_int,
    line_points,
    read_players,
    stored_scores,
    table_seats,
)
from rules.errors import RulesError, RuleViolation, token_text
from rules.games import MAX_TARGET, GameSpec, Option, TableSizes, register
from rules.i18n import Phrase, _, ngettext
from rules.limits import read_cards
from rules.notation import describe_cards, format_cards
from rules.penalties import check_feasible
from rules.results import DealScore, TableStanding
from rules.variants import Variant, bad_option, check_ten_card_game, shared_options

__all__ = [
    "ENDINGS",
    "JOKER_PENALTY",
    "PICCOLO_LIMIT",
    "SPECIALS",
    "TIZLAPOS_ROMI",
    "BuliLedger",
    "Reentry",
    "TizEntry",
    "TizPlayer",
    "TizVariant",
    "parse_entry",
    "score_deal",
    "special_hand_holds",
    "special_value",
    "standing",
]

ENDINGS = ("romi", "knock")
SPECIALS = ("royal", "piccolo", "colour_flush", "figure_flush")
HAND_SIZE = 10
# "Pikkoló: a kézben lévő lapok értékeinek összege nem haladja meg a 25 pontot" (S).
PICCOLO_LIMIT = 25
_FIGURES = (1, 11, 12, 13)
_ENTRY_KEYS = frozenset({"winner", "ending", "knock_card", "players"})
_PLAYER_KEYS = frozenset({"cards", "points", "special", "drop_out", "reenter"})
# A joker left in hand (D): one setting with two names, ``tiz_joker_penalty`` and the
# joker's line of ``penalty_table``.
JOKER_PENALTY = 20


@dataclass(frozen=True, kw_only=True)
class TizVariant(Variant):
    """Tízlapos Römi's settings: those every game has and its own (defaults in
    :data:`TIZLAPOS_ROMI`)."""

    tiz_knock_cards: tuple[int, ...]
    tiz_romi_deduction: int
    tiz_elimination: int
    tiz_reentry_units: int
    tiz_romi_units: int
    tiz_knock_units: int
    tiz_last_survivor_units: int
    tiz_joker_penalty: int
    tiz_special_royal: int
    tiz_special_piccolo: int
    tiz_special_flush: int
    tiz_kis_buli: bool
    tiz_kis_buli_limit: int


@dataclass(frozen=True)
class Reentry:
    """A seat that bought back in before deal ``deal``, its total set to ``total`` (the
    worst total of those still in)."""

    seat: int
    deal: int
    total: int

    def to_dict(self) -> dict[str, int]:
        """The JSON-ready form."""
        return {"seat": self.seat, "deal": self.deal, "total": self.total}


@dataclass(frozen=True)
class BuliLedger:
    """The buli's account after the deals so far (``standing.ledger``), seat by seat.

    ``active`` and ``eliminated`` are the seats still in and out; ``units`` each seat's net
    units (with ``pot``, the re-entry payments not yet collected, they add up to zero);
    ``reentries`` how often each seat bought back in; ``out_after`` the deal after which
    each seat went out (None while it is in); ``ending`` how the buli ended
    (``"last_player"``, ``"kis_buli"``, or None while it goes on); ``deals_won`` per seat;
    ``restarts`` every re-entry in order, with the total it restarted at.
    ``to_dict()`` is ``standing.extra`` without ``deals_played``.
    """

    active: tuple[int, ...]
    eliminated: tuple[int, ...]
    units: tuple[int, ...]
    pot: int
    reentries: tuple[int, ...]
    out_after: tuple[int | None, ...]
    ending: str | None
    deals_won: tuple[int, ...]
    restarts: tuple[Reentry, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """The JSON-ready form (lists for the seats)."""
        return {
            "active": list(self.active),
            "eliminated": list(self.eliminated),
            "units": list(self.units),
            "pot": self.pot,
            "reentries": list(self.reentries),
            "out_after": list(self.out_after),
            "deals_won": list(self.deals_won),
            "ending": self.ending,
            "restarts": [restart.to_dict() for restart in self.restarts],
        }


@dataclass(frozen=True)
class TizPlayer:
    """One seat's line of a deal."""

    cards: tuple[Card, ...] | None
    points: int | None
    special: str | None
    drop_out: bool
    reenter: bool

    @property
    def present(self) -> bool:
        """Whether the line says anything (an empty line is a seat out of the buli)."""
        return self.cards is not None or self.points is not None or self.drop_out


@dataclass(frozen=True)
class TizEntry:
    """A whole table's entry for one deal of Tízlapos Römi."""

    number: int
    winner: int
    ending: str
    knock_card: Card | None
    players: tuple[TizPlayer, ...]


def _require_tizlapos(variant: Variant) -> TizVariant:
    if not isinstance(variant, TizVariant):
        raise RulesError(f"{variant.id} is not Tízlapos Römi")
    return variant


# -- special hands ---------------------------------------------------------------------------


def special_value(variant: Variant, kind: str) -> int:
    """How many points a special hand takes off its holder's penalty."""
    variant = _require_tizlapos(variant)
    if kind == "royal":
        return variant.tiz_special_royal
    if kind == "piccolo":
        return variant.tiz_special_piccolo
    if kind in ("colour_flush", "figure_flush"):
        return variant.tiz_special_flush
    raise RulesError(f"unknown special hand {kind!r}")


def _piccolo_total(cards: Sequence[Card]) -> int:
    # Ace 1 and joker 0 here, whatever the penalty table says (S).
    return sum(0 if c.suit is None else min(c.rank, 10) for c in cards)


def special_hand_holds(variant: Variant, kind: str, cards: Sequence[Card]) -> bool:
    """Whether ``cards`` (a whole hand) hold the special hand ``kind``."""
    jokers = sum(1 for c in cards if c.suit is None) if variant.wild_jokers else 0
    naturals = [c for c in cards if c.suit is not None]
    if kind == "piccolo":
        return _piccolo_total(cards) <= PICCOLO_LIMIT
    if kind == "royal":
        for suit in Suit:
            have = sum(1 for r in _FIGURES if Card(r, suit) in naturals)
            missing = 4 - have
            wild_ok = missing <= have if variant.max_wild_ratio_half else True
            if missing <= jokers and wild_ok:
                return True
        return False
    # The upper card may complete a flush, so nine of the ten are enough.
    need = HAND_SIZE - 1
    if kind == "colour_flush":
        return any(sum(1 for c in naturals if c.suit is s) + jokers >= need for s in Suit)
    if kind == "figure_flush":
        return sum(1 for c in naturals if c.rank in _FIGURES) + jokers >= need
    raise RulesError(f"unknown special hand {kind!r}")


# -- reading an entry ------------------------------------------------------------------------


def parse_entry(variant: Variant, number: int, data: Mapping[str, object]) -> TizEntry:
    """Check the shape of a Tízlapos deal entry and read its cards.

    Raises :class:`RuleViolation` with ``field`` set (``"winner"``, ``"knock_card"``,
    ``"players.2.cards"``, ``"players.0.special"``...) for anything a person must correct,
    including cards that could not all be in two decks and four jokers.
    """
    variant = _require_tizlapos(variant)
    number = deal_number(variant, number)
    data = entry_mapping(data, _ENTRY_KEYS)
    players = read_players(variant, data, _parse_player)

    winner = data.get("winner")
    if winner is None:
        raise RuleViolation(
            _("Say who won the deal with a römi or a knock."),
            code="winner_missing",
            field="winner",
        )
    winner_seat = entry_seat(winner, "winner", len(players))

    ending = data.get("ending")
    if ending not in ENDINGS:
        raise RuleViolation(
            _('"%(token)s" is not how a deal ends: expected römi or knock.'),
            code="bad_ending",
            field="ending",
            token=token_text(ending),
        )
    assert isinstance(ending, str)

    knock_card = _parse_knock_card(variant, ending, data.get("knock_card"))
    _check_lines(players, winner_seat)

    # Every card of the deal must exist: the hands typed, and the knock card when the
    # knocker's hand is not typed (otherwise it is one of those cards).
    hands: list[Sequence[Card]] = []
    fields: list[str | None] = []
    for seat, player in enumerate(players):
        if player.cards is not None:
            hands.append(player.cards)
            fields.append(f"players.{seat}.cards")
    if knock_card is not None and players[winner_seat].cards is None:
        hands.append([knock_card])
        fields.append("knock_card")
    check_feasible(variant, hands, fields)
    return TizEntry(number, winner_seat, ending, knock_card, players)


def _parse_knock_card(variant: TizVariant, ending: str, raw: object) -> Card | None:
    if raw is None or raw == "":
        if ending == "knock":
            raise RuleViolation(
                _("Enter the knock card: the 2 or 3 the knocker kept."),
                code="knock_card_missing",
                field="knock_card",
            )
        return None
    if ending == "romi":
        raise RuleViolation(
            _("A römi has no knock card."),
            code="bad_entry",
            field="knock_card",
            where="knock_card",
        )
    cards = read_cards(variant, raw, "knock_card", count=False)
    allowed = ", ".join(rank_code(r) for r in variant.tiz_knock_cards)
    if len(cards) != 1 or cards[0].suit is None or cards[0].rank not in variant.tiz_knock_cards:
        raise RuleViolation(
            _('"%(token)s" cannot be a knock card: it must be one of these ranks: %(allowed)s.'),
            code="bad_knock_card",
            field="knock_card",
            token=token_text(raw),
            allowed=allowed,
        )
    return cards[0]


def _parse_player(variant: Variant, seat: int, raw: object) -> TizPlayer:
    where = f"players.{seat}"
    if raw is None:
        return TizPlayer(None, None, None, False, False)
    raw = entry_mapping(raw, _PLAYER_KEYS, where)

    special = raw.get("special")
    if special is not None and special not in SPECIALS:
        raise RuleViolation(
            _(
                '"%(token)s" is not a special hand: expected royal, piccolo, colour_flush or '
                "figure_flush."
            ),
            code="bad_special",
            field=f"{where}.special",
            token=token_text(special),
        )
    assert special is None or isinstance(special, str)

    cards: tuple[Card, ...] | None = None
    raw_cards = raw.get("cards")
    if raw_cards is not None and raw_cards != "":
        # A hand holds exactly ten cards: that is its limit, checked before any solving.
        cards = tuple(read_cards(variant, raw_cards, f"{where}.cards", count=False))
        if len(cards) != HAND_SIZE:
            raise RuleViolation(
                ngettext(
                    "Seat %(seat)d's hand has %(count)d card; enter the whole hand of ten.",
                    "Seat %(seat)d's hand has %(count)d cards; enter the whole hand of ten.",
                    len(cards),
                ),
                code="hand_size",
                field=f"{where}.cards",
                seat=seat + 1,
                count=len(cards),
                limit=HAND_SIZE,
            )

    points = line_points(
        variant,
        raw,
        where,
        _("Enter the cards in the hand; %(game)s prices them itself."),
    )
    if points is not None:
        most = HAND_SIZE * max(variant.penalty_table.values())
        if points > most:
            raise RuleViolation(
                _("%(points)d penalty points is more than ten cards can hold (%(max)d)."),
                code="implausible_points",
                field=f"{where}.points",
                points=points,
                max=most,
            )

    flags: list[bool] = []
    for key in ("drop_out", "reenter"):
        value = raw.get(key, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            raise bad_entry(f"{where}.{key}", f"{where}.{key}")
        flags.append(value)
    return TizPlayer(
        cards,
        points,
        special,
        flags[0],
        flags[1],
    )


def _check_lines(players: Sequence[TizPlayer], winner: int) -> None:
    for seat, player in enumerate(players):
        where = f"players.{seat}"
        if seat == winner:
            if player.drop_out:
                raise RuleViolation(
                    _("Seat %(seat)d won the deal, so it cannot throw in its hand."),
                    code="winner_drops_out",
                    field=f"{where}.drop_out",
                    seat=seat + 1,
                )
            if player.points is not None:
                raise RuleViolation(
                    _(
                        "Seat %(seat)d won the deal: its score comes from the römi or the "
                        "knock card, so leave its points empty."
                    ),
                    code="winner_points",
                    field=f"{where}.points",
                    seat=seat + 1,
                )
            continue
        if player.drop_out and (player.cards is not None or player.points is not None):
            raise RuleViolation(
                _(
                    "Seat %(seat)d threw in its hand, so it scores nothing this deal: "
                    "leave its cards and points empty."
                ),
                code="dropped_with_score",
                field=f"{where}.cards" if player.cards is not None else f"{where}.points",
                seat=seat + 1,
            )
        if player.special is not None and not player.present:
            raise RuleViolation(
                _("Seat %(seat)d has no hand in this deal, so no special hand either."),
                code="special_without_hand",
                field=f"{where}.special",
                seat=seat + 1,
            )
        if player.special is not None and player.drop_out:
            raise RuleViolation(
                _("Seat %(seat)d threw in its hand, so it cannot show a special hand."),
                code="special_without_hand",
                field=f"{where}.special",
                seat=seat + 1,
            )
        if player.reenter and not player.present:
            raise RuleViolation(
                _("Seat %(seat)d bought back in: enter its cards or points for this deal."),
                code="penalty_missing",
                field=f"{where}.cards",
                seat=seat + 1,
            )


# -- scoring ---------------------------------------------------------------------------------


def score_deal(variant: Variant, entry: TizEntry) -> DealScore:
    """Score one deal: every seat's penalty for it (negative for a römi's deduction).

    The winner scores minus the römi deduction, or its knock card's value; every other
    player in the deal the value of its unmatched cards (the best melds of the cards typed,
    or the points given); a special hand comes off its holder's line; a seat that threw in
    its hand or is out of the buli scores 0. The units, eliminations and re-entries follow
    from the whole buli in :func:`standing`.

    Raises :class:`RuleViolation` for a römi or knock the winner's cards do not make, a
    special hand the cards do not hold, or cards that disagree with the points given.
    """
    variant = _require_tizlapos(variant)
    seats = len(entry.players)
    winner = entry.winner
    points = [0] * seats
    deadwood: list[int | None] = [None] * seats
    melds: list[list[str] | None] = [None] * seats
    unmatched: list[str | None] = [None] * seats
    specials: list[str | None] = [None] * seats
    special_points = [0] * seats

    for seat, player in enumerate(entry.players):
        where = f"players.{seat}"
        if seat == winner:
            points[seat] = _winner_points(variant, entry, player, seat)
            if player.cards is not None:
                laid = best_arrangement(variant, _without(player.cards, entry.knock_card))
                melds[seat] = [format_cards(m.cards) for m in laid.melds]
                unmatched[seat] = "" if entry.knock_card is None else entry.knock_card.code
        elif player.drop_out or not player.present:
            continue
        elif player.cards is not None:
            arrangement = best_arrangement(variant, player.cards)
            if player.points is not None and player.points != arrangement.deadwood:
                raise RuleViolation(
                    _(
                        "Seat %(seat)d's best melds leave %(cards)s unmatched, worth "
                        "%(priced)d, not %(points)d."
                    ),
                    code="points_mismatch",
                    field=f"{where}.points",
                    seat=seat + 1,
                    cards=describe_cards(arrangement.unmatched) or "-",
                    priced=arrangement.deadwood,
                    points=player.points,
                )
            points[seat] = arrangement.deadwood
            deadwood[seat] = arrangement.deadwood
            melds[seat] = [format_cards(m.cards) for m in arrangement.melds]
            unmatched[seat] = format_cards(arrangement.unmatched)
        else:
            if player.points is None:  # pragma: no cover - present means cards or points
                raise RulesError("a present seat without cards or points")
            points[seat] = player.points
            deadwood[seat] = player.points

        if player.special is not None:
            if player.cards is not None and not special_hand_holds(
                variant, player.special, player.cards
            ):
                raise RuleViolation(
                    _("Seat %(seat)d's cards do not make %(special)s."),
                    code="special_not_held",
                    field=f"{where}.special",
                    seat=seat + 1,
                    special=_special_phrase(player.special),
                )
            specials[seat] = player.special
            special_points[seat] = special_value(variant, player.special)
            points[seat] -= special_points[seat]

    flags: dict[str, object] = {
        "deal": entry.number,
        "winner": winner,
        "ending": entry.ending,
        "knock_card": None if entry.knock_card is None else entry.knock_card.code,
        "present": [p.present or seat == winner for seat, p in enumerate(entry.players)],
        "drop_out": [seat for seat, p in enumerate(entry.players) if p.drop_out],
        "reenter": [seat for seat, p in enumerate(entry.players) if p.reenter],
        "special": specials,
        "special_points": special_points,
        "deadwood": deadwood,
        "from_cards": [p.cards is not None for p in entry.players],
        "melds": melds,
        "unmatched": unmatched,
    }
    return DealScore(points=tuple(points), flags=flags)


def _without(cards: Sequence[Card], card: Card | None) -> list[Card]:
    rest = list(cards)
    if card is not None:
        rest.remove(card)
    return rest


def _winner_points(variant: TizVariant, entry: TizEntry, player: TizPlayer, seat: int) -> int:
    where = f"players.{seat}.cards"
    if entry.ending == "romi":
        if player.cards is not None:
            laid = best_arrangement(variant, player.cards)
            if laid.unmatched:
                raise RuleViolation(
                    _("This is no römi: seat %(seat)d's best melds leave %(cards)s unmatched."),
                    code="not_romi",
                    field=where,
                    seat=seat + 1,
                    cards=describe_cards(laid.unmatched),
                )
        return -variant.tiz_romi_deduction
    knock = entry.knock_card
    assert knock is not None
    if player.cards is not None:
        if knock not in player.cards:
            raise RuleViolation(
                _("Seat %(seat)d knocked with %(card)s, but that card is not in its hand."),
                code="knock_card_not_in_hand",
                field="knock_card",
                seat=seat + 1,
                card=knock.label,
            )
        laid = best_arrangement(variant, _without(player.cards, knock))
        if laid.unmatched:
            raise RuleViolation(
                _(
                    "Seat %(seat)d cannot knock: besides the knock card %(card)s, "
                    "%(cards)s are not in melds."
                ),
                code="knock_not_melded",
                field=where,
                seat=seat + 1,
                card=knock.label,
                cards=describe_cards(laid.unmatched),
            )
    return variant.penalty(knock)


def _special_phrase(kind: str) -> Phrase:
    """The special hand's name, translated when the message is shown."""
    return Phrase(lambda translate: translate(_special_name(kind)))


def _special_name(kind: str) -> str:
    return {
        "royal": _("a royal flush"),
        "piccolo": _("a piccolo"),
        "colour_flush": _("a colour flush"),
        "figure_flush": _("a figure flush"),
    }[kind]


# -- the buli --------------------------------------------------------------------------------


def _seat_list(flags: Mapping[str, object], key: str, seats: int, number: int) -> list[int]:
    value = flags.get(key, [])
    if not isinstance(value, list | tuple) or not all(is_int(s) and 0 <= s < seats for s in value):
        raise bad_score(number, f"flags.{key}")
    return [s for s in value if is_int(s)]


def standing(variant: Variant, seats: int, deals: Sequence[DealScore]) -> TableStanding:
    """The buli after the deals so far: penalty totals (lower is better) and the units.

    Follows every deal in order: re-entries before it (the seat pays the re-entry units
    into the pot and takes the total of the worst player still in), the deal's penalties,
    the winner's units from every player in the deal, drop-outs, eliminations at the
    limit, and the end of the buli when one player is left (or, when played, a kis buli).

    ``standing.ledger`` is the buli's account (a :class:`BuliLedger`): ``active`` and
    ``eliminated`` seats, ``units`` (each seat's net units; with ``pot`` they add up to
    zero), ``pot``, ``reentries`` per seat, ``out_after`` (the deal after which each seat
    went out, or None), ``ending`` ("last_player", "kis_buli" or None), ``deals_won`` and
    ``restarts`` (each re-entry: its seat, deal and the total it restarted at).
    ``extra`` holds the same as lists, and ``deals_played``.

    Raises :class:`RuleViolation` when a deal's lines do not fit the buli: a seat out of
    the buli playing without buying back in or scoring points, a seat still in with no
    line, a re-entry of a seat still in, a winner who is out, or a deal after the buli
    ended (each naming the deal in ``params["number"]``); and for scores or flags of the
    wrong shape (``"bad_score"``).
    """
    variant = _require_tizlapos(variant)
    seats = table_seats(variant, seats)
    deals = stored_scores(variant, seats, deals)
    totals = [0] * seats
    active = [True] * seats
    units = [0] * seats
    pot = 0
    reentries = [0] * seats
    restarts: list[Reentry] = []
    out_after: list[int | None] = [None] * seats
    won = [0] * seats
    ending: str | None = None
    buli_winner: int | None = None

    for number, deal in enumerate(deals, 1):
        if buli_winner is not None:
            raise RuleViolation(
                _("The buli ended after deal %(ended)d; deal %(number)d cannot be scored."),
                code="buli_over",
                field="deals",
                number=number,
                ended=number - 1,
            )
        flags = deal.flags
        winner = flags.get("winner")
        if not (is_int(winner) and 0 <= winner < seats):
            raise bad_score(number, "flags.winner")
        present_raw = flags.get("present", [True] * seats)
        if (
            not isinstance(present_raw, list | tuple)
            or len(present_raw) != seats
            or not all(isinstance(p, bool) for p in present_raw)
        ):
            raise bad_score(number, "flags.present")
        present = [p is True for p in present_raw]
        drop_outs = _seat_list(flags, "drop_out", seats, number)
        comers = _seat_list(flags, "reenter", seats, number)

        # Re-entries happen before the deal, at the worst total of those still in.
        still_in = [s for s in range(seats) if active[s]]
        for seat in comers:
            if active[seat]:
                raise RuleViolation(
                    _(
                        "Seat %(seat)d is still in the buli, so it cannot buy back in "
                        "(deal %(number)d)."
                    ),
                    code="not_out",
                    field=f"players.{seat}.reenter",
                    seat=seat + 1,
                    number=number,
                )
        worst = max((totals[s] for s in still_in), default=0)
        for seat in comers:
            totals[seat] = worst
            active[seat] = True
            out_after[seat] = None
            units[seat] -= variant.tiz_reentry_units
            pot += variant.tiz_reentry_units
            reentries[seat] += 1
            restarts.append(Reentry(seat=seat, deal=number, total=worst))

        for seat in range(seats):
            if present[seat] and not active[seat]:
                raise RuleViolation(
                    _(
                        "Seat %(seat)d is out of the buli; mark it as buying back in to play "
                        "deal %(number)d."
                    ),
                    code="seat_out",
                    field=f"players.{seat}.reenter",
                    seat=seat + 1,
                    number=number,
                )
            if active[seat] and not present[seat]:
                raise RuleViolation(
                    _(
                        "Seat %(seat)d is still in the buli: enter its cards or points for "
                        "deal %(number)d."
                    ),
                    code="penalty_missing",
                    field=f"players.{seat}.cards",
                    seat=seat + 1,
                    number=number,
                )
            if not present[seat] and deal.points[seat]:
                raise RuleViolation(
                    _("Seat %(seat)d is out of the buli, so it scores nothing in deal %(number)d."),
                    code="seat_out",
                    field=f"players.{seat}.points",
                    seat=seat + 1,
                    number=number,
                )

        for seat in range(seats):
            totals[seat] += deal.points[seat]
        won[winner] += 1
        per_player = (
            variant.tiz_romi_units if flags.get("ending") == "romi" else variant.tiz_knock_units
        )
        for seat in range(seats):
            if seat != winner and present[seat]:
                units[seat] -= per_player
                units[winner] += per_player

        leaving = set(drop_outs)
        leaving.update(
            s for s in range(seats) if active[s] and totals[s] >= variant.tiz_elimination
        )
        if all(s in leaving for s in range(seats) if active[s]):
            leaving.discard(winner)  # a deal never puts everyone out: its winner stays
        for seat in sorted(leaving):
            active[seat] = False
            out_after[seat] = number

        left = [s for s in range(seats) if active[s]]
        if len(left) == 1:
            buli_winner, ending = left[0], "last_player"
        elif variant.tiz_kis_buli:
            limit = variant.tiz_kis_buli_limit
            under = [s for s in left if totals[s] < limit]
            if len(under) == 1 and all(totals[s] > limit for s in left if s != under[0]):
                buli_winner, ending = under[0], "kis_buli"
        if buli_winner is not None:
            for seat in range(seats):
                if seat != buli_winner:
                    units[seat] -= variant.tiz_last_survivor_units
                    units[buli_winner] += variant.tiz_last_survivor_units
            units[buli_winner] += pot
            pot = 0

    def rank_key(seat: int) -> tuple[int, int, int, int]:
        if seat == buli_winner:
            return (0, 0, 0, seat)
        if active[seat]:
            return (1, 0, totals[seat], seat)
        # Those who lasted longer rank above those who went out earlier.
        return (2, -(out_after[seat] or 0), totals[seat], seat)

    ranking = tuple(sorted(range(seats), key=rank_key))
    ledger = BuliLedger(
        active=tuple(s for s in range(seats) if active[s]),
        eliminated=tuple(s for s in range(seats) if not active[s]),
        units=tuple(units),
        pot=pot,
        reentries=tuple(reentries),
        out_after=tuple(out_after),
        ending=ending,
        deals_won=tuple(won),
        restarts=tuple(restarts),
    )
    return TableStanding(
        totals=tuple(totals),
        lower_is_better=True,
        finished=buli_winner is not None,
        ranking=ranking,
        winner=buli_winner,
        extra={**ledger.to_dict(), "deals_played": len(deals)},
        details=ledger,
    )


# -- the game ----------------------------------------------------------------------------------


def _check(variant: Variant) -> None:
    v = _require_tizlapos(variant)
    check_ten_card_game(v)
    if not v.tiz_knock_cards:
        raise bad_option(
            "tiz_knock_cards", _("the ranks a knocker may keep, like [2, 3]"), v.tiz_knock_cards
        )
    if v.tiz_kis_buli and v.tiz_kis_buli_limit >= v.tiz_elimination:
        # "Under 50 while all others are over it": the others would long be out.
        raise bad_option(
            "tiz_kis_buli_limit",
            _("less than the points that put a player out"),
            v.tiz_kis_buli_limit,
        )


def _reconcile(values: dict[str, Any], given: Mapping[str, object]) -> None:
    """The joker's price is one setting with two names; changing either changes both."""
    table: dict[str, int] = values["penalty_table"]
    if "tiz_joker_penalty" not in given:
        values["tiz_joker_penalty"] = table["JOKER"]
        return
    joker = values["tiz_joker_penalty"]
    given_table = given.get("penalty_table")
    if (
        isinstance(given_table, Mapping)
        and "JOKER" in given_table
        and given_table["JOKER"] != joker
    ):
        raise bad_option(
            "tiz_joker_penalty", _("the joker's value in the table of card values"), joker
        )
    values["penalty_table"] = {**table, "JOKER": joker}


def _describe(variant: Variant, translate: Callable[[str], str]) -> list[tuple[str, str]]:
    """Tízlapos Römi's own rows of the rules page."""
    _ = translate  # shadows the module's marker for every message below
    v = _require_tizlapos(variant)
    return [
        (_("Knock card"), " / ".join(str(n) for n in v.tiz_knock_cards)),
        (
            _("Römi"),
            _("%(units)d units from each player, %(points)d points off")
            % {"units": v.tiz_romi_units, "points": v.tiz_romi_deduction},
        ),
        (_("Knock"), _("%(units)d unit from each player") % {"units": v.tiz_knock_units}),
        (
            _("Out of the buli"),
            _(
                "at %(points)d points; the last player in collects %(units)d units from "
                "every other player, and the re-entry payments"
            )
            % {"points": v.tiz_elimination, "units": v.tiz_last_survivor_units},
        ),
        (_("Re-entry"), _("%(units)d units") % {"units": v.tiz_reentry_units}),
        (
            _("Special hands (points off)"),
            _("royal flush %(royal)d, piccolo %(piccolo)d, flush %(flush)d")
            % {
                "royal": v.tiz_special_royal,
                "piccolo": v.tiz_special_piccolo,
                "flush": v.tiz_special_flush,
            },
        ),
        (
            _("Kis buli"),
            _("played, under %(limit)d") % {"limit": v.tiz_kis_buli_limit}
            if v.tiz_kis_buli
            else _("not played"),
        ),
    ]


TIZLAPOS_ROMI = register(
    GameSpec(
        id="tizlapos_romi",
        family="tizlapos",
        variant_class=TizVariant,
        options=(
            *shared_options(
                name=_("Tízlapos Römi"),
                min_players=2,
                max_players=6,
                decks=2,
                jokers=4,
                wild_jokers=True,
                wild_black_twos=False,
                max_wild_ratio_half=True,
                ace_low=True,
                ace_high=True,
                min_run=3,
                min_set=3,
                # "Melds as Gin Römi": three or four of a rank in different suits.
                max_set=4,
                set_suits_distinct=True,
                deals=(),
                cards_dealt=(HAND_SIZE,),
                penalty_table={
                    "A": 10,
                    **{str(r): r for r in range(2, 11)},
                    "J": 10,
                    "Q": 10,
                    "K": 10,
                    "JOKER": JOKER_PENALTY,
                    "BLACK_TWO": 2,
                },
                buy_cap=None,
                black_two_natural=True,
                runs_must_not_continue=False,
                stock_out_ends_deal=False,
                allow_points_entry=True,
                require_laydown=False,
                ravaytys_bonus=0,
                tie_order=("last_deal", "deals_won", "seat"),
            ),
            Option("tiz_knock_cards", (2, 3), _("The ranks a knocker may keep as its tenth card")),
            Option("tiz_romi_deduction", 10, _("Points off for the winner of a römi")),
            Option(
                "tiz_elimination",
                100,
                _("The points that put a player out of the buli"),
                1,
                MAX_TARGET,
            ),
            Option("tiz_reentry_units", 3, _("Units a player pays into the pot to buy back in")),
            Option("tiz_romi_units", 2, _("Units each player pays the winner of a römi")),
            Option("tiz_knock_units", 1, _("Units each player pays the winner of a knock")),
            Option(
                "tiz_last_survivor_units",
                10,
                _("Units every other player pays the winner of the buli"),
            ),
            Option("tiz_joker_penalty", JOKER_PENALTY, _("What a joker left in hand counts")),
            Option("tiz_special_royal", 50, _("Points off for a royal flush")),
            Option("tiz_special_piccolo", 25, _("Points off for a piccolo")),
            Option("tiz_special_flush", 25, _("Points off for a colour or figure flush")),
            Option("tiz_kis_buli", False, _("A kis buli is played")),
            Option(
                "tiz_kis_buli_limit",
                50,
                _("The total a kis buli winner stays under while all others are over it"),
                1,
                MAX_TARGET,
            ),
        ),
        parse_entry=parse_entry,
        score_deal=score_deal,
        standing=standing,
        # Three to six at a table, four when the room allows (a table of two is only a
        # final's), within the variant's own players.
        tables=TableSizes(min_size=3, max_size=6, preferred=4),
        describe=_describe,
        check=_check,
        reconcile=_reconcile,
    )
)
