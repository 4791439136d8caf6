"""Two imports at once (two directors, or one double click) never make one person twice
nor import one event twice: each runs under the club's lock and reads the players and
events the other committed."""

from __future__ import annotations

import io
import threading

import pytest
from django.db import connection

from tests.support.factories import ClubFactory
from tournaments.history import history_import
from tournaments.models import Event, Player
from tournaments.spreadsheet import SpreadsheetError

HEADER = "date,game,event name,player,place,total\n"


def _run_together(club, files: list[str]) -> list[BaseException]:
    barrier = threading.Barrier(len(files))
    problems: list[BaseException] = []

    def run(text: str) -> None:
        try:
            barrier.wait()
            history_import(club=club, upload=io.BytesIO(text.encode()))
        except BaseException as error:  # reported by the test
            problems.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(text,)) for text in files]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return problems


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_imports_at_once_make_one_new_player_and_import_each_event_once():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: run with DATABASE_URL (make test does)")
    club = ClubFactory()
    first = (
        HEADER
        + "2025-09-04,Rutupeli,Night A,Olli Uusi,1,10\n2025-09-04,Rutupeli,Night A,Aino,2,20\n"
    )
    second = (
        HEADER
        + "2025-09-11,Rutupeli,Night B,olli uusi,1,10\n2025-09-11,Rutupeli,Night B,Eero,2,20\n"
    )
    assert _run_together(club, [first, second]) == []
    assert Player.objects.filter(club=club).count() == 3  # Olli once, Aino, Eero
    assert Event.objects.filter(club=club).count() == 2

    # The same file twice at once: one imports it, the other is told it is imported already.
    third = HEADER + "2025-09-18,Rutupeli,Night C,Olli Uusi,1,10\n"
    problems = _run_together(club, [third, third])
    assert len(problems) == 1 and isinstance(problems[0], SpreadsheetError)
    assert Event.objects.filter(club=club, name="Night C").count() == 1
