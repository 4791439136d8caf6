"""Deal entry and scoring for Gin Römi (two players, one deck, first to 150).

An entry travels as a JSON-like dict, as it was typed::

    {"ending": "knock",            # "knock", "romi" or "void"
     "by": 0,                      # seat that knocked or went römi (0 or 1)
     "upper": "7D",                # the upper card turned up after the deal
     "hands": ["AS 2S 3S ...", "..."],   # both final hands (10 cards each), or None
     "deadwood": [5, 23]}          # both deadwood counts when hands are not given, or None

With both hands the engine finds each hand's best melds, checks the knock against the upper
card, lays the opponent's loose cards off onto the knocker's melds and scores; with only
the counts it checks and scores those.

Decisions where the source is silent (docs/rules.md lists them all):

* The upper card may be in a hand at the end: either player may take it at the start.
* The knocker lays down a least-deadwood arrangement; when several leave the same
  deadwood, the one that leaves the opponent least to lay off (the knocker's best play).
  The opponent then melds and lays off in whatever way leaves it the least deadwood.
* A knock with every card melded is a römi and must be entered as one.
* Deadwood typed next to full hands is not used for scoring; when it differs from what the
  cards give, the deal's flags keep it (``entered_deadwood``) so the sheet can show both.

The game is registered here (:data:`GIN_ROMI`): its own settings (:class:`GinVariant`) and
their defaults, its rows of the rules page, and the final account (:class:`Settlement`).

Fields in violations count seats from 0 (``hands.1``), the way the entry addresses them;
messages count seats from 1, the way players do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from rules.arrangement import best_arrangement, minimal_arrangements
from rules.cards import Card, Suit
from rules.entries import (
    MAX_ENTRY_NUMBER,
    bad_score,
    deal_number,
    entry_mapping,
    is_count,
    is_int,
    seat_token,
    stored_scores,
)
from rules.errors import RulesError, RuleViolation, token_text
from rules.games import MAX_TARGET, GameSpec, Option, TableSizes, register
from rules.i18n import _, ngettext
from rules.limits import read_cards
from rules.notation import describe_cards, format_cards
from rules.penalties import check_feasible
from rules.results import Arrangement, DealScore, Meld, MeldKind, TableStanding
from rules.variants import Variant, bad_option, check_ten_card_game, shared_options

__all__ = [
    "ENDINGS",
    "GIN_ROMI",
    "GinEntry",
    "GinVariant",
    "LayoffResult",
    "Settlement",
    "lay_off",
    "parse_entry",
    "score_deal",
    "standing",
]

ENDINGS = ("knock", "romi", "void")
SEATS = 2
HAND_SIZE = 10
_ENTRY_KEYS = frozenset({"ending", "by", "upper", "hands", "deadwood"})


@dataclass(frozen=True, kw_only=True)
class GinVariant(Variant):
    """Gin Römi's settings: those every game has and its own (defaults in :data:`GIN_ROMI`)."""

    gin_target: int
    gin_bonus_undercut: int
    gin_bonus_romi: int
    gin_settle_per_deal: int
    gin_settle_game: int
    gin_settle_shutout: int
    gin_spade_doubles: bool


@dataclass(frozen=True)
class Settlement:
    """The final account of a Gin Römi game (``standing.settlement``), seat by seat.

    ``points`` are the totals of the sheet; ``deal_bonus`` the bonus for every deal won;
    ``game_bonus`` and ``shutout_bonus`` go to the ``winner`` alone (the shutout bonus only
    when the loser scored nothing); ``final`` adds them up, and ``result`` is the
    difference the loser pays. ``to_dict()`` is ``standing.extra["settlement"]``.
    """

    points: tuple[int, int]
    deal_bonus: tuple[int, int]
    game_bonus: tuple[int, int]
    shutout_bonus: tuple[int, int]
    final: tuple[int, int]
    winner: int
    result: int

    @property
    def loser(self) -> int:
        """The seat that pays ``result``."""
        return 1 - self.winner

    def to_dict(self) -> dict[str, object]:
        """The JSON-ready form (lists for the seats)."""
        return {
            "points": list(self.points),
            "deal_bonus": list(self.deal_bonus),
            "game_bonus": list(self.game_bonus),
            "shutout_bonus": list(self.shutout_bonus),
            "final": list(self.final),
            "winner": self.winner,
            "result": self.result,
        }


