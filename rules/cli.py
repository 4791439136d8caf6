"""``python -m rules``: the referee for a table dispute.

Forms (each also takes ``--json`` and ``--option NAME=VALUE`` for a club's house rules)::

    python -m rules penalty  --variant rutupeli "A K 7 7"
    python -m rules contract --variant ravaytys --deal 4 "H3 H4 JK H6" "S7 S8 S9 S10"
    python -m rules meld     --variant gin_romi "7S 7H 7D"
    python -m rules deadwood --variant gin_romi "AS 2S 3S 4H 5H 6H 7D 8D 9C KC"

``contract`` and ``meld`` print ``valid`` (with ``-v``, first how each meld is read);
``penalty`` and ``deadwood`` print the figure as the last line. Exit status: 0 valid (or
a figure printed), 1 refused (the reason is printed), 2 bad input (one line on stderr
naming the bad token; also more cards, or longer text, than a hand of the game holds).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from rules.cards import Card
from rules.contracts import check_contract, laydown_cards
from rules.errors import RuleViolation
from rules.i18n import _
from rules.limits import check_hand, check_meld, check_text
from rules.melds import meld_readings
from rules.notation import parse_cards
from rules.penalties import Hand, check_feasible, hand_from_text, price_breakdown, price_hand
from rules.results import Arrangement, Meld
from rules.variants import VARIANT_IDS, Variant, get_variant

__all__ = ["main"]

EXIT_VALID = 0
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2


class _BadInput(Exception):
    """Input the command line could not read (exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, so a script or a person sees at once what was wrong.
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m rules",
        description="The rules referee: price a hand, check a meld or a contract, "
        "find the best melds of a hand.",
        epilog="Exit status: 0 valid, 1 refused (reason printed), 2 bad input.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str, description: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=description)
        sub.add_argument(
            "--variant",
            required=True,
            choices=VARIANT_IDS,
            help="the game: " + ", ".join(VARIANT_IDS),
        )
        sub.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="change a setting of the game (value as JSON), e.g. --option buy_cap=4",
        )
        sub.add_argument("--json", action="store_true", help="print the answer as JSON")
        return sub

    def verbose(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            help="before 'valid', show how each meld is read (what the wild cards stand for)",
        )

    penalty = command(
        "penalty",
        "price the cards left in a hand",
        "Price the cards left in a hand; the total is the last line. "
        'Ranks without suits are fine ("A K 7 7").',
    )
    penalty.add_argument("cards", nargs="+", help='the cards, e.g. "A K 7 7" or "AS 10H JK"')

    contract = command(
        "contract",
        "check a laydown against a deal's contract",
        "Check that the melds fulfil the contract of the deal; prints valid or the reason.",
    )
    contract.add_argument("--deal", required=True, type=int, help="the deal number, from 1")
    contract.add_argument("melds", nargs="+", help='one argument per meld, e.g. "H3 H4 JK H6"')
    verbose(contract)

    meld = command("meld", "check one set or run", "Check one meld; prints valid or the reason.")
    meld.add_argument("--kind", choices=("set", "run"), help="insist on a set or a run")
    meld.add_argument("cards", nargs="+", help='the cards, e.g. "7S 7H 7D"')
    verbose(meld)

    deadwood = command(
        "deadwood",
        "find the best melds of a hand",
        "Arrange a hand into melds with the least deadwood; the deadwood is the last line.",
    )
    deadwood.add_argument("cards", nargs="+", help='the hand, e.g. "AS 2S 3S 4H 5H 6H 7D"')
    return parser


def _variant(args: argparse.Namespace) -> Variant:
    options: dict[str, object] = {}
    for item in args.option:
        name, sep, raw = str(item).partition("=")
        if not sep or not name:
            raise RuleViolation(
                _('"%(token)s" is not a setting: expected NAME=VALUE.'),
                code="bad_option",
                token=item,
            )
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    return get_variant(str(args.variant), **options)


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _meld_text(meld: Meld) -> str:
    parts = [
        c.code if c == r else f"{c.code}({r.code})"
        for c, r in zip(meld.cards, meld.represents, strict=True)
    ]
    return f"{meld.kind.value}: {' '.join(parts)}"


def _meld_json(meld: Meld) -> dict[str, object]:
    return {
        "kind": meld.kind.value,
        "cards": _codes(meld.cards),
        "represents": _codes(meld.represents),
    }


class _Output:
    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.lines: list[str] = []
        self.data: dict[str, object] = {}

    def emit(self) -> None:
        if self.as_json:
            print(json.dumps(self.data, ensure_ascii=False))
        else:
            for line in self.lines:
                print(line)


