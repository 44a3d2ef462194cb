"""Payouts: the platforms' approved-submission imports, matching them to campaign accounts, and the bonus files.
Pure, no I/O (the texts come in and go out as strings).

A worker id typed into a join link is not money: only workers whose submission the platform approved are paid.
The owner uploads the platform's own list:
- **Prolific**: the study's submissions export (`prolific_export_<study>.csv`), header
  `Submission id,Participant id,Status,…`; rows with Status `APPROVED` count. Older exports spell the columns
  `participant_id`, `status`, `session_id`: column names are compared case-insensitively, spaces and underscores alike.
- **MTurk**: the batch results or assignments CSV (`…,AssignmentId,WorkerId,AssignmentStatus,…`); rows with
  AssignmentStatus `Approved` count.
Ids are checked as join links are (`server.campaigns.entry.canonical_external_id`); a bad row is a listed problem, not a
failure of the whole file. `match_approved` hashes each approved id with the server secret and looks it up among the
campaign's accounts (whose external ids are stored only keyed): matched workers, accounts with no approved
submission (shown to the owner) and approved submissions with no account here.

**Files** (`build_export`), one row per matched worker, the sum of their pending lines (bonuses; base pay only with
`include_base`, because the platform pays the study or HIT reward itself when the submission is approved):
- Prolific bulk bonus (Submissions → Bulk bonus payment): one `participant_id,amount` line per worker, no header,
  the amount in the study's currency with 2 decimals (`5e9088a8a4b6ed018b45ba7b,1.50`);
- MTurk: `WorkerId,AssignmentId,BonusAmount,Reason,UniqueRequestToken`, the arguments of one SendBonus call per row
  (MTurk's requester site has no bulk-bonus upload; e.g. `aws mturk send-bonus` per row). BonusAmount is US dollars
  without a symbol (`1.50`). UniqueRequestToken is derived from the worker and the keys of the lines in the row, so
  sending the same file twice pays nothing twice (MTurk refuses a repeated token).
The export lists the keys of the lines it contains: the service marks exactly those exported (frozen) in the
transaction that stores the file.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from server.campaigns.entry import Platform, canonical_external_id, external_id_key
from server.campaigns.ledger_rules import LedgerLine, LineKind, LineStatus
from server.core.errors import ConfigError
from server.core.i18n import tr

MAX_IMPORT_CHARS = 20_000_000
MAX_IMPORT_ROWS = 200_000
MAX_REASON = 500
PROLIFIC_APPROVED = "APPROVED"
MTURK_APPROVED = "Approved"
MTURK_HEADER = ("WorkerId", "AssignmentId", "BonusAmount", "Reason", "UniqueRequestToken")
_PROLIFIC_ID_COLUMNS = ("participant_id",)
_PROLIFIC_STATUS_COLUMNS = ("status",)
_PROLIFIC_SUBMISSION_COLUMNS = ("submission_id", "session_id")


@dataclass(frozen=True)
class ApprovedSubmission:
    external_id: str  # canonical (Prolific lowercase)
    assignment_id: str | None = None  # MTurk: the assignment a bonus is paid on
    submission_id: str | None = None  # Prolific


@dataclass(frozen=True)
class ImportProblem:
    row: int  # 1-based line number in the file (the header is line 1)
    message: str


@dataclass(frozen=True)
class ApprovedImport:
    platform: Platform
    approved: tuple[ApprovedSubmission, ...]  # one per worker, in file order
    not_approved: int  # rows with another status (awaiting review, rejected, returned, …)
    problems: tuple[ImportProblem, ...]


@dataclass(frozen=True)
class ImportRefusal:
    message: str


@dataclass(frozen=True)
class Matching:
    matched: Mapping[int, ApprovedSubmission]  # worker → their approved submission
    unmatched_workers: tuple[int, ...]  # campaign accounts with no approved submission
    unknown: tuple[ApprovedSubmission, ...]  # approved on the platform, no account in this campaign


@dataclass(frozen=True)
class PayoutRow:
    worker: int
    external_id: str
    assignment_id: str | None
    amount_cents: int
    keys: tuple[str, ...]


@dataclass(frozen=True)
class PayoutExport:
    platform: Platform
    text: str  # the CSV file
    rows: tuple[PayoutRow, ...]
    keys: tuple[str, ...]  # every line key in the file: mark these exported
    total_cents: int
    unpaid_workers: tuple[int, ...]  # workers with pending lines but no approved submission


def format_amount(cents: int) -> str:
    """12345 → "123.45" (no currency symbol, always 2 decimals)."""
    if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
        raise ValueError("an amount is a non-negative whole number of cents")
    units, rest = divmod(cents, 100)
    return f"{units}.{rest:02d}"


def parse_approved(platform: Platform, text: str) -> ApprovedImport | ImportRefusal:
    """The approved submissions in a platform's export file."""
    if platform is Platform.PROLIFIC:
        return _parse(
            platform, text, _PROLIFIC_ID_COLUMNS, _PROLIFIC_STATUS_COLUMNS, PROLIFIC_APPROVED, _PROLIFIC_SUBMISSION_COLUMNS, None
        )
    if platform is Platform.MTURK:
        return _parse(platform, text, ("workerid",), ("assignmentstatus",), MTURK_APPROVED, (), "assignmentid")
    return ImportRefusal(tr("An open campaign has no platform to import approved submissions from."))


