"""The new-event page's fixed house rules read as words in every language: no engine
identifiers (JOKER, BLACK_TWO, last_deal) where a director reads the game's settings."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rules import VARIANT_IDS, describe_penalties
from tests.support.factories import ClubFactory, MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db

RAW = re.compile(r"JOKER|BLACK_TWO|last_deal|deals_won|\bseat\b")


@pytest.mark.parametrize("language", ["en", "fi", "hu"])
@pytest.mark.parametrize("game", VARIANT_IDS)
def test_the_fixed_rules_are_in_words(language: str, game: str) -> None:
    club = ClubFactory()
    desk = Client()
    desk.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    url = reverse("event_new", args=[club.slug]) + f"?game={game}"
    page = desk.get(url, headers={"accept-language": language}).content.decode()
    found = re.search(r'<dl class="rules">(.*?)</dl>', page, re.S)
    assert found, "the page lists the game's fixed rules"
    assert not RAW.search(found[1]), found[1]


def test_card_values_name_the_joker_and_the_black_two() -> None:
    table = {"A": 20, **{str(n): 5 for n in range(2, 10)}, "10": 10, "J": 10, "Q": 10,
             "K": 10, "JOKER": 50, "BLACK_TWO": 20}  # fmt: skip
    assert describe_penalties(table).endswith("K 10, joker 50, black two 20")
    assert describe_penalties(table, jokers=False, black_twos=False).endswith("K 10")
