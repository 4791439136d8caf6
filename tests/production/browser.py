"""A visitor and a crawler for the production lane: over HTTPS through the lane's proxy, or
over plain HTTP to gunicorn as a TLS proxy speaks it.

Straight to gunicorn, every request carries `X-Forwarded-Proto: https`, as the proxy in front
sends it, so the site behaves as it does for a real visitor on HTTPS: redirects to HTTPS stay off,
cookies are Secure, CSRF checks the https origin. The visitor keeps its cookies itself
(a stock cookie jar would not send Secure cookies over plain HTTP) and remembers every
cookie's attributes, so the lane can check them.
"""

from __future__ import annotations

import json
import re
import ssl
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email.message import Message
from html.parser import HTMLParser
from http.cookies import Morsel, SimpleCookie
from urllib.parse import urljoin, urlsplit


@dataclass
class Answer:
    path: str
    status: int
    headers: Message
    body: bytes
    visitor: str

    @property
    def content_type(self) -> str:
        return (self.headers.get("Content-Type") or "").split(";")[0].strip()

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Visitor:
    """One browser: its own cookies, one request at a time, redirects not followed."""

    # The certificate authority of the lane's proxy (`trust`): every visitor's HTTPS.
    context: ssl.SSLContext | None = None

    def __init__(self, base: str, name: str, *, proxied: bool = True) -> None:
        self.base = base
        self.name = name
        # Over plain HTTP to gunicorn, say https as a TLS proxy would; through the lane's
        # proxy, that proxy says it (and would overwrite anything a visitor said).
        self.proxied = proxied and base.startswith("http:")
        self.origin = "https://" + urlsplit(base).netloc
        self.cookies: dict[str, str] = {}
        # Every cookie the site set, by name, as last set (its attributes are checked).
        self.set_cookies: dict[str, Morsel] = {}
        self._opener = urllib.request.build_opener(
            _NoRedirect(), urllib.request.HTTPSHandler(context=Visitor.context)
        )

    @classmethod
    def trust(cls, context: ssl.SSLContext | None) -> None:
        cls.context = context

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._open(path, None, headers or {})

    def post(self, path: str, data: dict[str, str], *, form_page: str | None = None) -> Answer:
        """Post `data` with the CSRF token of `form_page` (default: `path` itself)."""
        page = self.get(form_page or path).text
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        body = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token[1] if token else "", **data}
        ).encode()
        headers = {"Origin": self.origin, "Referer": self.origin + (form_page or path)}
        return self._open(path, body, headers)

    def sign_in(self, username: str, password: str) -> None:
        answer = self.post("/accounts/login/", {"username": username, "password": password})
        assert answer.status == 302, f"{username} could not sign in: {answer.status}"

    def _open(self, path: str, body: bytes | None, headers: dict[str, str]) -> Answer:
        headers = {"Accept-Encoding": "identity", **headers}
        if self.proxied:
            headers["X-Forwarded-Proto"] = "https"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self._opener.open(request, timeout=120) as response:
                status, answer_headers, content = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, answer_headers, content = error.code, error.headers, error.read()
        for line in answer_headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            jar.load(line)
            for name, morsel in jar.items():
                self.set_cookies[name] = morsel
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return Answer(path, status, answer_headers, content, self.name)


class _Links(HTMLParser):
    ATTRIBUTES = {"href", "src", "hx-get", "data-src", "poster"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if name in self.ATTRIBUTES and value:
                self.links.append(value)
        # A search or filter form is a link with the form's defaults.
        if tag == "form" and (values.get("method") or "get").lower() == "get":
            self.links.append(values.get("action") or "")


_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")


def links_in(answer: Answer) -> list[str]:
    if answer.content_type == "text/html":
        parser = _Links()
        parser.feed(answer.text)
        return parser.links
    if answer.content_type == "text/css":
        return _CSS_URL.findall(answer.text)
    if answer.content_type == "application/json":
        strings = _strings(json.loads(answer.body))
        return [value for value in strings if value.startswith(("https://", "http://", "/"))]
    return []


def _strings(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@dataclass
class Crawl:
    """Breadth-first over every address reachable from the start pages, for one kind of
    visitor (several visitors may share one crawl: table phones, each with its own cookies).

    A page reachable under many queries (sorting, paging, filters) is loaded under at most
    `per_path` of them: the 7th sort order of one table says nothing the first six did not.
    `shape`, when given, names what an address is an instance of (the admin's change page of
    deal 1, 2, 3...), and at most `per_shape` addresses of each shape are loaded.
    """

    base: str
    per_path: int = 6
    limit: int = 3000
    skip: Callable[[str], bool] = lambda path: False
    shape: Callable[[str], str] | None = None
    per_shape: int = 3
    shapes: Counter[str] = field(default_factory=Counter)
    answers: list[Answer] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    queries: Counter[str] = field(default_factory=Counter)

    def local(self, current: str, link: str) -> str | None:
        link = link.strip()
        if not link or link.startswith(("#", "mailto:", "tel:", "javascript:", "data:")):
            return None
        absolute = urlsplit(urljoin(self.base + current, link))
        if absolute.netloc != urlsplit(self.base).netloc:
            return None  # another site (the address's scheme may be https: the proxy's)
        path = absolute.path + (f"?{absolute.query}" if absolute.query else "")
        return None if self.skip(path) else path

    def run(self, visitor: Visitor, starts: Iterable[str]) -> list[Answer]:
        queue = deque(start for start in starts if self._admit(start))
        reached: list[Answer] = []
        while queue:
            assert len(self.answers) < self.limit, (
                f"the crawl passed {self.limit} loads: a link grows without end?"
            )
            path = queue.popleft()
            answer = visitor.get(path)
            self.answers.append(answer)
            reached.append(answer)
            found = links_in(answer) if answer.status == 200 else []
            if answer.status in (301, 302, 303, 307, 308) and answer.headers.get("Location"):
                found.append(answer.headers["Location"])
            for link in found:
                target = self.local(path, link)
                if target and self._admit(target):
                    queue.append(target)
        return reached

    def _admit(self, path: str) -> bool:
        if path in self.seen:
            return False
        if self.shape is not None:
            kind = self.shape(path)
            if self.shapes[kind] >= self.per_shape:
                return False
            self.shapes[kind] += 1
        bare = path.split("?")[0]
        if "?" in path:
            if self.queries[bare] >= self.per_path:
                return False
            self.queries[bare] += 1
        self.seen.add(path)
        return True