@dataclass(frozen=True)
class GinEntry:
    """One Gin Römi deal as entered (checked for shape, not yet scored)."""

    number: int
    ending: str
    by: int | None
    upper: Card | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] | None
    deadwood: tuple[int, int] | None


@dataclass(frozen=True)
class LayoffResult:
    """What the opponent of a knocker ends with after melding and laying off."""

    knocker: Arrangement
    opponent: Arrangement  # the opponent's own melds and deadwood after the lay-offs
    laid_off: tuple[Card, ...]


def _require_gin(variant: Variant) -> GinVariant:
    if not isinstance(variant, GinVariant):
        raise RulesError(f"{variant.id} is not Gin Römi")
    return variant


# -- reading an entry ------------------------------------------------------------------------


def parse_entry(variant: Variant, number: int, data: Mapping[str, object]) -> GinEntry:
    """Check the shape of a Gin Römi deal entry and read its cards.

    Raises :class:`RuleViolation` with ``field`` set (``"ending"``, ``"by"``, ``"upper"``,
    ``"hands.1"``, ``"deadwood.0"``) for anything a person must correct, including cards
    that could not all be in one deck.
    """
    variant = _require_gin(variant)
    number = deal_number(variant, number)
    data = entry_mapping(data, _ENTRY_KEYS)

    ending = data.get("ending")
    if ending not in ENDINGS:
        raise RuleViolation(
            _('"%(token)s" is not how a deal ends: expected knock, römi or void.'),
            code="bad_ending",
            field="ending",
            token=token_text(ending),
        )
    assert isinstance(ending, str)

    by = data.get("by")
    if by is None:
        if ending != "void":
            raise RuleViolation(
                _("Say who knocked or went römi."),
                code="by_missing",
                field="by",
            )
    elif not (is_int(by) and 0 <= by < SEATS):
        raise RuleViolation(
            _('"%(token)s" is not a seat at this table: expected seat 1 or 2.'),
            code="bad_seat",
            field="by",
            token=seat_token(by),
        )
    by_seat = by if is_int(by) else None

    upper: Card | None = None
    raw_upper = data.get("upper")
    if raw_upper is not None and raw_upper != "":
        cards = read_cards(variant, raw_upper, "upper", count=False)
        if len(cards) != 1:
            raise RuleViolation(
                _('"%(token)s" is not one card: the upper card is a single card like 7D.'),
                code="bad_token",
                field="upper",
                token=token_text(raw_upper),
                position=1,
                expected="a single card like 7D",
            )
        upper = cards[0]
    needs_upper = ending == "knock" or (ending == "romi" and variant.gin_spade_doubles)
    if upper is None and needs_upper:
        raise RuleViolation(
            _("Enter the upper card: it sets the knock limit."),
            code="upper_missing",
            field="upper",
        )

    hands = _parse_hands(variant, data.get("hands"))
    deadwood = _parse_deadwood(variant, data.get("deadwood"))
    if ending != "void" and hands is None and deadwood is None:
        raise RuleViolation(
            _("Enter both hands, or both players' deadwood."),
            code="hands_missing",
            field="hands",
        )

    pile: list[Sequence[Card]] = []
    fields: list[str | None] = []
    if hands is not None:
        pile.extend(hands)
        fields.extend(["hands.0", "hands.1"])
    check_feasible(variant, pile, fields)
    if upper is not None:
        # The upper card may have been taken into a hand, so it only has to exist.
        check_feasible(variant, [[upper]], ["upper"])
    return GinEntry(number, ending, by_seat, upper, hands, deadwood)


def _parse_hands(variant: Variant, raw: object) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    if raw is None:
        return None
    if not isinstance(raw, list | tuple) or len(raw) != SEATS:
        raise RuleViolation(
            _("Enter both hands, one for each player."),
            code="bad_entry",
            field="hands",
            where="hands",
        )
    out: list[tuple[Card, ...]] = []
    for seat, value in enumerate(raw):
        field = f"hands.{seat}"
        if value is None:
            raise RuleViolation(
                _("Enter seat %(seat)d's ten cards."),
                code="hands_missing",
                field=field,
                seat=seat + 1,
            )
        # A hand holds exactly ten cards: that is its limit, checked before any solving.
        cards = tuple(read_cards(variant, value, field, count=False))
        if len(cards) != HAND_SIZE:
            raise RuleViolation(
                ngettext(
                    "Seat %(seat)d's hand has %(count)d card; a Gin Römi hand has ten.",
                    "Seat %(seat)d's hand has %(count)d cards; a Gin Römi hand has ten.",
                    len(cards),
                ),
                code="hand_size",
                field=field,
                seat=seat + 1,
                count=len(cards),
                limit=HAND_SIZE,
            )
        out.append(cards)
    return out[0], out[1]


