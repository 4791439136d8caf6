"""A registration's own mail carries its links as the registration stands: the personal
code for the door while it holds a place (attached, and a link to the code page), the cancel link
while it may be cancelled; and "received" says what was received."""

from __future__ import annotations

import datetime
import io
import re
from urllib.parse import urlsplit

import pytest
import zxingcpp
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.test import Client
from PIL import Image

from tests.support.factories import ClubFactory
from tournaments.models import Player, RegistrationOpenTo
from tournaments.registration import (
    registration_confirm,
    registration_self_add,
    registration_settings_set,
)
from tournaments.services import event_create

pytestmark = pytest.mark.django_db(transaction=True)


def _open_event(*, places: int, approval: bool = False):
    club = ClubFactory()
    event = event_create(
        club=club, name="Open night", date=datetime.date.today() + datetime.timedelta(days=3),
        variant_id="rutupeli", published=True,
    )  # fmt: skip
    registration_settings_set(
        event=event, open_to=RegistrationOpenTo.ANYONE, opens_at=None, closes_at=None,
        capacity=places, approval=approval,
    )  # fmt: skip
    return event


def _register(event, name: str):
    registration = registration_self_add(
        event=event, user=AnonymousUser(), name=name, email=f"{name.lower()}@example.com",
        language="en",
    )  # fmt: skip
    mail.outbox.clear()  # the address's confirmation link
    return registration_confirm(registration=registration)


def _links(body: str) -> list[str]:
    return re.findall(r"https?://\S+", body)


def test_a_place_mail_has_the_door_code_that_opens_and_a_cancel_link():
    event = _open_event(places=1)
    _register(event, "Anna")
    (message,) = mail.outbox
    assert "You are registered for Open night" in message.body
    door = next(link for link in _links(message.body) if "/door/" in link)
    cancel = next(link for link in _links(message.body) if "/registration/cancel/" in link)
    page = Client().get(urlsplit(door).path)
    assert page.status_code == 200
    assert "Anna" in page.content.decode()
    # The code itself is attached: the door scans the mail as it is, and it opens the same page.
    (code,) = [(name, data) for name, data, kind in message.attachments if kind == "image/png"]
    assert code[0] == "door-code.png"
    (read,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(code[1])))
    assert read.text == door
    assert Client().get(urlsplit(cancel).path).status_code == 200  # asks first


def test_a_waitlist_mail_has_a_cancel_link_and_no_door_code():
    event = _open_event(places=1)
    _register(event, "Anna")
    mail.outbox.clear()
    _register(event, "Bea")
    (message,) = mail.outbox
    assert "waitlist" in message.body
    assert not [link for link in _links(message.body) if "/door/" in link]
    assert not message.attachments
    assert [link for link in _links(message.body) if "/registration/cancel/" in link]


def test_a_registration_awaiting_approval_is_told_so():
    event = _open_event(places=5, approval=True)
    _register(event, "Cecilia")
    (message,) = mail.outbox
    assert "The club confirms it" in message.body
    assert not [link for link in _links(message.body) if "/door/" in link]
    assert Player.objects.filter(name="Cecilia").exists()
