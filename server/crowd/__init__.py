"""Crowd campaigns (issue #17): the pure domain core, no I/O (no database, no network, no asyncio).

- `entry`: join links per platform (Prolific, MTurk, open) → a typed `WorkerEntry` or `EntryRefusal`; the
  completion target (Prolific redirect, MTurk external-submit form, the campaign's own redirect); the keyed hash
  under which external worker ids are stored.
- `quiz`: grading the onboarding quiz → passed / failed, may retry / failed, final.
- `quotas`: per-worker daily and campaign quotas and the campaign's example budget → may the worker do one more.
- `ledger`: payments from verified outcomes only: deterministic line keys, a diff against recorded lines that never
  touches exported (frozen) ones, the platforms' approved-submission imports and the bonus CSVs.
- `gold`: mixing gold items into the validation queue, validators' gold accuracy, the pause rule.
- `reliability`: Dawid–Skene validator reliability (EM, numpy) and the reliability-weighted outcome rule.
- `duplicates`: the near-duplicate guard at submission (normalized text, word n-grams, embedding cosine).

Configuration mistakes raise `server.crowd.errors.ConfigError` (a `ValueError` naming the field); expected refusals
of untrusted input (a forged join link, a bad import file) are returned as typed values with a clear message.
"""
