"""Where a page may send a person back to: a `next` value is a path on this site or nothing."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 2000


def validate_local_path(value: object) -> None:
    """A path on this site: one leading "/", no host or scheme, nothing a browser reads as
    another site ("//evil", "/\\evil"), no spaces or control characters, not absurdly long.

    A bare word ("clubs") is refused too: given to redirect() it would be taken for a view
    name and fail to reverse.
    """
    text = value if isinstance(value, str) else ""
    if not (
        text.startswith("/")
        and not text.startswith("//")
        and "\\" not in text
        and len(text) <= MAX_LENGTH
        and text.isprintable()
        and not any(char.isspace() for char in text)
        and url_has_allowed_host_and_scheme(text, allowed_hosts=None)
    ):
        raise ValidationError(_("Not a page of this site."), code="not_local")


def local_path(value: object, *, fallback: str) -> str:
    """`value` when it is a path on this site, else `fallback`."""
    try:
        validate_local_path(value)
    except ValidationError:
        return fallback
    return str(value)
