"""A table's page on a phone's home screen and with no network: its web app manifest and its
service worker. Each table has its own, so the icon a player adds opens that table's page,
named after it ("Table 3 · Club night"), and the worker's scope is that table's link: it
keeps that page (and the site's files) and nothing of another table's."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.safestring import mark_safe

from core.views import no_index
from scoring.public_cache import language
from scoring.selectors import open_table

# The site header's colour: the phone's status bar matches it (templates/base.html too).
THEME_COLOR = "#0b3a57"


@no_index
def table_manifest(request: HttpRequest, key: str) -> HttpResponse:
    table = open_table(key=key)
    if table is None:
        raise Http404
    page = table.get_entry_url()
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    manifest = {
        "id": page, "start_url": page, "scope": page, "lang": language(),
        "name": f"{table.label} · {table.stage.event.name}", "short_name": table.label,
        "display": "standalone", "theme_color": THEME_COLOR, "background_color": "#ffffff",
        "icons": [*icons, {**icons[-1], "purpose": "maskable"}],
    }  # fmt: skip
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "private, max-age=3600"
    return response


# What a table's page needs to open with no network (static/ files; hashed names in
# production, so a new release makes a new worker and cache).
OFFLINE_ASSETS = (
    "css/site.css",
    "vendor/htmx.min.js",
    "js/site.js",
    "js/entry.js",
    "js/offline.js",
    "js/offline-queue.js",
    "icons/icon-192.png",
    "favicon.svg",
)
# How long the worker waits for the network before it shows the kept page, or keeps a save
# in the queue (a weak network that neither answers nor fails).
PAGE_SECONDS = 8
POST_SECONDS = 20


@no_index
def table_worker(request: HttpRequest, key: str) -> HttpResponse:
    table = open_table(key=key)
    if table is None:
        raise Http404
    assets = [static(name) for name in OFFLINE_ASSETS]
    version = hashlib.sha256("\n".join(assets).encode()).hexdigest()[:12]
    prefix = f"lappu-{key}-"
    config = {
        "key": key, "page": table.get_entry_url(), "queue": static("js/offline-queue.js"),
        "assets": assets, "prefix": prefix, "cache": prefix + version,
        # Development serves files under one name whatever their content: ask the network.
        "assets_first": not settings.DEBUG, "page_seconds": PAGE_SECONDS,
        "post_seconds": POST_SECONDS,
    }  # fmt: skip
    # The key is url-safe base64 and the paths the site's own: json.dumps is the whole quoting.
    script = render_to_string("scoring/table_worker.js", {"config": mark_safe(json.dumps(config))})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
