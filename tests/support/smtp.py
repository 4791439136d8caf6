"""A real SMTP server for the mail tests of the PostgreSQL lane (aiosmtpd), started in the
test process on a free port: the site's SMTP backend is pointed at it and every mail it is
handed is kept, as a mail client would read it."""

from __future__ import annotations

import email
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message

from aiosmtpd.controller import Controller


class Sink:
    """Keeps every mail the server is handed."""

    def __init__(self) -> None:
        self.mails: list[Message] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd calls it so
        self.mails.append(email.message_from_bytes(envelope.original_content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        """The mails to `address`, oldest first."""
        return [mail for mail in self.mails if mail["To"] == address]


@contextmanager
def smtp_sink_running(settings) -> Iterator[Sink]:
    """A sink listening on 127.0.0.1 while the block runs, with `settings` (pytest-django's
    fixture) sending the site's mail to it by SMTP."""
    sink = Sink()
    # A free port (aiosmtpd's controller checks its server by connecting, so not port 0).
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield sink
    finally:
        controller.stop()


def text_of(message: Message) -> str:
    """The plain-text body of `message`, decoded."""
    part = next(p for p in message.walk() if p.get_content_type() == "text/plain")
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(part.get_content_charset() or "utf-8")
