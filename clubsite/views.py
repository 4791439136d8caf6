"""The site's own pages that belong to no app: the help (clubsite/help.py)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from clubsite.help import BY_SLUG, PAGES, Audience, help_language, rendered_help


def help_index(request: HttpRequest) -> HttpResponse:
    return _help(request, "index")


def help_page(request: HttpRequest, slug: str) -> HttpResponse:
    # The index has one address, /help/.
    if slug == "index" or slug not in BY_SLUG:
        raise Http404
    return _help(request, slug)


def _help(request: HttpRequest, slug: str) -> HttpResponse:
    rendered = rendered_help(slug, help_language(get_language()))
    context = {
        "page": BY_SLUG[slug],
        # The project's own Markdown, rendered from files in the repository.
        "lead": mark_safe(rendered.lead),
        "body": mark_safe(rendered.sections),
        "toc": mark_safe(rendered.toc),
        "for_directors": [page for page in PAGES if page.audience == Audience.DIRECTORS],
        "for_everyone": [
            page for page in PAGES if page.audience != Audience.DIRECTORS and page.slug != "index"
        ],
    }
    return render(request, "help/page.html", context)
