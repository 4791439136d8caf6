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
