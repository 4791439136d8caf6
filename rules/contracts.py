"""Checking a laydown against the contract of a deal (Räväytys, Rutupeli)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import Card, Suit
from rules.errors import RuleViolation
from rules.i18n import Phrase, _
from rules.limits import check_laydown, check_text
from rules.melds import meld_readings
from rules.notation import cards_from_value, parse_tokens
from rules.penalties import check_feasible
from rules.results import Meld, MeldKind
from rules.variants import Variant

__all__ = ["check_contract", "check_contract_text"]


@dataclass(frozen=True, slots=True)
class _Option:
    """One reading of a meld, reduced to what the contract rules look at."""

    kind: MeldKind
    suit: Suit | None
    low: int  # positions: ace low is 1, ace high is 14
    high: int
    meld: Meld


def _option(meld: Meld) -> _Option:
    if meld.kind is MeldKind.SET:
        return _Option(meld.kind, None, 0, 0, meld)
    first, last = meld.represents[0], meld.represents[-1]
    high = 14 if last.rank == 1 else last.rank
    return _Option(meld.kind, first.suit, first.rank, high, meld)


def _continues(a: _Option, b: _Option) -> bool:
    return a.suit == b.suit and (a.high + 1 == b.low or b.high + 1 == a.low)


def _meld_field(index: int) -> str:
    return f"laydown.{index}"


def _in_meld(index: int, reason: RuleViolation) -> RuleViolation:
    return RuleViolation(
        _("Meld %(meld)d: %(reason)s"),
        code=reason.code,
        field=_meld_field(index),
        meld=index + 1,
        reason=reason,
    )


def _span(option: _Option) -> tuple[str, str]:
    return option.meld.represents[0].label, option.meld.represents[-1].label


def check_contract(
    variant: Variant, deal: int, laydown: Sequence[Sequence[Card]]
) -> tuple[Meld, ...]:
    """Check that ``laydown`` (one list of cards per meld) fulfils deal ``deal``'s contract.

    Returns the melds as read (wilds resolved in the player's favour), in the order given.
    Raises :class:`RuleViolation` naming the meld at fault (1-based in the message,
    ``field`` ``"laydown.<index>"`` counted from 0) and why: a meld that is no meld,
    the wrong number or kind of melds, more copies of a card than the decks hold, or —
    where the variant says so — two runs of one suit that continue each other. A laydown
    of more cards than a hand holds is refused first (``"laydown_too_large"``).
    """
    contract = variant.contract(deal)
    check_laydown(variant, sum(len(cards) for cards in laydown))
    options: list[list[_Option]] = []
    for index, cards in enumerate(laydown):
        try:
            readings = meld_readings(variant, cards)
        except RuleViolation as err:
            raise _in_meld(index, err) from None
        unique: dict[tuple[MeldKind, Suit | None, int, int], _Option] = {}
        for meld in readings:
            option = _option(meld)
            unique.setdefault((option.kind, option.suit, option.low, option.high), option)
        options.append(list(unique.values()))

    if len(laydown) != contract.melds:
        raise RuleViolation(
            _("Deal %(deal)d asks for %(contract)s: %(count)d melds, not %(given)d."),
            code="contract_count",
            field="laydown",
            deal=deal,
            contract=Phrase(contract.describe),
            count=contract.melds,
            given=len(laydown),
        )

    try:
        check_feasible(variant, laydown, [_meld_field(i) for i in range(len(laydown))])
    except RuleViolation as err:
        index = int(str(err.field).rsplit(".", 1)[1])
        raise _in_meld(index, err) from None

    _check_kinds(variant, deal, options)

    chosen = _search(variant, contract.sets, contract.runs, options)
    if chosen is None:
        raise _continuation_error(options)
    return tuple(option.meld for option in chosen)


def _check_kinds(variant: Variant, deal: int, options: list[list[_Option]]) -> None:
    contract = variant.contract(deal)
    only_set = [i for i, opts in enumerate(options) if all(o.kind is MeldKind.SET for o in opts)]
    only_run = [i for i, opts in enumerate(options) if all(o.kind is MeldKind.RUN for o in opts)]
    if len(only_set) > contract.sets:
        raise RuleViolation(
            _("Meld %(meld)d is a set, one more than deal %(deal)d asks for: %(contract)s."),
            code="contract_kind",
            field=_meld_field(only_set[contract.sets]),
            meld=only_set[contract.sets] + 1,
            deal=deal,
            contract=Phrase(contract.describe),
        )
    if len(only_run) > contract.runs:
        raise RuleViolation(
            _("Meld %(meld)d is a run, one more than deal %(deal)d asks for: %(contract)s."),
            code="contract_kind",
            field=_meld_field(only_run[contract.runs]),
            meld=only_run[contract.runs] + 1,
            deal=deal,
            contract=Phrase(contract.describe),
        )


def _search(
    variant: Variant, sets: int, runs: int, options: list[list[_Option]]
) -> list[_Option] | None:
    """A choice of one reading per meld meeting the contract, or None."""
    strict = variant.runs_must_not_continue
    chosen: list[_Option] = []
    # Melds with fewest readings first: conflicts show up early and prune the most.
    order = sorted(range(len(options)), key=lambda i: len(options[i]))

    def place(depth: int, sets_left: int, runs_left: int) -> bool:
        if depth == len(order):
            return True
        for option in options[order[depth]]:
            if option.kind is MeldKind.SET:
                if not sets_left:
                    continue
                chosen.append(option)
                if place(depth + 1, sets_left - 1, runs_left):
                    return True
                chosen.pop()
            else:
                if not runs_left:
                    continue
                if strict and any(o.kind is MeldKind.RUN and _continues(o, option) for o in chosen):
                    continue
                chosen.append(option)
                if place(depth + 1, sets_left, runs_left - 1):
                    return True
                chosen.pop()
        return False

    if not place(0, sets, runs):
        return None
    by_meld = dict(zip(order, chosen, strict=True))
    return [by_meld[i] for i in range(len(options))]


def _continuation_error(options: list[list[_Option]]) -> RuleViolation:
    runs = [[o for o in opts if o.kind is MeldKind.RUN] for opts in options]
    # Prefer a pair of melds that continue each other however their wilds are read.
    pairs = [(i, j) for j in range(len(runs)) for i in range(j) if runs[i] and runs[j]]
    forced = [(i, j) for i, j in pairs if all(_continues(a, b) for a in runs[i] for b in runs[j])]
    loose = [(i, j) for i, j in pairs if any(_continues(a, b) for a in runs[i] for b in runs[j])]
    i, j = (forced or loose)[0]
    a, b = next((a, b) for a in runs[i] for b in runs[j] if _continues(a, b))
    first, last = _span(b)
    other_first, other_last = _span(a)
    return RuleViolation(
        _(
            "Meld %(meld)d (%(first)s–%(last)s) continues meld %(other)d "
            "(%(other_first)s–%(other_last)s): runs of one suit in a laydown may overlap "
            "or leave a gap, but one may not continue the other."
        ),
        code="runs_continue",
        field=_meld_field(j),
        meld=j + 1,
        other=i + 1,
        first=first,
        last=last,
        other_first=other_first,
        other_last=other_last,
    )


def check_contract_text(variant: Variant, deal: int, melds: Sequence[str]) -> tuple[Meld, ...]:
    """:func:`check_contract` for melds typed as text, one string per meld."""
    return check_contract(variant, deal, laydown_cards(variant, melds))


def laydown_cards(variant: Variant, melds: Sequence[object]) -> list[list[Card]]:
    """The cards of a laydown given as text (or lists of card texts), one item per meld.

    Where a set's suits may repeat (two-deck contract games), a set may be typed as bare
    ranks, ``777`` or ``QQQ``, as the Räväytys rules themselves write it: its cards then
    take the suits the rest of the laydown uses least, so only a truly impossible number
    of copies is refused. Errors point at the meld (``laydown.N``); text longer than a
    hand is typed in, or more cards in all than a hand holds, at the laydown.
    """
    check_text(variant, melds, "laydown")
    laydown: list[list[Card]] = []
    suitless: dict[int, list[int]] = {}
    for index, value in enumerate(melds):
        try:
            laydown.append(cards_from_value(value))
        except RuleViolation as err:
            ranks = _bare_rank_set(variant, value)
            if ranks is None:
                raise err.at(_meld_field(index)) from None
            laydown.append([])
            suitless[index] = ranks
    used: dict[Card, int] = {}
    for cards in laydown:
        for card in cards:
            used[card] = used.get(card, 0) + 1
    for index, ranks in suitless.items():
        for rank in ranks:
            card = min((Card(rank, suit) for suit in Suit), key=lambda c: used.get(c, 0))
            used[card] = used.get(card, 0) + 1
            laydown[index].append(card)
    check_laydown(variant, sum(len(cards) for cards in laydown))
    return laydown


def _bare_rank_set(variant: Variant, text: object) -> list[int] | None:
    """The ranks of a set typed without suits (``777``), where the variant lets set suits
    repeat; None for anything else, which then needs its suits."""
    if variant.set_suits_distinct or not isinstance(text, str):
        return None
    try:
        tokens = parse_tokens(text)
    except RuleViolation:
        return None
    if not tokens or any(t.is_joker or t.suit is not None for t in tokens):
        return None
    ranks = [t.rank for t in tokens]
    return ranks if len(set(ranks)) == 1 else None
