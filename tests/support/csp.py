"""What the site's strict CSP refuses, found in a page: inline scripts, styles and event
handlers (tests of the CSP and of pages that must keep to it)."""

from __future__ import annotations

from html.parser import HTMLParser

DATA_SCRIPT_TYPES = {"application/json", "application/ld+json"}


class InlineCode(HTMLParser):
    """Everything in a page that a strict policy (no 'unsafe-inline') would refuse."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        where = f"<{tag} line {self.getpos()[0]}>"
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{where}: {name}= handler")
            if name == "style":
                self.found.append(f"{where}: style= attribute")
            if name in {"href", "src", "action", "formaction"} and (
                value or ""
            ).strip().lower().startswith("javascript:"):
                self.found.append(f"{where}: javascript: URL")
        if tag == "style":
            self.found.append(f"{where}: inline <style>")
        if tag == "script":
            kind = (values.get("type") or "").lower()
            self._in_script = not values.get("src") and kind not in DATA_SCRIPT_TYPES
            if self._in_script:
                self.found.append(f"{where}: inline <script>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found
