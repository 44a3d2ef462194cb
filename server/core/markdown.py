"""Markdown written by owners (task instructions, a campaign's consent and instructions) as safe HTML: markdown-it
(CommonMark, raw HTML off) then nh3 (the Ammonia sanitizer: an allow-list of tags and attributes, links forced to
rel="noopener noreferrer nofollow"). Pure."""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt

MAX_MARKDOWN = 50_000

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}


def to_safe_html(markdown: str) -> str:
    """The markdown rendered and sanitized: no script, style, image, iframe, event attribute or javascript: URL."""
    html = _MD.render(markdown)
    return nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"https", "http", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
