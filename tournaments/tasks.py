from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from tournaments.services import club_stats_refresh


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def club_stats_refresh_task(self, club_id: int) -> dict[str, int]:
    self.update_state(state="PROGRESS", meta={"done": 0, "total": 1})
    count = club_stats_refresh(club_id=club_id)
    return {"club_id": club_id, "member_count": count}
