"""README is what a newcomer reads on one screen or two: what Lappu is, the two commands,
where the guide and the docs are. Its links must lead somewhere (MkDocs checks the links
inside docs/, `make lint`; nothing else checks README's)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_every_link_in_the_readme_leads_to_a_file_of_the_project():
    links = [link for link in re.findall(r"\]\(([^)#]+)", README) if "://" not in link]
    assert len(links) > 10
    missing = [link for link in links if not (ROOT / link).exists()]
    assert missing == []


def test_the_readme_names_the_two_commands_the_guide_and_every_docs_page():
    assert "make run" in README and "make test" in README and "make docs" in README
    assert "/help/" in README
    pages = {path.name for path in (ROOT / "docs").glob("*.md")}
    linked = set(re.findall(r"\]\(docs/([^)#]+\.md)", README))
    assert pages - linked == {"index.md"}  # README links docs/ itself


def test_the_readme_stays_short():
    assert len(README.splitlines()) <= 100
