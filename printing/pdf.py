"""Printed sheets: a Django template rendered to HTML and handed to WeasyPrint.

Every sheet kind has a template under ``templates/print/`` extending ``print/base.html``
(the paper, the shipped fonts, the shared print stylesheet). :func:`render_pdf` is the one
way a sheet becomes a PDF: in the language asked for, on the club's paper, with every file
it needs (fonts, stylesheets, QR codes as inline SVG) read from the project itself: a
sheet never reaches the network.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from weasyprint import HTML, Document
from weasyprint.urls import FatalURLFetchingError, URLFetcher

PDF = "application/pdf"
PAPERS = ("A4", "Letter")
# A paper as a director knows it; "Letter" says it is a size, in Finnish and Hungarian.
PAPER_NAMES = {"A4": "A4", "Letter": _("Letter")}


@dataclass(frozen=True)
class PrintFile:
    """What a print service returns: the file's name, its type and its bytes."""

    filename: str
    mime: str
    content: bytes


class PrintError(Exception):
    """A sheet could not be made (a template or WeasyPrint failed): an internal error."""


def paper(requested: str | None = None) -> str:
    """The paper a sheet is printed on: `requested` when it is one we print, else the
    site's setting (PRINT_PAPER)."""
    return requested if requested in PAPERS else settings.PRINT_PAPER


def file_name(*parts: object, size: str | None, language: str) -> str:
    """A printed file's download name: `parts`, then its paper and its language, like
    club-cup-stage-2-seating-a4-fi.pdf: the same sheet printed on two papers or in two
    languages never downloads twice under one name, the second over the first."""
    words = [*parts, paper(size), language]
    return "-".join(slugify(str(word)) or "x" for word in words) + ".pdf"


# The address a sheet's relative links resolve against: never fetched, only recognised.
BASE_URL = "https://lappu.invalid/"


def static_file(name: str) -> Path | None:
    """The file a static URL's `name` stands for, found as the site serves it (WhiteNoise):
    in development from the source folders, otherwise through the staticfiles storage, so
    that a collected site finds both the hashed names `{% static %}` writes under the
    manifest storage (`fonts/DejaVuSans.4cc160d1da14.ttf`) and the plain ones."""
    try:
        found = finders.find(name) if settings.WHITENOISE_USE_FINDERS else None
    except SuspiciousFileOperation:
        return None
    if isinstance(found, str):
        return Path(found)
    candidates = [name]
    stored_name = getattr(staticfiles_storage, "stored_name", None)
    if stored_name is not None:
        # Not in the manifest (ValueError): maybe it is a hashed name already.
        with contextlib.suppress(ValueError):
            candidates.append(stored_name(name))
    for candidate in candidates:
        try:
            path = Path(staticfiles_storage.path(candidate))
        except (SuspiciousFileOperation, NotImplementedError):
            return None
        if path.is_file():
            return path
    return None


class LocalFetcher(URLFetcher):
    """WeasyPrint's fetcher for the project's own static files only (the fonts and the
    print stylesheet); any other address stops the sheet, so none ever waits on a network."""

    def fetch(self, url: str, headers: Any = None) -> Any:
        parts = urlsplit(url)
        static = "/" + settings.STATIC_URL.strip("/") + "/"
        if url.startswith(BASE_URL) and parts.path.startswith(static):
            found = static_file(unquote(parts.path[len(static) :]))
            if found:
                return super().fetch(found.as_uri(), headers)
        raise FatalURLFetchingError(f"a printed sheet reads no outside address: {url}")


def render_html(template: str, context: dict[str, Any], *, language: str, size: str) -> str:
    with translation.override(language):
        return render_to_string(template, {**context, "paper": paper(size), "language": language})


def render_document(
    template: str, context: dict[str, Any], *, language: str, size: str | None = None
) -> Document:
    """`template` with `context` laid out on pages, in `language`, on `size` paper (or the
    setting): what a PDF is written from, and what a test measures the boxes of."""
    try:
        html = render_html(template, context, language=language, size=paper(size))
        return HTML(string=html, base_url=BASE_URL, url_fetcher=LocalFetcher()).render()
    # WeasyPrint raises many kinds (its fatal fetch error is a BaseException, so that it
    # gets past its own handlers): one internal error for all.
    except (Exception, FatalURLFetchingError) as error:
        raise PrintError(f"{template}: {error}") from error


def write_pdf(document: Document, *, what: str) -> bytes:
    """A laid-out `document` as PDF bytes (`what` names it in an error)."""
    try:
        return document.write_pdf()
    except (Exception, FatalURLFetchingError) as error:
        raise PrintError(f"{what}: {error}") from error


def render_pdf(
    template: str, context: dict[str, Any], *, language: str, size: str | None = None
) -> bytes:
    """`template` with `context` as a PDF, in `language`, on `size` paper (or the setting)."""
    document = render_document(template, context, language=language, size=size)
    return write_pdf(document, what=template)
