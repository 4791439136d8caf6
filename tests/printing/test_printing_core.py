"""The printing core: a template becomes a PDF with the project's own fonts, on the paper
asked for, and nothing is fetched from outside."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from pypdf import PdfReader
from weasyprint.urls import FatalURLFetchingError

from printing.pdf import (
    BASE_URL,
    LocalFetcher,
    PrintError,
    paper,
    render_html,
    render_pdf,
)


def _embedded_fonts(pdf: bytes) -> set[str]:
    """The names of the fonts embedded in `pdf` (a font only named, not embedded, would be
    the printer's guess)."""
    names = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            for descendant in font.get("/DescendantFonts", [font]):
                descriptor = descendant.get_object()["/FontDescriptor"].get_object()
                if "/FontFile2" in descriptor:
                    names.add(str(font["/BaseFont"]))
    return names


def test_a_sheet_uses_the_shipped_fonts_and_the_paper_asked_for(settings):
    pdf = render_pdf("print/_sample.html", {"text": "Kőrösi ♠ ♥ ♦ ♣ Äänekoski"}, language="hu")
    reader = PdfReader(io.BytesIO(pdf))
    assert "Kőrösi ♠ ♥ ♦ ♣ Äänekoski" in reader.pages[0].extract_text()
    assert any(name.endswith("+Lappu-Sans") for name in _embedded_fonts(pdf))
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (595, 842)  # A4 in points
    letter = PdfReader(
        io.BytesIO(render_pdf("print/_sample.html", {"text": "x"}, language="en", size="Letter"))
    )
    assert [round(float(v)) for v in letter.pages[0].mediabox[2:]] == [612, 792]


def test_the_paper_setting_is_the_default():
    assert paper(None) == "A4" and paper("Letter") == "Letter" and paper("A3") == "A4"


def test_only_the_projects_own_static_files_are_fetched():
    fetcher = LocalFetcher()
    with pytest.raises(FatalURLFetchingError, match="no outside address"):
        fetcher.fetch("https://example.com/font.ttf")
    with pytest.raises(FatalURLFetchingError):
        fetcher.fetch(BASE_URL + "static/fonts/no-such-font.ttf")
    font = fetcher.fetch(BASE_URL + "static/fonts/DejaVuSans.ttf")
    assert font.read(4) == b"\x00\x01\x00\x00"  # a TrueType file


def test_a_broken_template_is_an_internal_print_error():
    with pytest.raises(PrintError):
        render_pdf("print/_sample.html", {"text": "x", "broken": True}, language="en")


@pytest.fixture
def collected_static(settings, tmp_path):
    """The static files as production has them: collected under hashed names by the
    manifest storage, and served from there only (no source folders)."""
    settings.STATIC_ROOT = tmp_path / "static"
    settings.WHITENOISE_USE_FINDERS = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    return settings.STATIC_ROOT


def test_a_collected_site_prints_with_its_hashed_static_files(collected_static):
    html = render_html("print/_sample.html", {"text": "x"}, language="fi", size="A4")
    hashed = re.search(r"/static/(fonts/DejaVuSans\.[0-9a-f]{12}\.ttf)", html)
    assert hashed, "the sheet should name the font by its hashed name"
    fetcher = LocalFetcher()
    for name in (hashed[1], "fonts/DejaVuSans.ttf"):  # the hashed and the plain name
        assert fetcher.fetch(BASE_URL + "static/" + name).read(4) == b"\x00\x01\x00\x00"
    with pytest.raises(FatalURLFetchingError):
        fetcher.fetch(BASE_URL + "static/../../clubsite/settings.py")
    pdf = render_pdf("print/_sample.html", {"text": "Kőrösi ♠"}, language="hu")
    assert any(name.endswith("+Lappu-Sans") for name in _embedded_fonts(pdf))
