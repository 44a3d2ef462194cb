"""The SDK's tests import `dynabench_client` from this checkout's sdk/ (not whatever copy a venv has installed), and
share a few helpers: a scoring dataset, a researcher's client."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "sdk"))

from tests.api.models_helpers import create_dataset  # noqa: E402
from tests.conftest import SHARED_DATA  # noqa: E402

SENTIMENT_LABELS = ("negative", "positive", "neutral")


def sentiment_rows(n: int, seed: int = 3) -> list[dict]:
    """`n` real DynaSent test sentences in the scoring-dataset shape."""
    path = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-test.jsonl"
    rows = [json.loads(line) for line in path.open()]
    rows = [
        {"uid": r["text_id"], "statement": r["sentence"], "label": r["gold_label"]}
        for r in rows
        if r.get("gold_label") in SENTIMENT_LABELS
    ]
    return random.Random(seed).sample(rows, n)


def scoring_dataset(api, admin_token: str, rows: list[dict], name: str = "dynasent-slice") -> str:
    created = create_dataset(api, admin_token, "sentiment", name, "\n".join(json.dumps(r) for r in rows).encode())
    assert created["__typename"] == "DatasetCreated", created
    return created["dataset"]["id"]
