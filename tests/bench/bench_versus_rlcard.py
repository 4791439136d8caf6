"""`make bench`'s row for Gin Römi against RLCard, and Tízlapos's median and worst hand.

RLCard is never installed in the site's environment, so this runs
``tests/bench/versus_rlcard.py`` in the bench's own (``.venv-bench``, or ``BENCH_PYTHON``),
which ``make bench`` makes on first use. Run from an environment where RLCard is importable,
it runs in this process instead. Without either it says how to get RLCard and lists nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCRIPT = HERE / "versus_rlcard.py"

Row = tuple[str, float, str]


def _bench_python() -> Path | None:
    named = os.environ.get("BENCH_PYTHON")
    candidates = [Path(named)] if named else [ROOT / ".venv-bench" / "bin" / "python"]
    return next((p for p in candidates if p.exists()), None)


def run() -> list[Row]:
    from tests.bench import versus_rlcard

    found = versus_rlcard._rlcard()
    if found is not None:
        gin = versus_rlcard.gin_versus(*found)
        tiz = versus_rlcard.tizlapos_times()
        print("\n".join(versus_rlcard.report(gin, tiz)), flush=True)
        return versus_rlcard.rows(gin, tiz)
    python = _bench_python()
    if python is None:
        print(versus_rlcard.HOW_TO.format(python=sys.executable), flush=True)
        return []
    done = subprocess.run(
        [str(python), str(SCRIPT), "--json"], cwd=ROOT, capture_output=True, text=True
    )
    print(done.stderr.rstrip(), flush=True)
    if done.returncode != 0:
        return []
    return [(name, float(us), note) for name, us, note in json.loads(done.stdout)]
