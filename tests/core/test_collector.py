"""The worker processes set Python's cycle collector for a long-lived server once the site is
loaded (core.collector): what they hold then is frozen, so collections leave it alone."""

from __future__ import annotations

import gc
import importlib
from types import SimpleNamespace

import pytest
from celery.signals import worker_process_init


@pytest.fixture
def collector_restored():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_web_worker_freezes_what_it_loaded(monkeypatch, collector_restored):
    config = importlib.import_module("clubsite.gunicorn")
    monkeypatch.setattr(config, "listen_on", lambda sockets: None)
    assert gc.get_freeze_count() == 0
    config.post_worker_init(SimpleNamespace(sockets=[]))
    # The site's modules are among what is frozen: never walked by a collection again.
    assert gc.get_freeze_count() > 10_000


def test_each_celery_pool_process_does_the_same(collector_restored):
    importlib.import_module("clubsite.celery")
    worker_process_init.send(sender=None)
    assert gc.get_freeze_count() > 10_000


def _worker(kind: str):  # type: ignore[no-untyped-def]
    from gunicorn.workers.gthread import ThreadWorker
    from gunicorn.workers.sync import SyncWorker

    cls = {"sync": SyncWorker, "threads": ThreadWorker}[kind]
    # The hooks read only the worker's kind: no sockets, no arbiter.
    return cls.__new__(cls)


@pytest.fixture
def collector_running():
    gc.enable()
    yield
    gc.enable()


def test_a_sync_worker_pauses_the_collector_while_it_answers(collector_running):
    config = importlib.import_module("clubsite.gunicorn")
    worker = _worker("sync")
    config.pre_request(worker, None)
    assert not gc.isenabled()
    config.post_request(worker, None, {}, None)
    assert gc.isenabled()


def test_a_threaded_worker_leaves_it_running(collector_running):
    # Its requests overlap: one thread's pause would hold for the others.
    config = importlib.import_module("clubsite.gunicorn")
    config.pre_request(_worker("threads"), None)
    assert gc.isenabled()
