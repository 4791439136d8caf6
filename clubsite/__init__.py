from __future__ import annotations

# Load the Celery app with Django so @shared_task binds to it and on_commit queuing works.
from clubsite.celery import app as celery_app

__all__ = ["celery_app"]