def _parse_deadwood(variant: Variant, raw: object) -> tuple[int, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, list | tuple) or len(raw) != SEATS:
        raise RuleViolation(
            _("Enter both players' deadwood."),
            code="bad_entry",
            field="deadwood",
            where="deadwood",
        )
    most = HAND_SIZE * _most_valuable(variant)
    out: list[int] = []
    for seat, value in enumerate(raw):
        field = f"deadwood.{seat}"
        if value is None:  # a hand not entered yet: not a bad number
            raise RuleViolation(
                _("Enter seat %(seat)d's ten cards or deadwood points."),
                code="deadwood_missing",
                field=field,
                seat=seat + 1,
            )
        if not is_count(value, MAX_ENTRY_NUMBER):
            raise RuleViolation(
                _('"%(token)s" is not a number of points: expected 0 or more.'),
                code="bad_points",
                field=field,
                token=token_text(value),
            )
        points = value
        if points > most:
            raise RuleViolation(
                _("%(points)d points of deadwood is more than ten cards can hold (%(max)d)."),
                code="implausible_points",
                field=field,
                points=points,
                max=most,
            )
        out.append(points)
    return out[0], out[1]


def _most_valuable(variant: Variant) -> int:
    table = variant.penalty_table
    return max(table[k] for k in ("A", *(str(r) for r in range(2, 11)), "J", "Q", "K"))


# -- lay-offs --------------------------------------------------------------------------------


def _attachments(variant: Variant, meld: Meld, hand: Sequence[Card]) -> list[list[Card]]:
    """Chains of cards from ``hand`` that could be added to ``meld``, nearest first.

    A set gets one chain per missing card (each of length one); a run gets a chain
    downwards and one upwards, each card needing the ones before it.
    """
    have = set(hand)
    chains: list[list[Card]] = []
    if meld.kind is MeldKind.SET:
        rank = meld.represents[0].rank
        room = (variant.max_set or 4 * variant.decks) - len(meld)
        used = {c.suit for c in meld.represents}
        for set_suit in Suit:
            card = Card(rank, set_suit)
            if room > 0 and card in have and not (variant.set_suits_distinct and set_suit in used):
                chains.append([card])
        return chains
    run_suit = meld.represents[0].suit
    assert run_suit is not None
    positions = [c.rank for c in meld.represents]
    if positions[-1] == 1 and len(positions) > 1:
        positions[-1] = 14  # a high ace closes the run
    low, high = positions[0], positions[-1]
    lowest = 1 if variant.ace_low else 2
    highest = 14 if variant.ace_high else 13
    down: list[Card] = []
    p = low - 1
    while p >= lowest and high - p < 13:
        card = Card(p, run_suit)
        if card not in have:
            break
        down.append(card)
        p -= 1
    up: list[Card] = []
    p = high + 1
    while p <= highest and p - low < 13:
        card = Card(1 if p == 14 else p, run_suit)
        if card not in have:
            break
        up.append(card)
        p += 1
    return [chain for chain in (down, up) if chain]


def _layoff_choices(
    variant: Variant, melds: Sequence[Meld], hand: Sequence[Card]
) -> Iterator[frozenset[Card]]:
    """Every set of the opponent's cards that could be laid off together (none first)."""
    chains = [chain for meld in melds for chain in _attachments(variant, meld, hand)]
    seen: set[frozenset[Card]] = set()
    for lengths in product(*(range(len(chain) + 1) for chain in chains)):
        chosen = frozenset(c for chain, n in zip(chains, lengths, strict=True) for c in chain[:n])
        if chosen not in seen:
            seen.add(chosen)
            yield chosen


def lay_off(variant: Variant, knocker: Sequence[Card], opponent: Sequence[Card]) -> LayoffResult:
    """The knock's outcome for the opponent: its melds and deadwood after laying off.

    The knocker lays down a least-deadwood arrangement (of several, the one that leaves the
    opponent the most deadwood); the opponent melds and lays off to leave the least.
    """
    best: LayoffResult | None = None
    for laid in minimal_arrangements(variant, knocker):
        answer = _opponent_best(variant, laid, opponent)
        if best is None or answer.opponent.deadwood > best.opponent.deadwood:
            best = answer
    if best is None:  # pragma: no cover - every hand has an arrangement
        raise RulesError("no arrangement for the knocker")
    return best


