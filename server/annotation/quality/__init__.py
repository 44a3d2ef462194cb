"""Crowd quality (issue #17): the near-duplicate guard, gold items, validator reliability.

Each concept is a service and, beside it, its pure rules (no I/O: no database, no network, no asyncio; mypy-strict):
- `duplicates` on `duplicate_rules`: the near-duplicate guard at submission (normalized text, word n-grams, embedding
  cosine).
- `gold` on `gold_rules`: mixing gold items into the validation queue, validators' gold accuracy, the pause rule;
  `gold_upload` reads uploadGold's file, `reinstating` gives a paused validator a fresh start.
- `reliability` on `reliability_model`: Dawid–Skene validator reliability (EM, numpy) and the reliability-weighted
  outcome rule.
`view` is the owners' quality view; `queries` the query room.

A setting that cannot work raises `server.core.errors.ConfigError` (a `ValueError` naming the field).
"""
