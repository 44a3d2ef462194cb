"""JSON values as the database hands them back: jsonb read through Piccolo or asyncpg arrives as text."""

from __future__ import annotations

import json
from typing import Any


def from_json(value: Any) -> Any:
    """A decoded document: text is parsed, anything already decoded (or None) is returned as it is."""
    return json.loads(value) if isinstance(value, str) else value


def to_json(value: Any) -> str:
    """Text for a jsonb parameter (dates and other scalars as their string form)."""
    return json.dumps(value, default=str)
