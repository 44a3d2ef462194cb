"""Join links and completion targets of crowd campaigns, and the keyed hash of external worker ids. Pure, no I/O.

**Join link.** `/#/join/<campaign code>?<the platform's own parameters>`; `parse_entry(platform, params)` returns a
`WorkerEntry` or an `EntryRefusal` (which parameter, why, a message fit for the worker's screen). Ids are checked
strictly, because a join link is typed by anyone:

| platform | parameters | accepted ids |
|---|---|---|
| PROLIFIC | `PROLIFIC_PID`, `STUDY_ID`, `SESSION_ID` (all required) | 24 hexadecimal characters (a MongoDB ObjectId, as Prolific issues them), stored lowercase |
| MTURK | `workerId`, `assignmentId`, `hitId`, `turkSubmitTo` (all required) | 1–64 characters `A-Z0-9` (MTurk's ids are uppercase; its API allows up to 64) |
| MTURK preview | `assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE` (`hitId` optional, `workerId` ignored) | `preview=True`, no external id: show the task, create nothing |
| OPEN | optionally `pid` | 1–128 URL-unreserved characters `A-Za-z0-9._~-`, opaque |

A parameter given twice with different values is refused (which one would count?); with equal values it counts once.
Unknown parameters are ignored (platforms add their own, e.g. Prolific's `utm_*`). `turkSubmitTo` must be
`https://www.mturk.com` or `https://workersandbox.mturk.com` exactly (no port, user, path, query or fragment):
anything else would post the worker's assignment to a host we do not know.

**Completion.** `completion_target` gives where the worker goes with their code: Prolific's
`https://app.prolific.com/submissions/complete?cc=CODE` (GET); MTurk's external-submit form,
`<turkSubmitTo>/mturk/externalSubmit` (POST, fields `assignmentId` and `completionCode`: MTurk wants one field besides
the assignment id, and the code shows up in the batch results as `Answer.completionCode`); OPEN: the campaign's own
https redirect (a `{code}` in it is replaced by the URL-encoded code), or `None` when it has none (the PWA shows the
code).

**Stored ids.** External ids are never stored raw: `external_id_key(secret, platform, id)` is
HMAC-SHA256(secret, "<platform>\\x1f<id>") in hex, with a server secret of at least 32 bytes. The key is per platform,
not per campaign, so an approved-submissions import (whose file holds the raw ids) is matched by hashing its ids the
same way (`server.campaigns.ledger_rules.match_approved`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from server.core.errors import ConfigError
from server.core.i18n import tr


class Platform(StrEnum):
    PROLIFIC = "prolific"
    MTURK = "mturk"
    OPEN = "open"


class RefusalReason(StrEnum):
    MISSING = "missing"
    EMPTY = "empty"
    TOO_LONG = "too_long"
    MALFORMED = "malformed"
    AMBIGUOUS = "ambiguous"  # the same parameter twice with different values
    UNTRUSTED_HOST = "untrusted_host"  # turkSubmitTo outside MTurk's two hosts


PROLIFIC_PID, STUDY_ID, SESSION_ID = "PROLIFIC_PID", "STUDY_ID", "SESSION_ID"
MTURK_WORKER_ID, MTURK_ASSIGNMENT_ID, MTURK_HIT_ID, MTURK_SUBMIT_TO = "workerId", "assignmentId", "hitId", "turkSubmitTo"
MTURK_PREVIEW_ASSIGNMENT = "ASSIGNMENT_ID_NOT_AVAILABLE"
OPEN_ID = "pid"

PROLIFIC_ID_LENGTH = 24
MTURK_ID_MAX = 64
OPEN_ID_MAX = 128
COMPLETION_CODE_MAX = 64
MAX_QUERY_LENGTH = 4096  # a join link's query string, before parsing
MAX_QUERY_FIELDS = 50
MTURK_SUBMIT_HOSTS = frozenset({"www.mturk.com", "workersandbox.mturk.com"})
PROLIFIC_COMPLETE_URL = "https://app.prolific.com/submissions/complete"
MIN_SECRET_BYTES = 32

_PROLIFIC_ID = re.compile(r"[0-9a-fA-F]{24}")
_MTURK_ID = re.compile(r"[A-Z0-9]{1,64}")
_OPEN_ID = re.compile(r"[A-Za-z0-9._~-]{1,128}")
_COMPLETION_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PROLIFIC_SHAPE = tr("24 hexadecimal characters")
_MTURK_SHAPE = tr("uppercase letters and digits")
_OPEN_SHAPE = tr("letters, digits, '.', '_', '~' or '-'")


@dataclass(frozen=True)
class WorkerEntry:
    """A parsed join link. `external_id` is None for OPEN without `pid` and for an MTurk preview."""

    platform: Platform
    external_id: str | None
    preview: bool = False  # MTurk preview: show the task description; no account, no consent, no quiz
    study_id: str | None = None  # Prolific
    session_id: str | None = None  # Prolific (the submission's id)
    assignment_id: str | None = None  # MTurk
    hit_id: str | None = None  # MTurk
    submit_to: str | None = None  # MTurk: "https://www.mturk.com" or "https://workersandbox.mturk.com"


@dataclass(frozen=True)
class EntryRefusal:
    parameter: str
    reason: RefusalReason
    message: str


@dataclass(frozen=True)
class CompletionTarget:
    """GET `url` (a redirect), or POST `fields` to `url` as an HTML form (MTurk's external submit)."""

    method: Literal["GET", "POST"]
    url: str
    fields: tuple[tuple[str, str], ...] = field(default=())


Params = Mapping[str, str] | Mapping[str, Sequence[str]]


def parse_query(query: str) -> dict[str, list[str]] | EntryRefusal:
    """A join link's query string (without "?") as parameter → values, or a refusal when it is oversized."""
    if len(query) > MAX_QUERY_LENGTH:
        return EntryRefusal("query", RefusalReason.TOO_LONG, tr("This join link is too long to be a real one."))
    try:
        return parse_qs(query, keep_blank_values=True, max_num_fields=MAX_QUERY_FIELDS)
    except ValueError:
        return EntryRefusal("query", RefusalReason.TOO_LONG, tr("This join link has too many parameters."))


def parse_entry(platform: Platform, params: Params) -> WorkerEntry | EntryRefusal:
    """The worker's entry from a join link's parameters (values as strings or lists of strings, as parse_qs gives)."""
    if platform is Platform.PROLIFIC:
        return _prolific(params)
    if platform is Platform.MTURK:
        return _mturk(params)
    return _open(params)


def _prolific(params: Params) -> WorkerEntry | EntryRefusal:
    ids = _required_ids(params, (PROLIFIC_PID, STUDY_ID, SESSION_ID), _PROLIFIC_ID, PROLIFIC_ID_LENGTH, _PROLIFIC_SHAPE)
    if isinstance(ids, EntryRefusal):
        return ids
    ids = {name: value.lower() for name, value in ids.items()}
    return WorkerEntry(Platform.PROLIFIC, ids[PROLIFIC_PID], study_id=ids[STUDY_ID], session_id=ids[SESSION_ID])


def _mturk(params: Params) -> WorkerEntry | EntryRefusal:
    assignment = _one(params, MTURK_ASSIGNMENT_ID, required=True)
    if isinstance(assignment, EntryRefusal):
        return assignment
    if assignment == MTURK_PREVIEW_ASSIGNMENT:
        hit = _one(params, MTURK_HIT_ID, required=False)
        if isinstance(hit, EntryRefusal):
            return hit
        if hit is not None:
            hit = _checked(MTURK_HIT_ID, hit, _MTURK_ID, MTURK_ID_MAX, _MTURK_SHAPE)
            if isinstance(hit, EntryRefusal):
                return hit
        return WorkerEntry(Platform.MTURK, None, preview=True, hit_id=hit)
    ids = _required_ids(params, (MTURK_WORKER_ID, MTURK_ASSIGNMENT_ID, MTURK_HIT_ID), _MTURK_ID, MTURK_ID_MAX, _MTURK_SHAPE)
    if isinstance(ids, EntryRefusal):
        return ids
    submit_to = _one(params, MTURK_SUBMIT_TO, required=True)
    if isinstance(submit_to, EntryRefusal):
        return submit_to
    assert submit_to is not None
    origin = mturk_submit_origin(submit_to)
    if origin is None:
        return EntryRefusal(
            MTURK_SUBMIT_TO,
            RefusalReason.UNTRUSTED_HOST,
            tr(
                "This link does not come from Mechanical Turk: turkSubmitTo must be https://www.mturk.com or "
                "https://workersandbox.mturk.com."
            ),
        )
    return WorkerEntry(
        Platform.MTURK,
        ids[MTURK_WORKER_ID],
        assignment_id=ids[MTURK_ASSIGNMENT_ID],
        hit_id=ids[MTURK_HIT_ID],
        submit_to=origin,
    )


def _open(params: Params) -> WorkerEntry | EntryRefusal:
    value = _one(params, OPEN_ID, required=False)
    if isinstance(value, EntryRefusal):
        return value
    if value is None:
        return WorkerEntry(Platform.OPEN, None)
    checked = _checked(OPEN_ID, value, _OPEN_ID, OPEN_ID_MAX, _OPEN_SHAPE)
    return checked if isinstance(checked, EntryRefusal) else WorkerEntry(Platform.OPEN, checked)


def canonical_external_id(platform: Platform, value: str) -> str | None:
    """The worker id as a join link would store it (Prolific lowercased), or None when it is not a valid id for the
    platform. Imports of approved submissions go through this too, so both sides hash the same string."""
    value = value.strip()
    if platform is Platform.PROLIFIC:
        return value.lower() if _PROLIFIC_ID.fullmatch(value) else None
    if platform is Platform.MTURK:
        return value if _MTURK_ID.fullmatch(value) else None
    return value if _OPEN_ID.fullmatch(value) else None


def _one(params: Params, name: str, *, required: bool) -> str | EntryRefusal | None:
    """The parameter's single value (None when absent and optional)."""
    raw = params.get(name)
    values = [raw] if isinstance(raw, str) else list(raw or [])
    if not all(isinstance(v, str) for v in values):
        return EntryRefusal(name, RefusalReason.MALFORMED, tr("The link's {name} is not text.", name=name))
    if not values:
        if required:
            return EntryRefusal(
                name, RefusalReason.MISSING, tr("The link has no {name}: open the study from your platform again.", name=name)
            )
        return None
    if len(set(values)) > 1:
        return EntryRefusal(
            name, RefusalReason.AMBIGUOUS, tr("The link gives {name} more than once, with different values.", name=name)
        )
    value = values[0]
    if value == "":
        return EntryRefusal(
            name, RefusalReason.EMPTY, tr("The link's {name} is empty: open the study from your platform again.", name=name)
        )
    return value


def _required_ids(
    params: Params, names: Sequence[str], pattern: re.Pattern[str], max_length: int, shape: str
) -> dict[str, str] | EntryRefusal:
    """Each of `names` present once and shaped like `pattern`, in order; the first refusal otherwise."""
    ids: dict[str, str] = {}
    for name in names:
        value = _one(params, name, required=True)
        if isinstance(value, EntryRefusal):
            return value
        assert value is not None
        checked = _checked(name, value, pattern, max_length, shape)
        if isinstance(checked, EntryRefusal):
            return checked
        ids[name] = checked
    return ids


def _checked(name: str, value: str, pattern: re.Pattern[str], max_length: int, shape: str) -> str | EntryRefusal:
    if len(value) > max_length:
        return EntryRefusal(
            name, RefusalReason.TOO_LONG, tr("The link's {name} is longer than {limit} characters.", name=name, limit=max_length)
        )
    if not pattern.fullmatch(value):
        return EntryRefusal(
            name, RefusalReason.MALFORMED, tr("The link's {name} is not a valid id ({shape}).", name=name, shape=shape)
        )
    return value


def mturk_submit_origin(value: str) -> str | None:
    """ "https://www.mturk.com" or "https://workersandbox.mturk.com" when `value` is exactly that origin (a trailing
    "/" allowed, host case-insensitive), else None."""
    if len(value) > 100 or any(ch.isspace() or ord(ch) < 0x20 for ch in value):
        return None
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if parts.scheme.lower() != "https" or host not in MTURK_SUBMIT_HOSTS:
        return None
    if port is not None or parts.username is not None or parts.password is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return f"https://{host}"


def check_completion_code(code: str) -> str:
    """The code itself, or ConfigError: 1–64 characters `A-Za-z0-9_-` (Prolific's codes are uppercase letters and
    digits; MTurk and open campaigns take what the owner set)."""
    if not _COMPLETION_CODE.fullmatch(code):
        raise ConfigError("completionCode", tr("A completion code is 1 to 64 letters, digits, '_' or '-'."))
    return code


def check_redirect(url: str) -> str:
    """An open campaign's completion redirect, or ConfigError: an absolute https URL with a host and no user info."""
    if len(url) > 2000 or any(ch.isspace() or ord(ch) < 0x20 for ch in url):
        raise ConfigError("completionRedirect", tr("The completion redirect must be a URL of at most 2000 characters."))
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises ValueError on a port that is not a number
    except ValueError as error:
        raise ConfigError("completionRedirect", tr("The completion redirect is not a valid URL.")) from error
    if parts.scheme.lower() != "https" or not parts.hostname:
        raise ConfigError("completionRedirect", tr("The completion redirect must be an https:// URL."))
    if parts.username is not None or parts.password is not None:
        raise ConfigError("completionRedirect", tr("The completion redirect must not carry a user name or password."))
    return url


def completion_target(entry: WorkerEntry, code: str, redirect: str | None = None) -> CompletionTarget | None:
    """Where the worker goes with `code` (the campaign's completion code, or its screened-out code after a failed
    quiz); None for an open campaign without a redirect, or an MTurk preview (nothing to submit)."""
    check_completion_code(code)
    if entry.platform is Platform.PROLIFIC:
        return CompletionTarget("GET", f"{PROLIFIC_COMPLETE_URL}?{urlencode({'cc': code})}")
    if entry.platform is Platform.MTURK:
        if entry.preview or entry.assignment_id is None or entry.submit_to is None:
            return None
        origin = mturk_submit_origin(entry.submit_to)
        if origin is None:  # a WorkerEntry built by hand, not by parse_entry
            raise ConfigError("turkSubmitTo", "turkSubmitTo must be https://www.mturk.com or https://workersandbox.mturk.com.")
        return CompletionTarget(
            "POST", f"{origin}/mturk/externalSubmit", (("assignmentId", entry.assignment_id), ("completionCode", code))
        )
    if redirect is None:
        return None
    check_redirect(redirect)
    return CompletionTarget("GET", redirect.replace("{code}", quote(code, safe="")))


def external_id_key(secret: bytes, platform: Platform, external_id: str) -> str:
    """HMAC-SHA256 of "<platform>\\x1f<external id>" under the server secret, as 64 hex characters."""
    if not isinstance(secret, bytes) or len(secret) < MIN_SECRET_BYTES:
        raise ConfigError("secret", f"The key for external ids must be at least {MIN_SECRET_BYTES} bytes.")
    if not external_id:
        raise ValueError("An empty external id has no key.")
    message = f"{platform.value}\x1f{external_id}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()
