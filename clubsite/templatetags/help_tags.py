"""`{% help_link "club-night" "draw" %}`: the "?" beside a director's button, a link to that
section of the help, named for screen readers ("Help: Drawing the tables")."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from clubsite.help import BY_SLUG, SECTIONS

register = template.Library()


@register.inclusion_tag("help/_link.html")
def help_link(slug: str, section: str = "") -> dict[str, Any]:
    title = SECTIONS.get((slug, section)) or BY_SLUG[slug].title
    url = reverse("help_page", args=[slug])
    return {"url": f"{url}#{section}" if section else url, "title": title}
