"""`make bench` runs every bench module in one process, one after another: kept working
here, since no other test runs the benches end to end (a settings module named like a
bench, or a second throw-away database in the same process, stopped it half-way)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
ROOT = BENCH.parent.parent


@pytest.mark.parametrize("path", sorted(BENCH.glob("bench_*.py")), ids=lambda p: p.stem)
def test_every_bench_module_has_the_run_the_runner_calls(path):
    tree = ast.parse(path.read_text())
    assert any(isinstance(node, ast.FunctionDef) and node.name == "run" for node in tree.body), (
        f"{path.name} is collected by tests/bench/run.py but defines no run()"
    )


def test_two_benches_in_one_process_each_get_their_throw_away_database(tmp_path):
    # A child process on its own SQLite file: this process's (and CI's PostgreSQL) test
    # database is never touched.
    script = (
        "from tests.bench.testdb import on_test_database\n"
        "from django.db import connection\n"
        "names = [on_test_database(lambda: connection.settings_dict['NAME']) for _ in (1, 2)]\n"
        "print(len(names))\n"
    )
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["2"]