def _parse(
    platform: Platform,
    text: str,
    id_columns: tuple[str, ...],
    status_columns: tuple[str, ...],
    approved_status: str,
    submission_columns: tuple[str, ...],
    assignment_column: str | None,
) -> ApprovedImport | ImportRefusal:
    name = tr("Prolific's submissions export") if platform is Platform.PROLIFIC else tr("MTurk's assignment results")
    if len(text) > MAX_IMPORT_CHARS:
        return ImportRefusal(tr("The file is larger than {size} MB.", size=MAX_IMPORT_CHARS // 1_000_000))
    if "\x00" in text:
        return ImportRefusal(tr("This is not a CSV file: expected {name}.", name=name))
    rows = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    try:
        header = next(rows, None)
        if header is None:
            return ImportRefusal(tr("The file is empty: expected {name}.", name=name))
        columns = {_column(h): i for i, h in reversed(list(enumerate(header)))}
        id_at = _first(columns, id_columns)
        status_at = _first(columns, status_columns)
        if id_at is None or status_at is None:
            return ImportRefusal(
                tr("The file has no worker id or status column: expected {name} (CSV with its header).", name=name)
            )
        submission_at = _first(columns, submission_columns)
        assignment_at = columns.get(assignment_column) if assignment_column else None
        if assignment_column and assignment_at is None:
            return ImportRefusal(tr("The file has no AssignmentId column: expected {name}.", name=name))
        approved: dict[str, ApprovedSubmission] = {}
        problems: list[ImportProblem] = []
        not_approved = 0
        for number, row in enumerate(rows, start=2):
            if number > MAX_IMPORT_ROWS + 1:
                return ImportRefusal(tr("The file has more than {limit:,} rows.", limit=MAX_IMPORT_ROWS))
            if not any(cell.strip() for cell in row):
                continue
            if len(row) <= max(id_at, status_at, assignment_at or 0):
                problems.append(ImportProblem(number, tr("The row is shorter than the header.")))
                continue
            if row[status_at].strip().upper() != approved_status.upper():
                not_approved += 1
                continue
            worker = canonical_external_id(platform, row[id_at])
            if worker is None:
                problems.append(ImportProblem(number, tr("The worker id is not a valid id for this platform.")))
                continue
            assignment = None
            if assignment_at is not None:
                assignment = canonical_external_id(Platform.MTURK, row[assignment_at])
                if assignment is None:
                    problems.append(ImportProblem(number, tr("The AssignmentId is not a valid MTurk id.")))
                    continue
            submission = None
            if submission_at is not None and submission_at < len(row):
                submission = row[submission_at].strip()[:64] or None
            approved.setdefault(worker, ApprovedSubmission(worker, assignment, submission))
    except csv.Error:
        return ImportRefusal(tr("The file could not be read as CSV: expected {name}.", name=name))
    return ApprovedImport(platform, tuple(approved.values()), not_approved, tuple(problems))


def match_approved(
    platform: Platform, approved: Iterable[ApprovedSubmission], accounts: Mapping[int, str], secret: bytes
) -> Matching:
    """Match approved submissions to the campaign's accounts (worker → stored `external_id_key`)."""
    by_key = {key: worker for worker, key in accounts.items()}
    matched: dict[int, ApprovedSubmission] = {}
    unknown: list[ApprovedSubmission] = []
    for submission in approved:
        worker = by_key.get(external_id_key(secret, platform, submission.external_id))
        if worker is None:
            unknown.append(submission)
        else:
            matched.setdefault(worker, submission)
    unmatched = tuple(sorted(w for w in accounts if w not in matched))
    return Matching(dict(sorted(matched.items())), unmatched, tuple(unknown))


def build_export(
    platform: Platform,
    lines: Iterable[LedgerLine],
    matching: Matching,
    *,
    reason: str = "Bonus for verified work in the campaign",
    include_base: bool = False,
) -> PayoutExport:
    """The payout file for the pending lines of matched workers (see the module docstring for the formats)."""
    if platform is Platform.OPEN:
        raise ConfigError("platform", tr("An open campaign has no platform to pay through: pay its workers another way."))
    reason = _safe_reason(reason)
    by_worker: dict[int, list[LedgerLine]] = defaultdict(list)
    for line in lines:
        if line.status is LineStatus.PENDING and (include_base or line.kind is not LineKind.BASE):
            by_worker[line.worker].append(line)
    rows: list[PayoutRow] = []
    unpaid: list[int] = []
    for worker in sorted(by_worker):
        worker_lines = sorted(by_worker[worker], key=lambda line: line.key)
        amount = sum(line.amount_cents for line in worker_lines)
        if amount == 0:
            continue
        submission = matching.matched.get(worker)
        if submission is None or (platform is Platform.MTURK and submission.assignment_id is None):
            unpaid.append(worker)
            continue
        keys = tuple(line.key for line in worker_lines)
        rows.append(PayoutRow(worker, submission.external_id, submission.assignment_id, amount, keys))
    out = io.StringIO()
    if platform is Platform.PROLIFIC:
        for row in rows:
            out.write(f"{row.external_id},{format_amount(row.amount_cents)}\n")
    else:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(MTURK_HEADER)
        for row in rows:
            writer.writerow((row.external_id, row.assignment_id, format_amount(row.amount_cents), reason, request_token(row)))
    keys = tuple(key for row in rows for key in row.keys)
    return PayoutExport(platform, out.getvalue(), tuple(rows), keys, sum(r.amount_cents for r in rows), tuple(unpaid))


def request_token(row: PayoutRow) -> str:
    """MTurk's UniqueRequestToken (at most 64 characters): the same worker and lines give the same token."""
    digest = hashlib.sha256("\x1f".join((row.external_id, *row.keys)).encode()).hexdigest()
    return f"dynabench-{digest[:48]}"


def _safe_reason(reason: str) -> str:
    """One line, at most MAX_REASON characters, and no leading character a spreadsheet would run as a formula."""
    text = " ".join(reason.split())[:MAX_REASON]
    if not text:
        raise ConfigError("reason", tr("A bonus needs a reason: MTurk shows it to the worker."))
    return "'" + text if text[0] in "=+-@" else text


def _column(name: str) -> str:
    return "_".join(name.strip().lower().replace("_", " ").split())


def _first(columns: Mapping[str, int], names: Iterable[str]) -> int | None:
    for name in names:
        if name in columns:
            return columns[name]
    return None
