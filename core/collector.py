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
"""

from __future__ import annotations

import gc


def tune_for_server() -> None:
    """Freeze what the process holds now, so that collections leave it alone. Call it once
    the site is loaded, in each worker process."""
    gc.collect()
    gc.freeze()
