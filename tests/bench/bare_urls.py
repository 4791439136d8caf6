"""The site's addresses plus two bare views, the yardsticks of `bench_public`.

- /bench/bare/rows/: 1000 rows read in one query and rendered by a Django template;
- /bench/bare/table/: a 100-row table rendered with no database at all.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import URLPattern, URLResolver, path

from clubsite.urls import urlpatterns as site_urlpatterns
from tournaments.models import Player

_ROWS = engines["django"].from_string(
    "<!doctype html><title>rows</title><table>"
    "{% for row in rows %}<tr><td>{{ row.pk }}</td><td>{{ row.name }}</td>"
    "<td>{{ row.club_id }}</td></tr>{% endfor %}</table>"
)
_TABLE_ROWS = [(index, f"Player {index:03d}", index * 7 % 113) for index in range(1, 101)]


def bare_rows(request: HttpRequest) -> HttpResponse:
    rows = Player.objects.order_by("pk")[:1000]
    return HttpResponse(_ROWS.render({"rows": rows}, request))


def bare_table(request: HttpRequest) -> HttpResponse:
    rows = [{"pk": pk, "name": name, "club_id": total} for pk, name, total in _TABLE_ROWS]
    return HttpResponse(_ROWS.render({"rows": rows}, request))


urlpatterns: list[URLPattern | URLResolver] = [
    path("bench/bare/rows/", bare_rows),
    path("bench/bare/table/", bare_table),
    *site_urlpatterns,
]
