"""Refuse merge-conflict markers in any tracked file (`make lint`).

A merge once left `<<<<<<< HEAD … ======= … >>>>>>> main` in a public template and every
visitor read it; nothing in lint or the tests looked. Git's own markers are whole lines
starting with seven of `<`, `=` or `>`, so a line-anchored search finds them without
tripping over Markdown rules or reStructuredText underlines written differently.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

# A file with Windows line ends gets its markers with them ("=======\r\n").
MARKER = re.compile(rb"^(<{7} |={7}\r?$|>{7} |\|{7} )", re.MULTILINE)


def tracked_files(root: Path) -> list[Path]:
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True
    ).stdout
    return [root / name for name in listing.decode().split("\0") if name]


def markers_in(path: Path) -> list[int]:
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):  # deleted in the work tree, or a submodule
        return []
    if b"\0" in data[:8000]:  # binary (compiled messages, images): git shows no markers there
        return []
    return [data.count(b"\n", 0, m.start()) + 1 for m in MARKER.finditer(data)]


def main(root: Path) -> int:
    found = [
        f"{path.relative_to(root)}:{line}: merge-conflict marker"
        for path in tracked_files(root)
        for line in markers_in(path)
    ]
    for message in found:
        print(message)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()))
