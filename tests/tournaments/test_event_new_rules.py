"""House rules on the new-event form: the chosen game's every option, built from its spec."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules import VARIANT_IDS, game_spec
from tests.support.factories import MembershipFactory
from tournaments.forms import EventForm
from tournaments.models import Event, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


def _new(club, **query):
    url = reverse("event_new", args=[club.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _post(client, club, variant_id, **rules):
    data = {
        "name": "House night",
        "date": "2026-12-04",
        "variant_id": variant_id,
        "rules_for": variant_id,
        "preferred_table_size": 2,
        **rules,
    }
    return client.post(reverse("event_new", args=[club.slug]), data)


@pytest.mark.parametrize("game", VARIANT_IDS)
def test_every_option_of_the_game_is_on_the_form_or_listed_as_fixed(game):
    form = EventForm(game=game)
    fixed = {label for label, _value in form.fixed}
    for option in game_spec(game).options:
        if option.name == "name" or option.name in EventForm.NOT_SHOWN:
            continue  # the event's own; the engine's seat-ending tie order (chosen above)
        assert option.name in form.fields or option.text in fixed, option.name
    for option in game_spec(game).options:
        if isinstance(option.default, bool):
            assert form.fields[option.name].widget.input_type == "checkbox"
        elif isinstance(option.default, int) and option.name in form.option_names:
            field = form.fields[option.name]
            assert field.initial == option.default
            assert (field.min_value, field.max_value) == (option.low, option.high)


def test_the_game_chosen_in_the_address_shows_its_options_with_defaults(client, club, director):
    client.force_login(director)
    page = client.get(_new(club, game="gin_romi")).content.decode()
    assert 'name="gin_target"' in page
    assert 'value="150"' in page
    assert "The points that end the game" in page
    assert 'name="tiz_elimination"' not in page
    assert '<label for="id_gin_target">' in page
    assert 'id="id_gin_target_helptext"' in page
    page = client.get(_new(club, game="tizlapos_romi")).content.decode()
    assert 'name="tiz_elimination"' in page and 'name="gin_target"' not in page


def test_chosen_house_rules_are_stored_and_shown_on_the_event_page(client, club, director):
    client.force_login(director)
    response = _post(
        client,
        club,
        "gin_romi",
        gin_target="100",
        gin_spade_doubles="on",
        ace_low="on",
        set_suits_distinct="on",
        allow_points_entry="on",
    )
    event = Event.objects.get(name="House night")
    assert response.status_code == 302
    variant = event.variant
    assert variant.gin_target == 100
    assert variant.gin_spade_doubles is True
    assert variant.ace_low is True
    assert variant.gin_bonus_undercut == 25  # left out: the default
    page = client.get(reverse("event_manage", args=[club.slug, event.pk])).content.decode()
    assert "first to 100 points" in page
    assert "Spade upper card doubles" in page


def test_an_unticked_box_on_the_shown_rules_is_a_no(client, club, director):
    client.force_login(director)
    _post(client, club, "ravaytys", allow_points_entry="on", ace_low="on", ace_high="on")
    variant = Event.objects.get(name="House night").variant
    assert variant.wild_jokers is False
    assert variant.min_run == 4


def test_a_post_without_the_rules_keeps_the_games_defaults(client, club, director):
    client.force_login(director)
    data = {"name": "Plain", "date": "2026-12-04", "variant_id": "ravaytys"}
    client.post(reverse("event_new", args=[club.slug]), {**data, "preferred_table_size": 4})
    variant = Event.objects.get(name="Plain").variant
    assert variant.wild_jokers is True and variant.ace_high is True


def test_a_value_out_of_range_is_refused_next_to_its_field(client, club, director):
    client.force_login(director)
    response = _post(client, club, "gin_romi", gin_target="0")
    assert response.status_code == 200
    assert not Event.objects.filter(name="House night").exists()
    assert 'id="id_gin_target_error"' in response.content.decode()


def test_a_rule_the_engine_refuses_is_shown(client, club, director):
    client.force_login(director)
    response = _post(client, club, "ravaytys", min_players="6", max_players="3")
    assert response.status_code == 200
    assert not Event.objects.filter(name="House night").exists()
    assert 'class="error' in response.content.decode()


def test_a_refusal_for_one_setting_is_shown_next_to_it(client, club, director):
    client.force_login(director)
    response = _post(client, club, "rutupeli")  # every box unticked: no ace at all
    assert response.status_code == 200
    assert 'id="id_ace_high_error"' in response.content.decode()


def test_an_emptied_limit_means_no_limit(client, club, director):
    client.force_login(director)
    _post(client, club, "rutupeli", buy_cap="", ace_low="on", ace_high="on")
    assert Event.objects.get(name="House night").variant.buy_cap is None


def test_fixed_settings_are_listed(client, club, director):
    client.force_login(director)
    page = client.get(_new(club, game="rutupeli")).content.decode()
    assert "Fixed by the game" in page
    assert "The contract of each deal" in page


@pytest.mark.parametrize(("game", "preferred"), [("gin_romi", 2), ("rutupeli", 4)])
def test_the_preferred_table_size_starts_at_the_games_own(game, preferred):
    # A Gin Römi form offered 4, at a game of two players a table.
    form = EventForm(game=game)
    assert form["preferred_table_size"].initial == preferred
    assert f'value="{preferred}"' in str(form["preferred_table_size"])
