"""A 250-player event's draw with "mail each player their table" on and off (``make
bench``; figures, not pass/fail).

Each round makes a fresh event of 250 checked-in players with an address, then times the
draw and its confirmation inside one transaction (what the director waits for), and,
separately, what runs after the commit: queueing the mail job, which here (Celery eager,
the locmem mail backend) also renders and "sends" the 250 mails in the same process. On
the site that part runs on a worker, not in the director's request.

Figures: the draw's median with mail on and off and their ratio (goal: about 1.0, the
draw no slower than without mail); the mails and jobs one draw makes (goal: 250 mails in
one job); the send job's median time and its queries.

Uses a throw-away database (test_<name>), PostgreSQL when reachable, else SQLite.
Run: ``python tests/bench/bench_draw_mail.py``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.testdb import on_test_database, use_postgres_if_reachable

PG_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu_bench_draw_mail"
)
PLAYERS = 250
ROUNDS = 7


def run() -> list[tuple[str, float, str]]:
    backend = use_postgres_if_reachable(PG_URL)
    return on_test_database(lambda: _measure(backend))


def _event(club, number: int):  # type: ignore[no-untyped-def]
    import datetime

    from tournaments.models import Player, Registration
    from tournaments.services import event_create, registration_add

    event = event_create(
        club=club, name=f"Bench night {number}", date=datetime.date(2026, 12, 1),
        variant_id="rutupeli", preferred_table_size=4, published=True,
    )  # fmt: skip
    players = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {number}-{i:03d}") for i in range(PLAYERS)]
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    for index, registration in enumerate(Registration.objects.filter(event=event)):
        registration.email = f"p{number}-{index}@example.com"
        registration.save(update_fields=["email"])
    return event


def _draw(club, number: int) -> tuple[float, float, int, int]:  # type: ignore[no-untyped-def]
    """(draw µs, after-commit µs, mails sent, jobs queued) of one event's draw."""
    from django.core import mail
    from django.db import transaction

    from core.models import TaskRun
    from tournaments.services import stage_confirm, stage_draw

    event = _event(club, number)
    mail.outbox = []
    names = ["tournaments.table_notices", "tournaments.notices_send"]
    jobs = TaskRun.objects.filter(name__in=names).count()
    started = time.perf_counter_ns()
    with transaction.atomic():
        stage = stage_draw(event=event, seed=number)
        stage_confirm(stage=stage)
        drawn = time.perf_counter_ns()
    done = time.perf_counter_ns()
    jobs = TaskRun.objects.filter(name__in=names).count() - jobs
    return (drawn - started) / 1000, (done - drawn) / 1000, len(mail.outbox), jobs


def _measure(backend: str) -> list[tuple[str, float, str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, override_settings

    from clubsite.celery import app
    from tournaments.models import Club, Notice, NoticeStatus
    from tournaments.notice_mail import notices_send

    app.conf.task_always_eager = True
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
        rows: dict[bool, list[tuple[float, float, int, int]]] = {False: [], True: []}
        for mail_tables in (False, True, False, True):  # warm both first
            club = Club.objects.create(
                name="Bench", slug=f"warm-{mail_tables}-{Club.objects.count()}",
                language="en", mail_tables=mail_tables,
            )  # fmt: skip
            _draw(club, Club.objects.count() * 100)
        for round_ in range(ROUNDS):
            for mail_tables in (False, True):
                club = Club.objects.create(
                    name="Bench", slug=f"bench-{mail_tables}-{round_}",
                    language="en", mail_tables=mail_tables,
                )  # fmt: skip
                rows[mail_tables].append(_draw(club, 1000 + round_ * 10 + mail_tables))
        last = Notice.objects.filter(event__club__slug=f"bench-True-{ROUNDS - 1}")
        ids = list(last.values_list("pk", flat=True))
        last.update(status=NoticeStatus.QUEUED)
        connection.queries_log.clear()  # the seeding filled it: a full log counts nothing
        with CaptureQueriesContext(connection) as captured:
            notices_send(notice_ids=ids, last_try=False)
        send_queries = len(captured.captured_queries)
    off = statistics.median(r[0] for r in rows[False])
    on = statistics.median(r[0] for r in rows[True])
    send = statistics.median(r[1] for r in rows[True])
    after_off = statistics.median(r[1] for r in rows[False])
    mails = rows[True][-1][2]
    jobs = rows[True][-1][3]
    return [
        (f"draw+confirm {PLAYERS} players, mail_tables off ({backend})", off, "yardstick"),
        (
            f"draw+confirm {PLAYERS} players, mail_tables on ({backend})",
            on,
            f"{on / off:.2f}x off; goal about 1.0x",
        ),
        (
            f"after commit, mail on: {mails} mails in {jobs} job(s), "
            f"{send_queries} queries to send ({backend})",
            send,
            f"runs on a worker; after commit with mail off: {after_off / 1000:.1f} ms",
        ),
    ]


if __name__ == "__main__":
    for name, median, target in run():
        print(f"{name}: median {median / 1000:.1f} ms ({target})")
