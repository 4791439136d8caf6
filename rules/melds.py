"""Whether a group of cards is a set or a run under a variant's rules.

A wild's represented card is inferred; where the cards allow several readings (a joker at
either end of a run, an ace low or high) every reading is kept, because the player may name
whichever suits them: :func:`meld_readings` returns them all, :func:`validate_meld` the first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.cards import Card, Suit, card_of
from rules.errors import RuleViolation
from rules.i18n import _
from rules.limits import check_meld
from rules.results import Meld, MeldKind
from rules.variants import Variant

__all__ = ["meld_readings", "validate_meld"]

_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def _rank_at(position: int) -> int:
    return 1 if position == 14 else position


def _copies(variant: Variant, naturals: Sequence[Card]) -> None:
    for card, count in Counter(naturals).items():
        if count > variant.decks:
            raise RuleViolation(
                _("Impossible cards: %(count)d × %(card)s in a %(decks)d-deck game."),
                code="too_many_copies",
                count=count,
                card=card.label,
                decks=variant.decks,
            )


def _wild_limit(variant: Variant, naturals: int, wilds: int) -> None:
    if variant.max_wild_ratio_half and wilds > naturals:
        raise RuleViolation(
            _(
                "Too many wild cards: %(wilds)d wild and %(naturals)d natural. "
                "A meld may not hold more wild cards than natural cards."
            ),
            code="too_many_wilds",
            wilds=wilds,
            naturals=naturals,
        )


def _no_natural() -> RuleViolation:
    return RuleViolation(
        _("A meld needs at least one natural card to show what it is."),
        code="meld_no_natural",
    )


def _split(variant: Variant, cards: Sequence[Card]) -> tuple[list[Card], list[Card], list[Card]]:
    """Fixed naturals, jokers, and black twos (which are wild unless in their own place)."""
    fixed: list[Card] = []
    jokers: list[Card] = []
    twos: list[Card] = []
    for card in cards:
        if card.is_joker:
            if not variant.wild_jokers or variant.jokers == 0:
                raise RuleViolation(
                    _("Jokers are not wild in %(game)s: a joker cannot be part of a meld."),
                    code="joker_not_wild",
                    game=variant.name,
                )
            jokers.append(card)
        elif variant.is_wild(card):
            twos.append(card)
        else:
            fixed.append(card)
    return fixed, jokers, twos


def _set_reading(
    variant: Variant, cards: Sequence[Card], fixed: list[Card], jokers: list[Card], twos: list[Card]
) -> Meld:
    ranks = sorted({c.rank for c in fixed})
    if len(ranks) > 1:
        first = next(c for c in fixed if c.rank == ranks[0])
        second = next(c for c in fixed if c.rank == ranks[1])
        raise RuleViolation(
            _("A set is cards of one rank: %(first)s and %(second)s differ."),
            code="set_mixed_ranks",
            first=first.label,
            second=second.label,
        )
    if (ranks and ranks[0] != 2) or (ranks and not variant.black_two_natural):
        naturals, wilds = list(fixed), jokers + twos
    elif ranks or (twos and variant.black_two_natural):
        # A set of twos: the black twos stand in their own place and count as natural.
        naturals, wilds = fixed + twos, list(jokers)
    else:
        raise _no_natural()
    rank = naturals[0].rank
    count = len(cards)
    if count < variant.min_set:
        raise RuleViolation(
            _("A set needs at least %(min)d cards; this one has %(count)d."),
            code="meld_too_short",
            min=variant.min_set,
            count=count,
        )
    if variant.max_set is not None and count > variant.max_set:
        raise RuleViolation(
            _("A set has at most %(max)d cards in %(game)s; this one has %(count)d."),
            code="set_too_long",
            max=variant.max_set,
            game=variant.name,
            count=count,
        )
    _copies(variant, naturals)
    used = Counter(c.suit for c in naturals)
    if variant.set_suits_distinct:
        repeated = next((c for c in naturals if used[c.suit] > 1), None)
        if repeated is not None:
            raise RuleViolation(
                _("In %(game)s a set's cards are all of different suits; %(card)s is there twice."),
                code="set_suits_repeat",
                game=variant.name,
                card=repeated.label,
            )
        if len(wilds) > 4 - len(used):
            raise RuleViolation(
                _("A set of different suits has at most 4 cards; this one has %(count)d."),
                code="set_too_long",
                count=count,
            )
    _wild_limit(variant, len(naturals), len(wilds))
    naturals.sort(key=lambda c: _SUIT_ORDER.index(c.suit) if c.suit else 0)
    represents = list(naturals)
    for _wild in wilds:
        # Name the suit the set has fewest of, so the reading stays possible with the decks.
        suit = min(_SUIT_ORDER, key=lambda s: (used[s], _SUIT_ORDER.index(s)))
        used[suit] += 1
        represents.append(card_of(rank, suit))
    return Meld(MeldKind.SET, tuple(naturals + wilds), tuple(represents))


def _run_readings(
    variant: Variant, suit: Suit, naturals: list[Card], wilds: list[Card]
) -> list[Meld]:
    count = len(naturals) + len(wilds)
    if count < variant.min_run:
        raise RuleViolation(
            _("A run needs at least %(min)d cards; this one has %(count)d."),
            code="meld_too_short",
            min=variant.min_run,
            count=count,
        )
    seen: set[int] = set()
    for card in naturals:
        if card.rank in seen:
            raise RuleViolation(
                _("%(card)s is there twice; a run holds each card once."),
                code="run_duplicate",
                card=card.label,
            )
        seen.add(card.rank)
    _wild_limit(variant, len(naturals), len(wilds))
    low_bound = 1 if variant.ace_low else 2
    high_bound = 14 if variant.ace_high else 13
    ace_places = [p for p, ok in ((1, variant.ace_low), (14, variant.ace_high)) if ok]
    by_rank = {c.rank: c for c in naturals}
    readings: list[Meld] = []
    closest: tuple[int, list[int]] | None = None  # (missing, positions) of the closest try
    for ace in ace_places if 1 in by_rank else [0]:
        positions = sorted(ace if r == 1 else r for r in by_rank)
        low, high = positions[0], positions[-1]
        missing = high - low + 1 - len(positions)
        if missing > len(wilds):
            if closest is None or missing < closest[0]:
                closest = (missing, positions)
            continue
        spare = len(wilds) - missing
        # Spare wilds extend the run; try the top end first so natural cards keep their place.
        for start in range(low, max(low_bound, low - spare) - 1, -1):
            end = start + count - 1
            if end > high_bound or end < high or (start == 1 and end == 14):
                continue
            pool = iter(wilds)
            cards: list[Card] = []
            represents: list[Card] = []
            for position in range(start, end + 1):
                rank = _rank_at(position)
                natural = by_rank.get(rank)
                if natural is not None and (rank != 1 or position == ace):
                    cards.append(natural)
                    represents.append(natural)
                else:
                    cards.append(next(pool))
                    represents.append(card_of(rank, suit))
            readings.append(Meld(MeldKind.RUN, tuple(cards), tuple(represents)))
    if readings:
        return readings
    if closest is not None:
        if _wraps(sorted(by_rank), len(wilds)):
            raise RuleViolation(
                _("A run cannot go round the corner: K-A-2 is not a run."),
                code="run_wraps",
            )
        if 1 in by_rank and not variant.ace_high and _fits(sorted(by_rank), len(wilds), 14):
            raise RuleViolation(
                _("In %(game)s the ace is low only: A-2-3 is a run, Q-K-A is not."),
                code="run_ace_low_only",
                game=variant.name,
            )
        if 1 in by_rank and not variant.ace_low and _fits(sorted(by_rank), len(wilds), 1):
            raise RuleViolation(
                _("In %(game)s the ace is high only: Q-K-A is a run, A-2-3 is not."),
                code="run_ace_high_only",
                game=variant.name,
            )
        _missing, positions = closest
        low_label = Card(_rank_at(positions[0]), suit).label
        high_label = Card(_rank_at(positions[-1]), suit).label
        lacking = ", ".join(
            Card(_rank_at(p), suit).label
            for p in range(positions[0], positions[-1] + 1)
            if p not in positions
        )
        if wilds:
            raise RuleViolation(
                _(
                    "Not in sequence: between %(low)s and %(high)s the run lacks %(missing)s, "
                    "more than its wild cards (%(wilds)d) can fill."
                ),
                code="run_gap",
                low=low_label,
                high=high_label,
                missing=lacking,
                wilds=len(wilds),
            )
        raise RuleViolation(
            _("Not in sequence: between %(low)s and %(high)s the run lacks %(missing)s."),
            code="run_gap",
            low=low_label,
            high=high_label,
            missing=lacking,
            wilds=0,
        )
    raise RuleViolation(
        _("A run of %(count)d cards does not fit between the lowest and the highest card."),
        code="run_too_long",
        count=count,
    )


def _fits(ranks: list[int], wilds: int, ace: int) -> bool:
    positions = sorted(ace if r == 1 else r for r in ranks)
    return positions[-1] - positions[0] + 1 - len(positions) <= wilds


def _wraps(ranks: list[int], wilds: int) -> bool:
    """Whether the ranks would make a run if K were followed by A and 2."""
    for shift in range(1, 13):
        positions = sorted((r - 1 + shift) % 13 for r in ranks)
        # Only a real corner counts: the run must hold both a K-side and a 2-side card.
        if (
            positions[-1] - positions[0] + 1 - len(positions) <= wilds
            and any(r >= 12 for r in ranks)
            and any(2 <= r <= 3 for r in ranks)
        ):
            return True
    return False


def _runs(variant: Variant, fixed: list[Card], jokers: list[Card], twos: list[Card]) -> list[Meld]:
    suits = sorted({c.suit for c in fixed if c.suit is not None}, key=_SUIT_ORDER.index)
    if len(suits) > 1:
        first = next(c for c in fixed if c.suit == suits[0])
        second = next(c for c in fixed if c.suit == suits[1])
        raise RuleViolation(
            _("A run is all one suit: %(first)s and %(second)s differ."),
            code="run_mixed_suits",
            first=first.label,
            second=second.label,
        )
    if not suits and variant.black_two_natural:
        suits = sorted({c.suit for c in twos if c.suit is not None}, key=_SUIT_ORDER.index)
    if not suits:
        raise _no_natural()
    readings: list[Meld] = []
    first_error: RuleViolation | None = None
    for suit in suits:
        own = next((t for t in twos if t.suit == suit), None) if variant.black_two_natural else None
        # A black two in its own run at rank 2 is natural; try that reading first.
        choices = [True, False] if own is not None and fixed else [True] if own else [False]
        for natural_two in choices:
            if natural_two and own is not None:
                rest = list(twos)
                rest.remove(own)
                naturals, wilds = [*fixed, own], jokers + rest
            else:
                naturals, wilds = list(fixed), jokers + twos
            if not naturals:
                continue
            try:
                readings.extend(_run_readings(variant, suit, naturals, wilds))
            except RuleViolation as err:
                first_error = first_error or err
    if readings and any(t.suit in suits for t in twos):
        # Black twos make the same run in several ways (one standing for itself is the
        # natural reading again); keep the first, which has the most natural cards.
        unique: dict[tuple[Card, ...], Meld] = {}
        for meld in readings:
            unique.setdefault(meld.represents, meld)
        return list(unique.values())
    if readings:
        return readings
    assert first_error is not None
    raise first_error


def _parse_kind(kind: MeldKind | str | None) -> MeldKind | None:
    if kind is None or isinstance(kind, MeldKind):
        return kind
    try:
        return MeldKind(kind)
    except ValueError:
        raise RuleViolation(
            _('"%(token)s" is not a kind of meld: expected set or run.'),
            code="bad_token",
            token=kind,
            position=1,
            expected="set or run",
        ) from None


def meld_readings(
    variant: Variant, cards: Sequence[Card], kind: MeldKind | str | None = None
) -> list[Meld]:
    """Every valid reading of ``cards`` as a meld (of ``kind``, if given).

    Raises :class:`RuleViolation` saying why when there is none. The order of ``cards``
    does not matter. The first reading has the most natural cards. More cards than a
    laydown of the game holds are refused unread (``"meld_too_large"``).
    """
    check_meld(variant, len(cards))
    wanted = _parse_kind(kind)
    if not cards:
        raise RuleViolation(_("A meld needs cards."), code="meld_too_short", min=1, count=0)
    fixed, jokers, twos = _split(variant, cards)
    set_error: RuleViolation | None = None
    run_error: RuleViolation | None = None
    readings: list[Meld] = []
    # Cards of several ranks are no set; asking only costs time, so skip it when a run fits.
    one_rank = len({c.rank for c in fixed}) <= 1
    if wanted in (None, MeldKind.SET) and one_rank:
        try:
            readings.append(_set_reading(variant, cards, fixed, jokers, twos))
        except RuleViolation as err:
            set_error = err
    if wanted in (None, MeldKind.RUN):
        try:
            readings.extend(_runs(variant, fixed, jokers, twos))
        except RuleViolation as err:
            run_error = err
    if readings:
        return readings
    if wanted in (None, MeldKind.SET) and not one_rank:
        try:
            _set_reading(variant, cards, fixed, jokers, twos)
        except RuleViolation as err:
            set_error = err
    if set_error is None:
        assert run_error is not None
        raise run_error
    if run_error is None:
        raise set_error
    if set_error.code == "set_mixed_ranks" and run_error.code == "run_mixed_suits":
        # Report the kind most of the cards point at; a draw gets the general answer.
        same_rank = max(Counter(c.rank for c in fixed).values())
        same_suit = max(Counter(c.suit for c in fixed).values())
        if same_rank > same_suit:
            raise set_error
        if same_suit > same_rank:
            raise run_error
        raise RuleViolation(
            _(
                "Not a meld: a set is cards of one rank and a run is cards of one suit "
                "in sequence; these cards are neither."
            ),
            code="not_a_meld",
        )
    # Report the kind the player evidently meant: one rank means a set was intended.
    if set_error.code == "set_mixed_ranks":
        raise run_error
    raise set_error


def validate_meld(
    variant: Variant, cards: Sequence[Card], kind: MeldKind | str | None = None
) -> Meld:
    """``cards`` as a valid meld (of ``kind``, if given), or :class:`RuleViolation` saying why.

    Wild cards get the card they stand for in ``Meld.represents``; a black two in its own
    place counts as natural; a set is preferred when the cards make both.
    """
    return meld_readings(variant, cards, kind)[0]
