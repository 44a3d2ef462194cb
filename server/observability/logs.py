"""Structured logs: request ids in a contextvar, JSON or text lines, and secret redaction.

`LOG_FORMAT=json` (compose's default) writes one JSON object per line: ts, level, logger, message,
request_id, plus job/job_id in the worker and any `extra={...}` fields. `LOG_FORMAT=text` (the
default, readable in a terminal and in `dynabench up`'s log files) writes
`time LEVEL logger [request id]: message`. Both pass every record through `RedactingFilter`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from contextvars import ContextVar
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)
job_var: ContextVar[str | None] = ContextVar("job", default=None)  # the arq function name, in the worker
job_id_var: ContextVar[str | None] = ContextVar("job_id", default=None)

_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def valid_request_id(value: str | None) -> bool:
    """A client's X-Request-ID is kept only if it is a short, plain token (no spaces, quotes or controls)."""
    return value is not None and _REQUEST_ID.fullmatch(value) is not None


def new_request_id() -> str:
    return os.urandom(12).hex()


# ---------------------------------------------------------------------------------------------
# Redaction: a safety net. Code should not log secrets in the first place.
# ---------------------------------------------------------------------------------------------
REDACTED = "[REDACTED]"
_SECRET_KEY = re.compile(r"(?i)(pass(word|wd)?|secret|token|authorization|api[_-]?key|cookie|credential)")
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Authorization headers in any rendering: "Authorization: Bearer x", "'authorization': 'x'".
    (re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?)(?:(?:bearer|basic|token)\s+)?[^\s'\",;}]+"), rf"\1{REDACTED}"),
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}"), rf"\1 {REDACTED}"),
    # Session JWTs (header.payload.signature, base64url) and the platform's API tokens (dbk_<prefix>_<secret>).
    (re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"), REDACTED),
    (re.compile(r"\b(dbk_[0-9a-f]{12}_)[A-Za-z0-9_-]+"), rf"\1{REDACTED}"),
    # Credentials inside URLs: postgresql://user:secret@host, redis://:secret@host.
    (re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^:/\s@]*:)[^@\s/]+@"), rf"\1{REDACTED}@"),
    # key=value, key: value, "key": "value" for secret-looking keys.
    (
        re.compile(r"(?i)(['\"]?[A-Za-z_]*(?:password|passwd|secret|token|api_?key)['\"]?\s*[:=]\s*['\"]?)[^\s'\",;&}]+"),
        rf"\1{REDACTED}",
    ),
)


# Every pattern above needs one of these substrings: one search decides whether to run them at all.
_MAYBE_SECRET = re.compile(r"(?i)authorization|bearer|basic|eyJ|dbk_|://|passw|secret|token|api_?key")


def redact(text: str) -> str:
    if _MAYBE_SECRET.search(text) is None:
        return text
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


# color_message: uvicorn's ANSI-coloured copy of the message.
_STANDARD_ATTRS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}
_CONTEXT_ATTRS = ("request_id", "job", "job_id")


def _extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD_ATTRS and k not in _CONTEXT_ATTRS}


class ContextFilter(logging.Filter):
    """Stamps each record with the current request id (and arq job) from the contextvars."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id_var.get()
        if getattr(record, "job", None) is None:
            record.job = job_var.get()
        if getattr(record, "job_id", None) is None:
            record.job_id = job_id_var.get()
        return True


class RedactingFilter(logging.Filter):
    """Renders the message once, redacts it and any secret-named `extra` field, and the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 — a bad format string must not lose the record
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = redact(message), None
        for key, value in _extra_fields(record).items():
            if _SECRET_KEY.search(key):
                setattr(record, key, REDACTED)
            elif isinstance(value, str):
                setattr(record, key, redact(value))
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        for key in ("job", "job_id"):
            if getattr(record, key, None) is not None:
                entry[key] = getattr(record, key)
        entry.update(_extra_fields(record))
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(context)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        parts = [f"{key}={getattr(record, key)}" for key in _CONTEXT_ATTRS if getattr(record, key, None)]
        record.context = f" [{' '.join(parts)}]" if parts else ""
        extra = {k: v for k, v in _extra_fields(record).items() if k != "context"}
        line = super().format(record)
        return line + "".join(f" {k}={v}" for k, v in extra.items()) if extra else line


def log_format() -> str:
    value = os.environ.get("LOG_FORMAT", "text").strip().lower()
    return value if value in ("json", "text") else "text"


def logging_config(fmt: str | None = None, level: str = "INFO") -> dict[str, Any]:
    """A dictConfig for the root logger; uvicorn's loggers propagate to it (uvicorn.run(log_config=...))."""
    formatter = "json" if (fmt or log_format()) == "json" else "text"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "context": {"()": ContextFilter},
            "redact": {"()": RedactingFilter},
        },
        "formatters": {
            "json": {"()": JsonFormatter},
            "text": {"()": TextFormatter},
        },
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["context", "redact"],
                "formatter": formatter,
            },
        },
        "root": {"level": level, "handlers": ["default"]},
        "loggers": {
            name: {"level": level, "handlers": [], "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "arq", "arq.worker")
        },
    }


def configure_logging(fmt: str | None = None, verbose: bool = False) -> None:
    import logging.config

    logging.config.dictConfig(logging_config(fmt, "DEBUG" if verbose else "INFO"))
    logging.captureWarnings(True)
