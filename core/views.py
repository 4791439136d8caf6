"""The site's error pages (400, 403, 404, 500), the CSRF check's 403 and the rate limit's 429;
/favicon.ico, and the mark that keeps a page out of search engines.

Each page is tried first in the site's layout with the request's context (navigation,
language switch); if that fails (the database is down, a context processor raises) the same
page is shown in `_error_base.html`, which needs no context at all. The 500 page never tries
the request's context: whatever broke the request may break it again.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static
from django.utils.cache import add_never_cache_headers
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.csrf import requires_csrf_token

logger = logging.getLogger(__name__)

SITE_LAYOUT = "base.html"
BARE_LAYOUT = "_error_base.html"
# The last resort, when not even a template can be rendered.
_PLAIN = '<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body><h1>{title}</h1></body></html>'


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_page(request, "400.html", status=400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_page(request, "403.html", status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by the CSRF check (CSRF_FAILURE_VIEW): the site's own page, translated,
    instead of Django's stock English one (whose inline style the CSP refuses). The reason
    is for the log, not the visitor."""
    logger.info("CSRF check failed for %s: %s", request.path, reason)
    return error_page(request, "403_csrf.html", status=403)


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    # The exception's text is for developers (it names models and queries): never shown.
    return error_page(request, "404.html", status=404)


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    try:
        body = loader.get_template("500.html").render()
    except Exception:
        logger.exception("The 500 page itself could not be rendered")
        body = _PLAIN.format(title="Server error (500)")
    return HttpResponse(body, status=500)


def too_many_requests(request: HttpRequest, *, retry_after: int, scope: str) -> HttpResponse:
    """429 with Retry-After: the page, or for htmx (the live check) a line where the answer
    would have gone; static/js/site.js lets htmx swap it in."""
    if request.headers.get("HX-Request"):
        response = HttpResponse(
            format_html(
                '<div class="check bad slow-down" role="status">{}</div>',
                _("Too fast for the site: wait a moment, then carry on."),
            ),
            status=429,
        )
    else:
        response = error_page(request, "429.html", status=429, context={"scope": scope})
    response["Retry-After"] = str(retry_after)
    add_never_cache_headers(response)
    return response


def error_page(
    request: HttpRequest, template_name: str, *, status: int, context: dict[str, Any] | None = None
) -> HttpResponse:
    context = context or {}
    # A request refused before the middleware that signs people in (a NUL byte in it) has
    # no user for the layout's navigation: it gets the bare layout, which needs none.
    if hasattr(request, "user"):
        try:
            return render(request, template_name, {**context, "layout": SITE_LAYOUT}, status=status)
        except Exception:
            logger.exception("The %s page failed in the site's layout; showing it bare", status)
    try:
        body = loader.get_template(template_name).render({**context, "layout": BARE_LAYOUT})
    except Exception:
        logger.exception("The %s page could not be rendered at all", status)
        body = _PLAIN.format(title=status)
    return HttpResponse(body, status=status)


def no_index(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Pages that stay out of search engines whatever they answer (a table's private link)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapper


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and bookmarks ask for whatever the page links: the
    static copy (its hashed name changes with its content, so the redirect is kept a day)."""
    response = redirect(static("favicon.ico"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


# Table links are a table's key (anyone holding one can score), the rest is private or a
# form: only the public pages are for search engines.
ROBOTS = (
    "User-agent: *\nDisallow: /t/\nDisallow: /admin/\nDisallow: /accounts/\nDisallow: /tasks/\n"
)


def robots_txt(request: HttpRequest) -> HttpResponse:
    """/robots.txt: crawlers keep to the public pages (clubs, events, standings, records)."""
    response = HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response
