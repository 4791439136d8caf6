from __future__ import annotations

import pytest

from tournaments.names import name_clean, name_key


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Olli Uusi", "olli uusi"),
        ("Olli  Uusi", " Olli Uusi "),
        ("Ölli Uusi", "olli uusi"),
        ("Kristiina Väisänen-Lindqvist", "KRISTIINA VAISANEN-LINDQVIST"),
        ("Erdős Pál", "erdos  pal"),
    ],
)
def test_spellings_of_one_person_share_a_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Olli Uusi", "Olli Uusikylä"), ("Anna", "Anne")])
def test_other_people_do_not(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_a_stored_name_keeps_its_accents_and_loses_its_extra_spaces() -> None:
    assert name_clean("  Ölli\t Uusi ") == "Ölli Uusi"