def _opponent_best(variant: Variant, laid: Arrangement, opponent: Sequence[Card]) -> LayoffResult:
    best: LayoffResult | None = None
    for chosen in _layoff_choices(variant, laid.melds, opponent):
        rest = list(opponent)
        for card in chosen:
            rest.remove(card)
        own = best_arrangement(variant, rest)
        if best is None or own.deadwood < best.opponent.deadwood:
            ordered = tuple(c for c in opponent if c in chosen)
            best = LayoffResult(laid, own, ordered)
    assert best is not None
    return best


# -- scoring ---------------------------------------------------------------------------------


def score_deal(variant: Variant, entry: GinEntry) -> DealScore:
    """Score one deal: the winner's points go on the sheet, the loser's line is 0.

    Knock: the knocker scores the opponent's deadwood minus its own; an undercut (the
    opponent's deadwood no more than the knocker's) gives the opponent the difference plus
    the undercut bonus. Römi: the römi bonus plus the opponent's deadwood. Void: nothing.
    A spade upper card doubles the deal when the variant says so.

    Raises :class:`RuleViolation` for a knock over the upper card's limit, a knock under an
    ace, a "römi" with cards left over, or a knock that is really a römi.
    """
    variant = _require_gin(variant)
    flags: dict[str, object] = {
        "deal": entry.number,
        "ending": entry.ending,
        "by": entry.by,
        "winner": None,
        "upper": None if entry.upper is None else entry.upper.code,
        "from_cards": entry.hands is not None,
    }
    if entry.ending == "void":
        return DealScore(points=(0, 0), flags=flags)
    by = entry.by
    assert by is not None
    other = 1 - by
    upper = entry.upper
    doubled = bool(variant.gin_spade_doubles and upper is not None and upper.suit is Suit.SPADES)
    deadwood = [0, 0]
    if entry.ending == "knock":
        assert upper is not None
        limit = _knock_limit(variant, upper)
        if entry.hands is not None:
            knocker_hand, opponent_hand = entry.hands[by], entry.hands[other]
            own = best_arrangement(variant, knocker_hand)
            _check_knock(variant, by, own.deadwood, upper, limit, f"hands.{by}", own)
            result = lay_off(variant, knocker_hand, opponent_hand)
            deadwood[by] = own.deadwood
            deadwood[other] = result.opponent.deadwood
            arrangements = {by: result.knocker, other: result.opponent}
            flags["layoffs"] = [c.code for c in result.laid_off]
            flags["melds"] = [_melds_text(arrangements[s]) for s in range(SEATS)]
            flags["unmatched"] = [format_cards(arrangements[s].unmatched) for s in range(SEATS)]
        else:
            assert entry.deadwood is not None
            deadwood = list(entry.deadwood)
            _check_knock(variant, by, deadwood[by], upper, limit, f"deadwood.{by}", None)
        flags["limit"] = limit
        if deadwood[other] <= deadwood[by]:
            winner = other
            points = deadwood[by] - deadwood[other] + variant.gin_bonus_undercut
            flags["undercut"] = True
        else:
            winner = by
            points = deadwood[other] - deadwood[by]
            flags["undercut"] = False
    else:
        if entry.hands is not None:
            own = best_arrangement(variant, entry.hands[by])
            if own.deadwood:
                raise RuleViolation(
                    _(
                        "This is no römi: seat %(seat)d's best melds leave %(cards)s "
                        "(%(points)d points) unmatched."
                    ),
                    code="not_romi",
                    field=f"hands.{by}",
                    seat=by + 1,
                    cards=describe_cards(own.unmatched),
                    points=own.deadwood,
                )
            theirs = best_arrangement(variant, entry.hands[other])
            deadwood[other] = theirs.deadwood
            arrangements = {by: own, other: theirs}
            flags["melds"] = [_melds_text(arrangements[s]) for s in range(SEATS)]
            flags["unmatched"] = [format_cards(arrangements[s].unmatched) for s in range(SEATS)]
        else:
            assert entry.deadwood is not None
            deadwood = list(entry.deadwood)
            if deadwood[by]:
                raise RuleViolation(
                    _(
                        "A römi melds all ten cards, so seat %(seat)d's deadwood is 0, "
                        "not %(points)d."
                    ),
                    code="not_romi",
                    field=f"deadwood.{by}",
                    seat=by + 1,
                    points=deadwood[by],
                )
        winner = by
        points = variant.gin_bonus_romi + deadwood[other]
    if doubled:
        points *= 2
    if entry.hands is not None and entry.deadwood is not None and list(entry.deadwood) != deadwood:
        flags["entered_deadwood"] = list(entry.deadwood)
    flags["winner"] = winner
    flags["deadwood"] = deadwood
    flags["doubled"] = doubled
    scores = [0, 0]
    scores[winner] = points
    return DealScore(points=(scores[0], scores[1]), flags=flags)