def _refusal(out: _Output, err: RuleViolation) -> int:
    out.data.update(valid=False, reason=err.message, code=err.code, field=err.field)
    meld = err.params.get("meld")
    if isinstance(meld, int):
        out.data["meld"] = meld
    out.lines.append(err.message)
    out.emit()
    return EXIT_REFUSED


def _penalty(args: argparse.Namespace, variant: Variant, out: _Output) -> int:
    try:
        hand: Hand = hand_from_text(variant, " ".join(args.cards))
    except RuleViolation as err:
        raise _BadInput(err) from err
    try:
        total = price_hand(variant, hand)
    except RuleViolation as err:
        return _refusal(out, err)
    rows = price_breakdown(variant, hand)
    out.lines.extend(f"{label} {points}" for label, points in rows)
    out.lines.append(str(total))
    out.data.update(
        variant=variant.id,
        cards=[{"card": label, "points": points} for label, points in rows],
        penalty=total,
    )
    out.emit()
    return EXIT_VALID


def _contract(args: argparse.Namespace, variant: Variant, out: _Output) -> int:
    try:
        contract = variant.contract(int(args.deal))
        laydown = laydown_cards(variant, args.melds)
    except RuleViolation as err:
        raise _BadInput(err) from err
    out.data.update(variant=variant.id, deal=args.deal, contract=contract.describe())
    try:
        melds = check_contract(variant, int(args.deal), laydown)
    except RuleViolation as err:
        return _refusal(out, err)
    if args.verbose:
        out.lines.extend(f"meld {i}: {_meld_text(m)}" for i, m in enumerate(melds, 1))
    out.lines.append("valid")
    out.data.update(valid=True, melds=[_meld_json(m) for m in melds])
    out.emit()
    return EXIT_VALID


def _meld(args: argparse.Namespace, variant: Variant, out: _Output) -> int:
    try:
        text = " ".join(args.cards)
        check_text(variant, text)
        cards = parse_cards(text)
        check_meld(variant, len(cards))
    except RuleViolation as err:
        raise _BadInput(err) from err
    out.data.update(variant=variant.id, cards=_codes(cards))
    try:
        readings = meld_readings(variant, cards, args.kind)
    except RuleViolation as err:
        return _refusal(out, err)
    if args.verbose:
        out.lines.append(_meld_text(readings[0]))
        out.lines.extend(f"  or {_meld_text(m)}" for m in readings[1:])
    out.lines.append("valid")
    out.data.update(
        valid=True, meld=_meld_json(readings[0]), readings=[_meld_json(m) for m in readings]
    )
    out.emit()
    return EXIT_VALID


def _deadwood(args: argparse.Namespace, variant: Variant, out: _Output) -> int:
    try:
        # Bounded before the solver sees it: its work grows steeply with the hand.
        text = " ".join(args.cards)
        check_text(variant, text)
        cards = parse_cards(text)
        check_hand(variant, len(cards))
    except RuleViolation as err:
        raise _BadInput(err) from err
    try:
        # An impossible hand (a joker in Gin, three ♠7 from one deck) has no deadwood.
        check_feasible(variant, [cards])
        best: Arrangement = variant.best_arrangement(cards)
    except RuleViolation as err:
        return _refusal(out, err)
    out.lines.extend(_meld_text(m) for m in best.melds)
    out.lines.append("unmatched: " + (" ".join(_codes(best.unmatched)) or "none"))
    out.lines.append(str(best.deadwood))
    out.data.update(
        variant=variant.id,
        melds=[_meld_json(m) for m in best.melds],
        unmatched=_codes(best.unmatched),
        deadwood=best.deadwood,
    )
    out.emit()
    return EXIT_VALID


_COMMANDS = {"penalty": _penalty, "contract": _contract, "meld": _meld, "deadwood": _deadwood}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        # A terminal that cannot show ♠ still gets the rest of the answer.
        reconfigure(errors="replace")
    args = _build_parser().parse_args(argv)
    out = _Output(bool(args.json))
    try:
        try:
            variant = _variant(args)
        except RuleViolation as err:
            raise _BadInput(err) from err
        return _COMMANDS[str(args.command)](args, variant, out)
    except _BadInput as bad:
        violation = bad.args[0]
        assert isinstance(violation, RuleViolation)
        if args.json:
            print(json.dumps({"error": violation.to_dict()}, ensure_ascii=False))
        else:
            print(f"python -m rules {args.command}: {violation.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
