"""The event formats are described once (tournaments.event_formats): every format has a
spec, every spec's fields, partials and words exist, and no module or template outside the
registry compares a format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django import forms
from django.http import QueryDict
from django.template.loader import get_template

from rules import get_variant
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
    assert format_ids(one_stage=True) == [EventFormat.NIGHT, EventFormat.IMPORTED]
    assert format_ids(imported=True) == [EventFormat.IMPORTED]


def _changed(field):
    """A valid value for `field` other than its initial one, as posted and as cleaned."""
    initial = field.initial
    if isinstance(field, forms.BooleanField):
        return (None, False) if initial else ("on", True)
    if isinstance(field, forms.ChoiceField):
        posted = next(str(value) for value, _label in field.choices if str(value) != str(initial))
        return posted, field.clean(posted)
    value = initial + 1 if field.max_value is None or initial < field.max_value else initial - 1
    return str(value), value


def _shown(field):
    """A field as the page posts it untouched (an unticked box is not posted)."""
    if isinstance(field, forms.BooleanField):
        return "on" if field.initial else None
    return str(field.initial)


def _browser_post(form, chosen):
    """What the page sends: every offered format's fields as shown, the chosen format's
    changed; and the options the chosen format should store."""
    post = QueryDict(mutable=True)
    post.update({"name": "Cup", "date": "2026-12-05", "variant_id": form.game, "format": chosen})
    post["preferred_table_size"] = form.spec.table_sizes(get_variant(form.game)).preferred
    expected = {}
    for spec in form.formats:
        for name, stored in spec.fields.items():
            field = form.fields[name]
            posted = _shown(field)
            if spec.id == chosen:
                posted, expected[stored] = _changed(field)
            if posted is not None:
                post.appendlist(form[name].html_name, posted)
    return post, expected


@pytest.mark.parametrize(
    ("game", "chosen"),
    [(game, spec.id) for game in ("rutupeli", "gin_romi") for spec in EventForm(game=game).formats],
)
def test_every_format_stores_its_own_options_from_the_whole_page(game, chosen):
    # The page shows every offered format's fields at once; only the chosen one's may count,
    # whatever the others say (a round robin's bye was once overwritten by the Swiss's).
    post, expected = _browser_post(EventForm(game=game), chosen)
    form = EventForm(post)
    assert form.is_valid(), form.errors
    assert form.event_fields()["format_options"] == expected


def test_each_formats_fields_have_their_own_names_and_ids():
    names = [name for spec in FORMATS.values() for name in spec.fields]
    assert len(names) == len(set(names)), names
