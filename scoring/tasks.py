"""The scoring app's Celery tasks, for the worker's autodiscovery (which imports
`<app>.tasks`): each job lives in its own module."""

from __future__ import annotations

from scoring import print_tasks

__all__ = ["print_tasks"]
