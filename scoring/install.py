"""A table's page on a phone's home screen: its web app manifest. Each table has its own, so
the icon a player adds opens that table's page, named after it ("Table 3 · Club night")."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static

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