def _knock_limit(variant: Variant, upper: Card) -> int:
    if upper.rank == 1:
        raise RuleViolation(
            _("Nobody may knock under an ace upper card: the deal ends in römi or is void."),
            code="ace_upper",
            field="ending",
            upper=upper.label,
        )
    return variant.penalty(upper)


def _check_knock(
    variant: Variant,
    seat: int,
    points: int,
    upper: Card,
    limit: int,
    field: str,
    arrangement: Arrangement | None,
) -> None:
    if points == 0:
        raise RuleViolation(
            _("All of seat %(seat)d's cards are in melds: enter this deal as a römi."),
            code="knock_is_romi",
            field="ending",
            seat=seat + 1,
        )
    if points > limit:
        if arrangement is not None:
            raise RuleViolation(
                _(
                    "Seat %(seat)d cannot knock with %(points)d points (%(cards)s): "
                    "the upper card %(upper)s allows at most %(limit)d."
                ),
                code="knock_over_limit",
                field=field,
                seat=seat + 1,
                points=points,
                cards=describe_cards(arrangement.unmatched),
                upper=upper.label,
                limit=limit,
            )
        raise RuleViolation(
            _(
                "Seat %(seat)d cannot knock with %(points)d points: "
                "the upper card %(upper)s allows at most %(limit)d."
            ),
            code="knock_over_limit",
            field=field,
            seat=seat + 1,
            points=points,
            upper=upper.label,
            limit=limit,
        )


def _melds_text(arrangement: Arrangement) -> list[str]:
    return [format_cards(m.cards) for m in arrangement.melds]


# -- the game --------------------------------------------------------------------------------


def _winner_of(deal: DealScore) -> int | None:
    winner = deal.flags.get("winner")
    if is_int(winner) and 0 <= winner < SEATS:
        return winner
    scored = [seat for seat, points in enumerate(deal.points) if points > 0]
    return scored[0] if len(scored) == 1 else None


def standing(variant: Variant, seats: int, deals: Sequence[DealScore]) -> TableStanding:
    """Running totals (higher is better); the game ends when a player reaches the target.

    When it has ended, ``standing.settlement`` holds the final account (a
    :class:`Settlement`: each player's points, the bonus for every deal won, the game bonus
    and the shutout bonus for the winner when the loser scored nothing, and ``result``, the
    difference the loser pays), and ``extra["settlement"]`` the same as a dict; before, both
    are None. A deal scored after the game ended is refused.
    """
    variant = _require_gin(variant)
    if not is_count(seats, 1000):
        raise bad_score(None, "seats", "seats")
    if seats != SEATS:
        raise RuleViolation(
            _("%(game)s is played by two players; this table has %(count)d."),
            code="player_count",
            field="seats",
            game=variant.name,
            count=seats,
        )
    deals = stored_scores(variant, SEATS, deals)
    totals = [0, 0]
    won = [0, 0]
    ended_at: int | None = None
    for number, deal in enumerate(deals, 1):
        if ended_at is not None:
            raise RuleViolation(
                _("The game was over after deal %(ended)d; deal %(number)d cannot be scored."),
                code="game_over",
                field="deals",
                number=number,
                ended=ended_at,
            )
        for seat in range(SEATS):
            totals[seat] += deal.points[seat]
        winner = _winner_of(deal)
        if winner is not None:
            won[winner] += 1
        if max(totals) >= variant.gin_target:
            ended_at = number

    finished = ended_at is not None
    ranking = tuple(sorted(range(SEATS), key=lambda s: (-totals[s], -won[s], s)))
    winner_seat = ranking[0] if finished else None
    settlement = None if winner_seat is None else _settle(variant, totals, won, winner_seat)
    extra: dict[str, object] = {
        "deals_played": len(deals),
        "deals_won": list(won),
        "target": variant.gin_target,
        "settlement": None if settlement is None else settlement.to_dict(),
    }
    return TableStanding(
        totals=(totals[0], totals[1]),
        lower_is_better=False,
        finished=finished,
        ranking=ranking,
        winner=winner_seat,
        extra=extra,
        details=settlement,
    )


