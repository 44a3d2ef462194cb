"""Scheduled backups' names and retention (pure): `dynabench-20261128T020000.000Z.tar`, newest kept."""

from __future__ import annotations

import datetime as dt
import re

_NAME = re.compile(r"^dynabench-(\d{8}T\d{6}\.\d{3}Z)\.tar$")


def backup_name(now: dt.datetime) -> str:
    utc = now.astimezone(dt.UTC)
    return f"dynabench-{utc:%Y%m%dT%H%M%S}.{utc.microsecond // 1000:03d}Z.tar"


def to_prune(names: list[str], keep: int) -> list[str]:
    """The scheduled backups beyond the newest `keep` (other files in the folder are never touched)."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    ours = sorted((name for name in names if _NAME.match(name)), reverse=True)  # the timestamp sorts as text
    return ours[keep:]
