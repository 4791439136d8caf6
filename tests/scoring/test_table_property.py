"""Whatever a table and its director save, in whatever order, every page of the event answers.

Hypothesis plays sequences of plausible submits, corrections, confirmations and voids on a
Tízlapos buli and a Gin match (the games whose deals depend on the ones before: eliminations,
re-entries, the game to 150). The services refuse what would break the table; whatever they
let through, every page of the event must still show it.
"""

from __future__ import annotations

import contextlib

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleViolation
from scoring.models import Deal
from scoring.selectors import table_sheet
from scoring.services import Actor, StaleDeal, deal_confirm, deal_record, deal_void
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db
SEATS = 4
points = st.one_of(st.none(), st.integers(min_value=0, max_value=120))
tiz_entry = st.fixed_dictionaries(
    {
        "winner": st.integers(min_value=0, max_value=SEATS - 1),
        "ending": st.sampled_from(["romi", "knock"]),
        "knock_card": st.sampled_from([None, "2H", "3S"]),
        "players": st.lists(
            st.one_of(
                st.none(),
                st.fixed_dictionaries(
                    {
                        "cards": st.none(),
                        "points": points,
                        "drop_out": st.booleans(),
                        "reenter": st.booleans(),
                    }
                ),
            ),
            min_size=SEATS,
            max_size=SEATS,
        ),
    }
)
gin_entry = st.fixed_dictionaries(
    {
        "ending": st.sampled_from(["knock", "romi", "void"]),
        "by": st.integers(min_value=0, max_value=1),
        "upper": st.sampled_from(["9H", "KS", "5D"]),
        "hands": st.none(),
        "deadwood": st.lists(st.integers(min_value=0, max_value=100), min_size=2, max_size=2),
    }
)
steps = st.lists(
    st.tuples(
        st.sampled_from(["submit", "correct", "confirm", "void"]),
        st.integers(min_value=1, max_value=12),
        st.booleans(),  # the director, or a phone at the table
    ),
    min_size=1,
    max_size=14,
)
PHONE = Actor(device="phone-a", seat=0)
OTHER = Actor(device="phone-b", seat=1)
request_ids = iter(range(10**9))


def _play(table, step, entry, director):
    action, number, as_director = step
    by = director if as_director else PHONE
    deal = Deal.objects.filter(table=table, number=number).first()
    rid = f"p{next(request_ids)}"
    if action == "submit":
        next_number = table_sheet(table=table).next_number or number
        current = Deal.objects.filter(table=table, number=next_number).first()
        deal_record(
            table=table,
            number=next_number,
            entry=entry,
            by=by,
            expected_version=current.version if current else 0,
            request_id=rid,
        )
    elif deal is None:
        return
    elif action == "correct":
        deal_record(
            table=table,
            number=number,
            entry=entry,
            by=by,
            expected_version=deal.version,
            request_id=rid,
        )
    elif action == "confirm":
        deal_confirm(
            deal=deal,
            by=director if as_director else OTHER,
            expected_version=deal.version,
            request_id=rid,
        )
    else:
        deal_void(deal=deal, by=by, note="", request_id=rid)


def _every_page_answers(table, director):
    event = table.stage.event
    args = [event.club.slug, event.pk]
    key = table.entry_key
    signed_in = Client(raise_request_exception=True)
    signed_in.force_login(director)
    anonymous = Client(raise_request_exception=True)
    addresses = [
        (signed_in, reverse("table_entry", args=[key])),
        (signed_in, reverse("table_live", args=[key])),
        (signed_in, reverse("event_manage", args=args)),
        (signed_in, reverse("table_history", args=[*args, table.pk])),
        (anonymous, reverse("event_public", args=args)),
        (anonymous, reverse("event_live", args=args)),
    ]
    addresses += [
        (signed_in, reverse("deal_edit", args=[key, deal.number])) for deal in table.deals.all()
    ]
    for client, address in addresses:
        assert client.get(address).status_code == 200, address


@pytest.mark.parametrize(("variant_id", "players", "entries"), [
    ("tizlapos_romi", SEATS, tiz_entry),
    ("gin_romi", 2, gin_entry),
])  # fmt: skip
def test_any_sequence_of_saves_leaves_every_page_answering(variant_id, players, entries):
    event, (table,) = seated_event(
        variant_id=variant_id, players=players, options={"allow_points_entry": True}
    )
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    desk = Actor(device="desk", user=director)

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(plan=steps, data=st.data())
    def run(plan, data):
        Deal.objects.filter(table=table).delete()
        for step in plan:
            # A refusal leaves the table as it was: the property is about what is let through.
            with contextlib.suppress(RuleViolation, StaleDeal):
                _play(table, step, data.draw(entries), desk)
        assert table_sheet(table=table).problem is None
        _every_page_answers(table, director)

    run()
