"""`make lint` refuses merge-conflict markers in any tracked file, and passes on this tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "conflict_markers.py"


def run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True, check=False
    )


def git_repo(tmp_path: Path, files: dict[str, str]) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    return tmp_path


def test_the_project_has_none():
    result = run(ROOT)
    assert result.returncode == 0, result.stdout


def test_a_template_with_markers_fails_naming_file_and_line(tmp_path):
    conflicted = "{% load i18n %}\n<<<<<<< HEAD\n<h2>A</h2>\n=======\n<h2>B</h2>\n>>>>>>> main\n"
    repo = git_repo(tmp_path, {"templates/x/_grid.html": conflicted, "ok.py": "x = 1\n"})
    result = run(repo)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "templates/x/_grid.html:2: merge-conflict marker",
        "templates/x/_grid.html:4: merge-conflict marker",
        "templates/x/_grid.html:6: merge-conflict marker",
    ]


def test_markers_with_windows_line_ends_fail(tmp_path):
    conflicted = "a\r\n<<<<<<< HEAD\r\nb\r\n=======\r\nc\r\n>>>>>>> main\r\n"
    repo = git_repo(tmp_path, {"notes.txt": conflicted})
    result = run(repo)
    assert result.returncode == 1
    assert [line.rsplit(":", 2)[1] for line in result.stdout.splitlines()] == ["2", "4", "6"]


def test_look_alikes_pass(tmp_path):
    # A Markdown rule, a longer row of '=' and a shift operator are not git's markers.
    text = "Title\n=====\n\n========\nx = 1 << 7\n# <<<<<<<< eight\n"
    repo = git_repo(tmp_path, {"README.md": text, "untracked-later.txt": "ok\n"})
    (repo / "loose.html").write_text("<<<<<<< HEAD\n")  # untracked: git would not ship it
    assert run(repo).returncode == 0
