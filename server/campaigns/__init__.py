"""Crowd campaigns (issue #17): campaigns of a task's round, the join flow of pseudonymous workers, quotas at the write
and the payments ledger (docs/design.md §8).

The pure rules, no I/O (no database, no network, no asyncio; mypy-strict):
- `entry`: join links per platform (Prolific, MTurk, open) → a typed `WorkerEntry` or `EntryRefusal`; the
  completion target (Prolific redirect, MTurk external-submit form, the campaign's own redirect); the keyed hash
  under which external worker ids are stored.
- `quiz`: grading the onboarding quiz → passed / failed, may retry / failed, final.
- `quotas`: per-worker daily and campaign quotas and the campaign's example budget → may the worker do one more.
- `ledger_rules`: payments from verified outcomes only: deterministic line keys, a diff against recorded lines that
  never touches exported (frozen) ones, the campaign's totals.
- `payouts`: the platforms' approved-submission imports, matched to keyed accounts, and the bonus CSVs.

The services that store and serve them: `service` (settings), `joining` (the join flow), `work` (a worker's state and
the quota hook), `ledger` (the ledger, imports and exports); `queries` is the query room.

Configuration mistakes raise `server.core.errors.ConfigError` (a `ValueError` naming the field); expected refusals
of untrusted input (a forged join link, a bad import file) are returned as typed values with a clear message.
"""
