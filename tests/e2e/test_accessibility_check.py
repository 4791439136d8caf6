"""The axe check every screenshot makes looks at the page the test is on, even when a
click's next page arrives while axe is still looking at the one being left."""

from __future__ import annotations

import pytest

from tests.support.browser import check_accessibility

SITE = "http://pages.test"
# Long enough that axe is still at work when the next page comes in.
LEFT = (
    "<!doctype html><html lang='en'><head><title>Left</title></head><body><main><h1>Left</h1>"
    + "".join(f"<p><a href='#p{n}'>line {n}</a></p>" for n in range(3000))
    + "</main></body></html>"
)
# An image without words: the one thing axe should name, on the page arrived at.
ARRIVED = (
    "<!doctype html><html lang='en'><head><title>Arrived</title></head><body><main>"
    "<h1>Arrived</h1><img src='data:image/gif;base64,R0lGODlhAQABAAAAACw='></main></body></html>"
)


def test_a_page_that_arrives_while_axe_looks_is_the_one_judged(phone):
    phone.route(f"{SITE}/left", lambda route: route.fulfill(body=LEFT, content_type="text/html"))
    phone.route(
        f"{SITE}/arrived", lambda route: route.fulfill(body=ARRIVED, content_type="text/html")
    )
    phone.goto(f"{SITE}/left")
    # As a link's click does: the browser leaves the page a moment after the test goes on.
    phone.evaluate("() => setTimeout(() => { location.href = '/arrived'; }, 20)")

    with pytest.raises(pytest.fail.Exception) as failed:
        check_accessibility(phone)

    assert "image-alt" in str(failed.value)
    assert f"{SITE}/arrived" in str(failed.value)
