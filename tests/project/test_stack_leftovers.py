"""The production stack stops what a killed earlier run left running on its database: such
a worker took the next run's print jobs from the same Redis and wrote their files into the
old run's folder, so the new run's download was a 404 (tests/production/stack.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.production.stack import _remember, _stop_stale


def _alive(proc: subprocess.Popen[bytes]) -> bool:
    return proc.poll() is None


def test_a_leftover_of_an_earlier_run_is_stopped_and_a_strangers_process_is_not(tmp_path):
    database = f"lappu_leftover_{tmp_path.name}"
    noted = _stop_stale(database)  # nothing noted yet: nothing stopped
    # Two idle processes to find and stop (their sleep only keeps them alive meanwhile).
    ours = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", "clubsite"], start_new_session=True
    )
    stranger = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True
    )
    try:
        _remember(noted, ours.pid)
        _remember(noted, stranger.pid)
        assert _stop_stale(database) == noted
        assert ours.wait(timeout=10) == -9  # killed
        assert _alive(stranger)  # a pid reused by another program is left alone
        assert not Path(noted).exists()
    finally:
        for proc in (ours, stranger):
            if _alive(proc):
                proc.kill()
            proc.wait()
