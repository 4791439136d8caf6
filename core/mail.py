"""Handing a mail to the job queue: the one way the site sends mail from a request.

A mail job takes ids and a language and renders the mail itself, so the queue never holds
a link's token. Queued once the transaction commits (a rolled-back sign-up or invitation
mails nobody). When the queue cannot be reached the mail is sent here and now instead: a
person waits a mail server's round trip, which beats no mail, and never gets a server error.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task
from django.db import transaction

log = logging.getLogger(__name__)


def mail_send(task: Task, *args: Any) -> None:
    """Queue the mail job `task(*args)` now; run it in this process if the queue is down."""
    try:
        task.delay(*args)
    except Exception:
        log.warning("mail %s: the queue cannot be reached; mailing now", task.name, exc_info=True)
        try:
            task.apply(args=list(args))
        except Exception:
            log.exception("mail %s%r could not be sent", task.name, args)


def mail_send_on_commit(task: Task, *args: Any) -> None:
    """`mail_send` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: mail_send(task, *args))
