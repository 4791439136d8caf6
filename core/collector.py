"""Python's cycle collector set for a long-lived server process (a gunicorn or Celery worker).

A request that builds many objects (the 250-table manage page, a championship's public part:
thousands of model instances and rows) sets off a full collection now and then, and with the
interpreter's defaults that walks every object the process holds: the whole site's code,
templates and libraries, about 300,000 objects. Measured in one process on the 250-table
event, such a collection took 250-340 ms, and one came in nearly every one of those
requests. So once a worker has loaded the site, what it holds then is frozen: it lives as
long as the process anyway, and a collection no longer walks it (those collections then
took 50-165 ms). Back to back under load (tests/bench/rehearsal.py, docs/speed.md) this
left the small requests as they were and made the big ones cheaper.

Collecting the young generation less often as well (every 50,000 new objects instead of
700) made the big requests cheaper still in one process, but every save, confirmation and
live check about 10 % dearer in the workers: it is not done.

What was left were the collections during a big request: most of what it walks is the
request's own live rows, which it would free by reference counting at the end anyway. So a
web worker (one request at a time: gunicorn's sync workers) pauses the collector while it
answers and lets it run again once the answer has been sent: a collection then finds only
what the request left in cycles. Measured in one process on the finished 250-table stage,
the director's manage page took 500 ms with the collector running and 254 ms without
(the closed stage's page: 540-610 ms against 370-395 ms).
"""

from __future__ import annotations

import gc


def tune_for_server() -> None:
    """Freeze what the process holds now, so that collections leave it alone. Call it once
    the site is loaded, in each worker process."""
    gc.collect()
    gc.freeze()


def request_started() -> None:
    """A web worker starts answering a request: no collection until it has answered."""
    gc.disable()


def request_answered() -> None:
    """The answer has been sent: the collector runs again, and its next collection finds
    what the request left in cycles (its live rows were freed as it ended)."""
    gc.enable()
