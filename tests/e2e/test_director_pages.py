"""Every page a director uses, in a real browser at a phone's width and a laptop's: each is
checked by axe and shot (tests/artifacts/director-*-390.png and -1280.png) for a person to
look at."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.text import slugify

from core.tasks import QUEUE_UNAVAILABLE
from demo.loader import (
    CHAMPIONSHIP,
    CORRECTED_NIGHT,
    LATE_NIGHT,
    SEASON,
    SERIES,
    SWISS,
    demo_load,
)
from printing.jobs import print_job_request
from rules.games import VARIANT_IDS
from tests.support.broker import CLOSED, queue_pointed_at
from tests.support.browser import shoot_widths, sign_in
from tournaments.models import Event, Membership, Player, Role, Season, Table
from tournaments.services import registration_add


def test_the_new_event_forms_fixed_rules_read_across_a_laptop(live_server, phone):
    club = demo_load()
    sign_in(phone, live_server.url, "director", "director")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/new/?game=rutupeli")
    phone.set_viewport_size({"width": 1280, "height": 900})
    fixed = phone.locator("dl.rules")
    # Each value once lay one character a line (the names' column took the whole width).
    values = fixed.locator("dd").evaluate_all("dds => dds.map(dd => dd.offsetWidth)")
    assert values and min(values) > fixed.bounding_box()["width"] / 2, values
    assert fixed.bounding_box()["height"] < 600
    shoot_widths(phone, "director-new-event")


def _manage(club, name: str) -> str:
    event = Event.objects.get(club=club, name=name)
    return reverse("event_manage", args=[club.slug, event.pk])


def test_the_print_button_shows_it_is_at_work_and_a_queue_down_says_so(live_server, phone):
    club = demo_load()
    sign_in(phone, live_server.url, "director", "director")
    phone.goto(live_server.url + _manage(club, CORRECTED_NIGHT) + "#print")
    box = phone.locator("form.print-job-form")
    # Sent into a frame of its own, the page stays to be looked at as it is while it waits.
    phone.route("**/print/", lambda route: route.fulfill(body=""))
    box.evaluate(
        "form => { const f = document.createElement('iframe'); f.name = 'sent'; "
        "f.title = 'sent'; document.body.append(f); form.target = 'sent'; }"
    )
    # Waited for, not looked for afterwards: the post leaves a moment after the click.
    with phone.expect_request("**/print/") as sent:
        box.get_by_role("button", name="Print every table's result sheet").click()
    phone.wait_for_function("document.querySelector('form.print-job-form[aria-busy]')")
    assert box.locator("[data-busy-status]").is_visible()
    assert box.get_by_role("button", name="Print every table's score sheet").is_disabled()
    # The tapped button's choice still goes with the form (a disabled button's would not).
    assert "kind=result_sheets" in (sent.value.post_data or "")
    phone.unroute("**/print/")

    phone.goto(live_server.url + _manage(club, CORRECTED_NIGHT))
    with queue_pointed_at(CLOSED):
        box.get_by_role("button", name="Print every table's score sheet").click()
        phone.get_by_role("alert").wait_for()
    assert str(QUEUE_UNAVAILABLE) in phone.get_by_role("alert").inner_text()
    shoot_widths(phone, "director-print-queue-down")


def _post_from(page, url: str, fields: dict[str, str]) -> None:
    """Post `fields` to `url` as a form of the page would (with its CSRF token): how a
    director reaches a confirmation page, which only a post asks for."""
    with page.expect_navigation():
        page.evaluate(
            """([url, fields]) => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = url;
          const token = document.querySelector("input[name=csrfmiddlewaretoken]");
          for (const [name, value] of Object.entries({...fields, [token.name]: token.value})) {
            const input = document.createElement("input");
            input.type = "hidden";
            input.name = name;
            input.value = value;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        }""",
            [url, fields],
        )


def test_every_director_page_at_a_phones_and_a_laptops_width(live_server, phone):
    club = demo_load()
    director = get_user_model().objects.get(username="director")
    sign_in(phone, live_server.url, "director", "director")
    night = Event.objects.get(club=club, name=CORRECTED_NIGHT)
    # The longest realistic name, in the registrations list and its withdrawal's question.
    longest = Player.objects.create(club=club, name="Kristiina Väisänen-Lindqvist")
    registration = registration_add(event=night, player=longest, checked_in=True)
    table = Table.objects.filter(stage__event=night).order_by("number").first()
    season = Season.objects.get(club=club, name=SEASON)
    job = print_job_request(event=night, kind="table_sheets", params={"stage": 1}, by=director)
    slug = club.slug
    pages = {
        "club": reverse("club_detail", args=[slug]),
        "club-members": reverse("club_members", args=[slug]),
        "club-settings": reverse("club_settings", args=[slug]),
        "season-new": reverse("season_new", args=[slug]),
        "season-edit": reverse("season_edit", args=[slug, season.pk]),
        "season-league": reverse("season_league", args=[slug, season.pk]),
        "season-scheme": reverse("season_scheme_edit", args=[slug, season.pk]),
        "player-rename": reverse("player_rename", args=[slug, longest.pk]),
        "tables": reverse("event_tables", args=[slug, night.pk]),
        "table-history": reverse("table_history", args=[slug, night.pk, table.pk]),
        "correction": reverse("deal_edit", args=[table.entry_key, 1]),
        "revoke-confirm": reverse("table_revoke_confirm", args=[slug, night.pk, table.pk]),
        "print-job": reverse("print_job", args=[slug, night.pk, job.pk]),
    }
    # The new-event form differs by game: each game's rules and formats.
    for game in VARIANT_IDS:
        pages[f"new-event-{game}"] = reverse("event_new", args=[slug]) + f"?game={game}"
    for name in (CORRECTED_NIGHT, LATE_NIGHT, CHAMPIONSHIP, SERIES, SWISS):
        event = Event.objects.get(club=club, name=name)
        pages[f"manage-{slugify(name)}"] = reverse("event_manage", args=[slug, event.pk])
    for name, path in pages.items():
        answer = phone.goto(live_server.url + path)
        assert answer is not None and answer.status == 200, (name, answer and answer.status)
        shoot_widths(phone, f"director-{name}")

    # The confirmation pages, reached as their buttons reach them.
    manage = reverse("event_manage", args=[slug, night.pk])
    confirmations = {
        "confirm-withdraw": (
            reverse("registration_update", args=[slug, night.pk, registration.pk]),
            {"status": "withdrawn"},
        ),
        "confirm-finish": (reverse("event_finish", args=[slug, night.pk]), {}),
        "confirm-free-seat": (
            reverse("seat_free", args=[slug, night.pk, table.pk]),
            {"seat": "0"},
        ),
    }
    for name, (url, fields) in confirmations.items():
        phone.goto(live_server.url + manage)
        _post_from(phone, url, fields)
        assert phone.get_by_role("link", name="Cancel").count() == 1, name
        assert phone.locator("input[name=confirm][value=yes]").count() == 1, name
        shoot_widths(phone, f"director-{name}")

    # The roles page is the owner's: the director made one to see it.
    Membership.objects.filter(club=club, user=director).update(role=Role.OWNER)
    answer = phone.goto(live_server.url + reverse("club_roles", args=[slug]))
    assert answer is not None and answer.status == 200
    shoot_widths(phone, "director-club-roles")
