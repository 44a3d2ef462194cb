"""Markdown of a campaign's consent and instructions as safe HTML: the shared renderer (server/core/markdown.py)."""

from __future__ import annotations

from server.core.markdown import MAX_MARKDOWN, to_safe_html

__all__ = ["MAX_MARKDOWN", "to_safe_html"]
