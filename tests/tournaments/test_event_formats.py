"""The event formats are described once (tournaments.event_formats): every format has a
spec, every spec's fields, partials and words exist, and no module or template outside the
registry compares a format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import get_template

from tournaments.event_formats import FORMATS, EventFormat, format_ids, format_spec
from tournaments.forms import EventForm

ROOT = Path(__file__).resolve().parents[2]
APPS = ["core", "accounts", "tournaments", "scoring", "formats", "standings", "records",
        "leagues", "printing", "demo", "clubsite"]  # fmt: skip
COMPARES = [
    re.compile(r"\.format\s*(==|!=|\bin\b|\bnot in\b)"),
    re.compile(r"(==|!=|\bin\b)\s*[\(\[{]?\s*EventFormat\."),
    re.compile(r"EventFormat\.\w+\s*(==|!=)"),
    re.compile(r"format__in=\[|format=EventFormat\.\w+\)"),
]
TEMPLATE_COMPARES = re.compile(
    r"format\s*(==|!=)|(==|!=|\bin)\s*\"(night|championship|series|round_robin|swiss)\""
)


def _sources():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or path.name == "event_formats.py":
                continue
            yield path


def test_no_module_compares_a_format():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if any(pattern.search(line) for pattern in COMPARES)
    ]
    assert not found, "ask the format's spec instead:\n" + "\n".join(found)


def test_no_template_compares_a_format():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in (ROOT / "templates").rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if TEMPLATE_COMPARES.search(line)
    ]
    assert not found, "ask event.spec instead:\n" + "\n".join(found)


def test_every_format_has_a_spec_and_an_unknown_one_reads_as_a_night():
    assert set(FORMATS) == set(EventFormat.values)
    assert format_spec("from-a-later-version") is FORMATS[EventFormat.NIGHT]


@pytest.mark.parametrize("spec", FORMATS.values(), ids=lambda spec: spec.id)
def test_each_specs_fields_partials_and_words_exist(spec):
    form_fields = EventForm.base_fields
    assert all(name in form_fields for name in spec.fields), spec.fields
    for partial in (*spec.public_partials, *spec.manage_partials):
        get_template(partial)
    assert "2" in spec.stage_name(2)
    assert str(spec.ranking_heading)
    assert spec.label


def test_capabilities_name_the_formats_that_have_them():
    assert format_ids(corrects_closed_stages=True) == [EventFormat.CHAMPIONSHIP]
    assert format_ids(paired=True) == [EventFormat.ROUND_ROBIN, EventFormat.SWISS]
    assert format_ids(one_stage=True) == [EventFormat.NIGHT]