def _settle(variant: GinVariant, totals: list[int], won: list[int], winner: int) -> Settlement:
    loser = 1 - winner
    deal_bonus = [variant.gin_settle_per_deal * n for n in won]
    game_bonus = [0, 0]
    game_bonus[winner] = variant.gin_settle_game
    shutout_bonus = [0, 0]
    if totals[loser] == 0:
        shutout_bonus[winner] = variant.gin_settle_shutout
    final = [totals[s] + deal_bonus[s] + game_bonus[s] + shutout_bonus[s] for s in range(SEATS)]
    return Settlement(
        points=(totals[0], totals[1]),
        deal_bonus=(deal_bonus[0], deal_bonus[1]),
        game_bonus=(game_bonus[0], game_bonus[1]),
        shutout_bonus=(shutout_bonus[0], shutout_bonus[1]),
        final=(final[0], final[1]),
        winner=winner,
        result=final[winner] - final[loser],
    )


# -- the game ----------------------------------------------------------------------------------


def _check(v: Variant) -> None:
    check_ten_card_game(v)
    if (v.min_players, v.max_players) != (SEATS, SEATS):
        option = "min_players" if v.min_players != SEATS else "max_players"
        raise bad_option(option, _("2: a game for two"), getattr(v, option))


def _describe(variant: Variant, translate: Callable[[str], str]) -> list[tuple[str, str]]:
    """Gin Römi's own rows of the rules page."""
    _ = translate  # shadows the module's marker for every message below
    v = _require_gin(variant)
    return [
        (_("Game"), _("first to %(target)d points") % {"target": v.gin_target}),
        (
            _("Bonuses"),
            _("undercut %(undercut)d, römi %(romi)d")
            % {"undercut": v.gin_bonus_undercut, "romi": v.gin_bonus_romi},
        ),
        (
            _("Settlement"),
            _("%(deal)d per deal won, %(game)d for the game, %(shutout)d more for a shutout")
            % {
                "deal": v.gin_settle_per_deal,
                "game": v.gin_settle_game,
                "shutout": v.gin_settle_shutout,
            },
        ),
        (
            _("Spade upper card doubles"),
            _("yes") if v.gin_spade_doubles else _("no"),
        ),
    ]


GIN_ROMI = register(
    GameSpec(
        id="gin_romi",
        family="gin",
        variant_class=GinVariant,
        options=(
            *shared_options(
                name=_("Gin Römi"),
                min_players=SEATS,
                max_players=SEATS,
                decks=1,
                jokers=0,
                wild_jokers=False,
                wild_black_twos=False,
                max_wild_ratio_half=True,
                ace_low=True,
                ace_high=False,
                min_run=3,
                min_set=3,
                max_set=4,
                set_suits_distinct=True,
                deals=(),
                cards_dealt=(HAND_SIZE,),
                penalty_table={
                    "A": 1,
                    **{str(r): r for r in range(2, 11)},
                    "J": 10,
                    "Q": 10,
                    "K": 10,
                    "JOKER": 0,
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
            Option("gin_target", 150, _("The points that end the game"), 1, MAX_TARGET),
            Option("gin_bonus_undercut", 25, _("The bonus for an undercut")),
            Option("gin_bonus_romi", 25, _("The bonus for going römi (all ten cards melded)")),
            Option("gin_settle_per_deal", 25, _("What every deal won adds to the account")),
            Option(
                "gin_settle_game",
                150,
                _("What winning the game adds to the account"),
                0,
                MAX_TARGET,
            ),
            Option(
                "gin_settle_shutout",
                150,
                _("What the winner adds when the loser scored nothing"),
                0,
                MAX_TARGET,
            ),
            Option("gin_spade_doubles", False, _("A spade upper card doubles the deal")),
        ),
        parse_entry=parse_entry,
        score_deal=score_deal,
        standing=standing,
        # Head to head.
        tables=TableSizes(min_size=SEATS, max_size=SEATS, preferred=SEATS),
        describe=_describe,
        check=_check,
    )
)
