"""`make bench`: print every speed figure the project tracks. Figures, not pass/fail.

Each bench module in this folder (`bench_*.py`, a name no helper or settings module may
take) exposes `run() -> list[(name, median_us, target)]`; this collects them into one
table so a change's effect is easy to compare.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")


def main() -> int:
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if not modules:
        print("no benchmarks yet")
        return 0
    rows: list[tuple[str, float, str]] = []
    for name in modules:
        started = time.perf_counter()
        module = importlib.import_module(f"tests.bench.{name}")
        rows.extend(module.run())
        print(f"  ran {name} in {time.perf_counter() - started:.1f} s", flush=True)
    width = max(len(row[0]) for row in rows)
    print(f"\n{'benchmark':<{width}}  {'median':>12}  target")
    for label, median_us, target in rows:
        shown = f"{median_us / 1000:.2f} ms" if median_us >= 1000 else f"{median_us:.1f} µs"
        print(f"{label:<{width}}  {shown:>12}  {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
