"""The event's public page polls its live part with the tag of what it shows, from the first
poll on, as the table page does (static/js/site.js): nothing new is a 304, and a server that
sheds spectators' polls keeps the page on its copy (304) instead of a 503."""

from __future__ import annotations

from scoring.services import Actor, deal_record
from tests.support.events import seated_event
from tournaments.services import event_publish


def test_the_public_pages_polls_send_the_tag_it_shows(live_server, phone):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    event_publish(event=event, published=True)
    sent: list[str | None] = []
    polls: list[tuple[int, str | None]] = []
    live = f"/clubs/{event.club.slug}/events/{event.pk}/live/"
    phone.on(
        "request", lambda r: sent.append(r.headers.get("if-none-match")) if live in r.url else None
    )
    phone.on(
        "response",
        lambda r: polls.append((r.status, r.headers.get("etag"))) if live in r.url else None,
    )
    phone.clock.install()
    phone.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/")
    said = phone.locator("#live").get_attribute("data-poll-tag")
    assert said
    with phone.expect_response(lambda r: live in r.url):
        phone.clock.run_for(10_500)
    assert sent[:1] == [said] and [status for status, _ in polls[:1]] == [304], (sent, polls)

    # A deal saved: the next poll, still with the page's tag, brings the new part and its tag,
    # which the poll after it sends.
    entry = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS", "7H", "QS")]}
    deal_record(
        table=table, number=1, entry=entry, expected_version=0, request_id="seat-0",
        by=Actor(device="a-phone", seat=0),
    )  # fmt: skip
    with phone.expect_response(lambda r: live in r.url):
        phone.clock.run_for(10_000)
    assert sent[1] == said and polls[1][0] == 200 and polls[1][1] != said, (sent, polls)
    with phone.expect_response(lambda r: live in r.url):
        phone.clock.run_for(10_000)
    assert sent[2] == polls[1][1] and polls[2][0] == 304, (sent, polls)


def test_an_unswapped_error_keeps_the_tag_for_the_next_poll(live_server, phone):
    # A proxy's 502 or a 503 "busy" is not swapped: the page shows what it did, so its next
    # poll still holds that copy's tag (and is a 304 if shed, not another 503).
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    event_publish(event=event, published=True)
    live = f"/clubs/{event.club.slug}/events/{event.pk}/live/"
    sent: list[str | None] = []
    phone.on(
        "request", lambda r: sent.append(r.headers.get("if-none-match")) if live in r.url else None
    )
    failed: list[bool] = []

    def once_503(route) -> None:
        if failed:
            route.continue_()
            return
        failed.append(True)
        route.fulfill(status=503, body="busy", headers={"Retry-After": "10"})

    phone.route(f"**{live}", once_503)
    phone.clock.install()
    phone.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/")
    said = phone.locator("#live").get_attribute("data-poll-tag")
    with phone.expect_response(lambda r: live in r.url):
        phone.clock.run_for(10_500)
    with phone.expect_response(lambda r: live in r.url):
        phone.clock.run_for(10_000)
    assert failed and said and sent[:2] == [said, said], (said, sent)
