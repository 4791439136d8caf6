"""``python -m rules``: the forms of issue 3, exit codes and --json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def test_penalty_prints_the_total_last(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(capsys, "penalty", "--variant", "rutupeli", "A K 7 7")
    assert code == 0
    assert lines[-1] == "40"
    assert lines[:-1] == ["A 20", "K 10", "7 5", "7 5"]


def test_penalty_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(capsys, "penalty", "--variant", "ravaytys", "--json", "AS JK", "♠2")
    assert code == 0
    data = json.loads(lines[-1])
    assert data["penalty"] == 20 + 50 + 20
    assert [c["points"] for c in data["cards"]] == [20, 50, 20]


def test_penalty_of_an_impossible_hand_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(capsys, "penalty", "--variant", "ravaytys", "QS QS QS")
    assert code == 1
    assert lines == ["Impossible cards: 3 × ♠Q in a 2-deck game."]


def test_contract_valid(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(
        capsys, "contract", "--variant", "ravaytys", "--deal", "4", "H3 H4 JK H6", "S7 S8 S9 S10"
    )
    assert code == 0
    assert lines == ["valid"]
    code, lines, _err = run(
        capsys, "contract", "--variant", "ravaytys", "--deal", "4", "-v", "H3 H4 JK H6", "S7-10"
    )
    assert code == 0
    assert lines == ["meld 1: run: 3H 4H JK(5H) 6H", "meld 2: run: 7S 8S 9S 10S", "valid"]


def test_contract_refused_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(
        capsys, "contract", "--variant", "ravaytys", "--deal", "4", "♠5-8", "♠9-Q"
    )
    assert code == 1
    assert len(lines) == 1
    assert lines[0].startswith("Meld 2 (♠9–♠Q) continues meld 1")


def test_contract_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(
        capsys, "contract", "--variant", "ravaytys", "--deal", "4", "--json", "♠5-8", "♠9-Q"
    )
    assert code == 1
    data = json.loads(lines[0])
    assert data["valid"] is False
    assert data["meld"] == 2
    assert data["code"] == "runs_continue"
    code, lines, _err = run(
        capsys, "contract", "--variant", "ravaytys", "--deal", "4", "--json", "♣5-8", "♣8-J"
    )
    assert code == 0
    data = json.loads(lines[0])
    assert data["valid"] is True
    assert [m["kind"] for m in data["melds"]] == ["run", "run"]


def test_meld_valid_and_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(capsys, "meld", "--variant", "gin_romi", "7S 7H 7D")
    assert (code, lines) == (0, ["valid"])
    code, lines, _err = run(capsys, "meld", "--variant", "ravaytys", "--verbose", "7H 8H 9H JK")
    assert lines == ["run: 7H 8H 9H JK(10H)", "  or run: JK(6H) 7H 8H 9H", "valid"]
    code, lines, _err = run(capsys, "meld", "--variant", "gin_romi", "7S 7H 7S")
    assert code == 1
    assert lines == ["Impossible cards: 2 × ♠7 in a 1-deck game."]
    code, lines, _err = run(capsys, "meld", "--variant", "gin_romi", "--kind", "run", "7S 7H 7D")
    assert code == 1


def test_deadwood_prints_melds_and_the_minimum_last(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(
        capsys, "deadwood", "--variant", "gin_romi", "AS 2S 3S 4H 5H 6H 7D 8D 9C KC"
    )
    assert code == 0
    assert lines[-1] == "34"
    assert "run: AS 2S 3S" in lines
    assert "run: 4H 5H 6H" in lines
    code, lines, _err = run(
        capsys, "deadwood", "--variant", "gin_romi", "--json", "AS 2S 3S 4H 5H 6H 7D 8D 9C KC"
    )
    assert json.loads(lines[0])["deadwood"] == 34


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["meld", "--variant", "gin_romi", "7S 7H Z7"], '"Z7"'),
        (["penalty", "--variant", "rutupeli", "A K 7 QQX"], '"QQX"'),
        (["penalty", "--variant", "ravaytys", "A 2"], '"2"'),
        (["contract", "--variant", "ravaytys", "--deal", "4", "H3 H4 JK H6", "S7 S8 XX"], '"XX"'),
        (["contract", "--variant", "ravaytys", "--deal", "9", "H3 H4 JK H6"], "deal 9"),
        (["deadwood", "--variant", "gin_romi", "AS pata"], '"pata"'),
        (["meld", "--variant", "canasta", "7S 7H 7D"], "'canasta'"),
        (["meld", "--variant", "gin_romi", "--option", "decks=two", "7S 7H 7D"], "decks"),
        (["meld", "--variant", "gin_romi", "--option", "colour=1", "7S 7H 7D"], "colour"),
        (["contract", "--variant", "ravaytys", "--deal", "four", "7S"], "'four'"),
        (["shuffle"], "'shuffle'"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], token: str
) -> None:
    code, lines, err = run(capsys, *argv)
    assert code == 2
    assert lines == []
    assert len(err.strip().splitlines()) == 1
    assert token in err


def test_bad_input_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _err = run(capsys, "meld", "--variant", "gin_romi", "--json", "7S ZZ")
    assert code == 2
    error = json.loads(lines[0])["error"]
    assert error["params"]["token"] == "ZZ"
    assert error["params"]["position"] == 2


def test_options_change_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, _lines, _err = run(
        capsys, "contract", "--variant", "ravaytys", "--deal", "4", "--option",
        "runs_must_not_continue=false", "♠5-8", "♠9-Q",
    )  # fmt: skip
    assert code == 0


@pytest.mark.parametrize("command", [[], ["penalty"], ["contract"], ["meld"], ["deadwood"]])
def test_help_at_every_level(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, lines, _err = run(capsys, *command, "--help")
    assert code == 0
    assert lines[0].startswith("usage: python -m rules")


def test_module_runs_as_a_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rules", "penalty", "--variant", "rutupeli", "A K 7 7"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "40"
    result = subprocess.run(
        [sys.executable, "-m", "rules", "meld", "--variant", "gin_romi", "7S 7H ZZ"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert '"ZZ"' in result.stderr


@pytest.mark.parametrize(
    ("variant", "cards", "reason"),
    [
        ("gin_romi", "JK 5H 6H 7H", "no jokers in Gin Römi"),
        ("gin_romi", "7S 7S 7H 7D", "2 × ♠7 in a 1-deck game"),
        ("tizlapos_romi", "JK JK JK JK JK 5H", "5 jokers"),
    ],
)
def test_deadwood_refuses_impossible_hands(capsys, variant, cards, reason):
    code, lines, _err = run(capsys, "deadwood", "--variant", variant, cards)
    assert code == 1
    assert reason in lines[-1]


def test_contract_takes_the_seeds_own_rank_sets(capsys):
    # Seed 000 writes deal 1's two sets as "777 ja QQQ".
    code, lines, _err = run(
        capsys, "contract", "--variant", "ravaytys", "--deal", "1", "777", "QQQ"
    )
    assert (code, lines[-1]) == (0, "valid")
