"""The fixed costs taken off the best arrangement (Issue 24) change no answer."""

from __future__ import annotations

import pickle
import random

from rules import arrangement
from rules.cards import JOKER, Card, Suit, card_of, full_deck
from rules.notation import parse_cards
from rules.results import Arrangement
from rules.variants import get_variant


def test_every_card_has_its_own_bit_in_suit_order():
    bits = [Card(rank, suit).bit for suit in Suit for rank in range(1, 14)]
    assert len(set(bits)) == 52
    assert all(b.bit_count() == 1 for b in bits)
    assert Card(1, Suit.SPADES).bit == 1 << 1
    assert Card(13, Suit.CLUBS).bit == 1 << (42 + 13)
    assert JOKER.bit == 0


def test_a_card_pickles_with_its_bit_and_an_old_pickle_loads_whole():
    card = Card(10, Suit.DIAMONDS)
    again = pickle.loads(pickle.dumps(card))
    assert again == card and again.bit == card.bit
    old = Card.__new__(Card)
    old.__setstate__([7, Suit.HEARTS])  # the state a card pickled before the bit had
    assert old == Card(7, Suit.HEARTS) and old.bit == Card(7, Suit.HEARTS).bit


def test_parsed_cards_are_the_decks_own_objects():
    for card in parse_cards("AS 10H qd 7c JK"):
        assert card is (JOKER if card.suit is None else card_of(card.rank, card.suit))


def test_the_quick_result_equals_a_made_one():
    made = arrangement._arrangement((), (Card(2, Suit.CLUBS),), 2)
    assert made == Arrangement((), (Card(2, Suit.CLUBS),), 2)
    assert hash(made) == hash(Arrangement((), (Card(2, Suit.CLUBS),), 2))


def test_sets_no_run_wants_are_melded_as_the_general_comparison_melds_them():
    variant = get_variant("gin_romi")
    solver = arrangement._solver(variant)
    rng = random.Random(24)
    deck = full_deck(1, 0)
    checked = 0
    for _ in range(4000):
        hand = rng.sample(deck, 10)
        got = variant.best_arrangement(hand)
        packed = sum(c.bit for c in hand)
        m = [packed >> (14 * s) & 0x3FFF for s in range(4)]
        candidates = (m[0] & m[1] & (m[2] | m[3])) | (m[2] & m[3] & (m[0] | m[1]))
        if candidates:
            tables = solver.tables
            assert tables is not None
            assert got == arrangement._table_with_sets(tables, packed, candidates)
            checked += 1
    assert checked > 500
