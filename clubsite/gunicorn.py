"""gunicorn's settings beside its command line (the Dockerfile's CMD loads this module with
`--config python:clubsite.gunicorn`): each worker tells core.load which sockets it takes
connections from, so a spectator's poll can see how many requests wait behind it, and sets
Python's cycle collector for a long-lived process (core.collector): frozen once the site is
loaded, and paused while a request is answered (a sync worker answers one at a time)."""

from __future__ import annotations

import os
from typing import Any

from gunicorn.workers.sync import SyncWorker

from core.collector import request_answered, request_started, tune_for_server
from core.load import listen_on

# Platforms that run the image by themselves (and some PaaS) say which port to serve on in
# $PORT; compose and a plain `docker run` leave it unset and get 8000.
bind = [f"0.0.0.0:{os.environ.get('PORT') or 8000}"]


def post_worker_init(worker: Any) -> None:
    # Called in each worker once it has loaded the site.
    listen_on(worker.sockets)
    tune_for_server()


def pre_request(worker: Any, req: Any) -> None:
    # Only a worker that answers one request at a time: threads would pause the collector
    # for each other, and maybe for ever.
    if isinstance(worker, SyncWorker):
        request_started()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    # gunicorn calls it once the answer is written (and even when answering failed), so the
    # collector never stays paused past the request.
    if isinstance(worker, SyncWorker):
        request_answered()
