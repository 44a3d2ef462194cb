"""Exporting a round: every example with its context, the annotator's input and label (every input field, the
follow-up answers included), the model's output, every validation (with its validator fields), the outcome, and
anonymised user ids.

Two formats:
- JSONL in the shape of the original platform's public releases (DynaSent v1.1 round 2: `text_id`,
  `sentence`, `sentence_author`, `has_prompt`, `prompt_data`, `model_<k>_label`, `model_<k>_probs`,
  `label_distribution`, `gold_label`), plus this platform's own fields (`model`, `fooled`,
  `validations`, `outcome`, ...), so that existing readers of those releases read it;
- a Hugging Face `datasets` directory (`load_from_disk`), built from the JSONL.

Rows come from a server-side cursor and are written one by one: an export never holds a round in
memory. `release_row` is pure; the rest does I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import aclosing
from datetime import datetime
from pathlib import Path
from typing import Any

from server.annotation.exports import queries
from server.annotation.records import ValidationLabel
from server.core.jsonutil import from_json
from server.tasks.config import TaskConfig

# preferences: a battle round's votes as prompt / chosen / rejected pairs (server/annotation/battles/pairs.py).
FORMATS = ("jsonl", "hf_dataset", "preferences")


def anonymous_id(user_id: int, key: str) -> str:
    """A stable pseudonym ("w" + 10 hex digits, like the releases' worker ids); not reversible without the key."""
    digest = hmac.new(key.encode(), f"user:{user_id}".encode(), hashlib.sha256).hexdigest()
    return "w" + digest[:10]


def release_row(row: dict[str, Any], *, task_code: str, round_number: int, config: TaskConfig, key: str) -> dict[str, Any]:
    """One exported example (pure). Votes are "is the intended label/answer right?": in
    `label_distribution` a CORRECT vote counts for the intended label, INCORRECT and FLAGGED votes
    under "incorrect" and "flagged"."""
    stored = from_json(row["input"]) or {}
    output = from_json(row["model_output"])
    context = from_json(row["context_fields"]) or {}
    votes = from_json(row["validations"]) or []
    # Every input field by name: those asked before the verdict and the follow-up answers (answerFollowUp), which
    # join the stored input; an unanswered optional field is null.
    input_names = [f.name for f in config.input_fields]
    written = {name: stored.get(name) for name in input_names}
    # A generative example's votes are on its author's claim that the model failed.
    intended = {"classification": stored.get("label"), "generative": "model_failed"}.get(config.kind, stored.get("answer"))
    validators = [
        {"validator": anonymous_id(v["user"], key), "label": v["label"], "mode": v["mode"], "fields": v.get("fields") or {}}
        for v in votes
    ]
    distribution: dict[str, list[str]] = {label: [] for label in (config.labels or [])}
    distribution.setdefault(ValidationLabel.INCORRECT.value, [])
    distribution.setdefault(ValidationLabel.FLAGGED.value, [])
    for vote in validators:
        bucket = str(intended) if vote["label"] == ValidationLabel.CORRECT else vote["label"]
        distribution.setdefault(bucket, []).append(vote["validator"])
    # The releases name a model after the round whose target it was: round r's target is model r-1.
    model_key = f"model_{round_number - 1}"
    document: dict[str, Any] = {
        "text_id": f"{task_code}-r{round_number}-{row['id']}",
        "task": task_code,
        "round": round_number,
        **written,
        "sentence_author": anonymous_id(row["user"], key),
        "has_prompt": bool(context),
        "prompt_data": {**context, "context_id": row["context_id"], "tag": row["context_tag"]},
    }
    if len(input_names) == 1 and "sentence" not in written:
        document["sentence"] = written[input_names[0]]
    if config.kind == "classification":
        document["gold_label"] = intended
        document[f"{model_key}_label"] = output.get("label") if output else None
        document[f"{model_key}_probs"] = output.get("probs") if output else None
    elif config.kind == "generative":
        # The transcript as chat messages (system text first), the attack's categories, the judge's score per reply
        # (judge_model tasks) and the parameters every reply was generated with.
        document["messages"] = stored.get("messages") or []
        document["categories"] = stored.get("categories") or []
        document["judge_scores"] = [r.get("judge_score") for r in (output or {}).get("replies") or []]
        document["generation"] = (output or {}).get("params")
        document[f"{model_key}_reply"] = output.get("text_output") if output else None
    else:
        document["answer"] = intended
        document["answer_start"] = stored.get("answer_start")
        document[f"{model_key}_answer"] = output.get("answer") if output else None
    document.update(
        {
            "label_distribution": distribution,
            "model": {"name": row["model_name"], "version": row["model_version"]},
            "model_output": output,
            "fooled": row["fooled"],
            "validations": validators,
            "outcome": row["status"],
            "retracted": row["retracted"],
            "flagged": row["flagged"],
            "flag_reason": row["flag_reason"],
            "explanation": row["explanation"],
            "time_spent_ms": row["time_spent_ms"],
            # Written from a suggestion (docs/design.md §4.1e): kind, source, version, edited; null otherwise.
            "assistance": from_json(row.get("assisted_by")),
            # Written by an adversary run (docs/design.md §4.1f; its assistance says {kind: machine, run, source}).
            "machine_made": (from_json(row.get("assisted_by")) or {}).get("kind") == "machine",
            "created_at": row["created_at"].isoformat() if isinstance(row["created_at"], datetime) else row["created_at"],
        }
    )
    return document


async def stream_rows(round_id: int, **shape: Any) -> AsyncIterator[dict[str, Any]]:
    """Exported rows of a round, read through a server-side cursor (on a connection of its own, closed with us)."""
    async with aclosing(queries.export_records(round_id)) as records:
        async for record in records:
            yield release_row(record, **shape)


async def stream_jsonl(round_id: int, **shape: Any) -> AsyncIterator[bytes]:
    async with aclosing(stream_rows(round_id, **shape)) as documents:
        async for document in documents:
            yield (json.dumps(document, ensure_ascii=False) + "\n").encode()


# The HF layout: fixed columns (nested parts whose keys depend on the task stay JSON text), so that an
# empty round and a QA round load with the same schema.
HF_COLUMNS = (
    "text_id",
    "task",
    "round",
    "sentence_author",
    "input",
    "intended",
    "context",
    "model_name",
    "model_version",
    "model_output",
    "fooled",
    "outcome",
    "validations",
    "label_distribution",
    "retracted",
    "flagged",
    "explanation",
    "time_spent_ms",
    "assistance",
    "created_at",
)
# Chat messages (generative tasks; empty for the others): a list of {role, content}.
MESSAGE_FEATURE = {"role": "string", "content": "string"}


def _hf_record(document: dict[str, Any], input_names: list[str]) -> dict[str, Any]:
    return {
        "text_id": document["text_id"],
        "task": document["task"],
        "round": document["round"],
        "sentence_author": document["sentence_author"],
        "input": json.dumps(
            {name: document.get(name) for name in input_names}
            | ({"categories": document["categories"]} if "categories" in document else {}),
            ensure_ascii=False,
        ),
        "intended": "" if "messages" in document else str(document.get("gold_label", document.get("answer"))),
        "messages": [
            {"role": str(m.get("role", "")), "content": str(m.get("content", ""))} for m in document.get("messages") or []
        ],
        "context": json.dumps(document["prompt_data"], ensure_ascii=False),
        "model_name": document["model"]["name"],
        "model_version": document["model"]["version"],
        "model_output": json.dumps(document["model_output"], ensure_ascii=False),
        "fooled": document["fooled"],
        "outcome": document["outcome"],
        "validations": [{**v, "fields": json.dumps(v.get("fields") or {}, ensure_ascii=False)} for v in document["validations"]],
        "label_distribution": json.dumps(document["label_distribution"], ensure_ascii=False),
        "retracted": document["retracted"],
        "flagged": document["flagged"],
        "explanation": document["explanation"],
        "time_spent_ms": document["time_spent_ms"],
        "assistance": json.dumps(document.get("assistance"), ensure_ascii=False),
        "created_at": document["created_at"],
    }


def write_hf_dataset(jsonl_path: Path, output_dir: Path, config: TaskConfig) -> int:
    """Turn an exported JSONL file into a `datasets` directory; the generator reads line by line."""
    import datasets

    features = datasets.Features(
        {
            **{name: datasets.Value("string") for name in HF_COLUMNS},
            "round": datasets.Value("int32"),
            "fooled": datasets.Value("bool"),
            "retracted": datasets.Value("bool"),
            "flagged": datasets.Value("bool"),
            "time_spent_ms": datasets.Value("float64"),
            # A list literal is a list of structs (reads back as a list of dicts).
            "messages": [{key: datasets.Value(kind) for key, kind in MESSAGE_FEATURE.items()}],
            "validations": [
                {
                    "validator": datasets.Value("string"),
                    "label": datasets.Value("string"),
                    "mode": datasets.Value("string"),
                    "fields": datasets.Value("string"),  # the vote's validator fields, as JSON text
                }
            ],
        }
    )
    input_names = [f.name for f in config.input_fields]

    def records() -> Iterator[dict[str, Any]]:
        with jsonl_path.open(encoding="utf-8") as lines:
            for line in lines:
                yield _hf_record(json.loads(line), input_names)

    cache = output_dir.parent / f".{output_dir.name}.cache"
    if jsonl_path.stat().st_size == 0:  # from_generator refuses an empty split
        dataset = datasets.Dataset.from_dict({name: [] for name in features}, features=features)
    else:
        dataset = datasets.Dataset.from_generator(records, features=features, cache_dir=str(cache))
    dataset.save_to_disk(str(output_dir))
    _remove_tree(cache)
    return dataset.num_rows


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
