from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init

from core.collector import tune_for_server

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

app = Celery("clubsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _tune_collector(**_kwargs: Any) -> None:
    # Each pool process, once started with the site loaded: a print job lays out many
    # objects, as a big page does (core.collector).
    tune_for_server()
