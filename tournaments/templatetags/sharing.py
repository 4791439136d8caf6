"""What a page says about itself to a link preview: the base layout's Open Graph tags."""

from __future__ import annotations

from django import template
from django.template.base import Node, NodeList, Parser, Token
from django.template.context import Context
from django.utils.safestring import mark_safe

register = template.Library()


class CaptureNode(Node):
    # Declared so a {% block %} inside is found and overridden by the page extending the
    # layout, as one inside {% if %} is.
    child_nodelists = ("nodelist",)

    def __init__(self, nodelist: NodeList, name: str) -> None:
        self.nodelist = nodelist
        self.name = name

    def render(self, context: Context) -> str:
        # The output is the rendered (so already escaped) template; only its spacing changes.
        output = self.nodelist.render(context)
        context[self.name] = mark_safe(" ".join(output.split()))
        return ""


@register.tag
def capture(parser: Parser, token: Token) -> CaptureNode:
    """`{% capture page_title %}{% block title %}…{% endblock %}{% endcapture %}`: render the
    enclosed part once, into a variable the rest of the layout reuses (the page's title as
    its <title> and as its og:title by default). Whitespace is collapsed."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("capture takes one name: {% capture name %}")
    nodelist = parser.parse(("endcapture",))
    parser.delete_first_token()
    return CaptureNode(nodelist, bits[1])


@register.filter
def absolute(path: str, request: object) -> str:
    """`{{ request.path|absolute:request }}`: the address with scheme and host, for the
    tags a link preview reads (they want absolute addresses)."""
    build = getattr(request, "build_absolute_uri", None)
    return build(path) if build else path
