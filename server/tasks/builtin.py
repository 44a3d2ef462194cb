"""The four built-in tasks: ordinary task configs, seeded through the same service as any other task."""

from __future__ import annotations

import json
from pathlib import Path

from server.tasks import queries, service

SEED_DIR = Path(__file__).parent / "seed"


def _classification(context_label: str, inputs: list[str], model_inputs: list[str], labels: list[str], perf: str) -> dict:
    return {
        "kind": "classification",
        "context_fields": [{"name": "context", "display_name": context_label, "max_length": 5000}],
        "input_fields": [{"name": name, "max_length": 1000} for name in inputs],
        "model_inputs": model_inputs,
        "labels": labels,
        "output_fields": ["label", "probs"],
        "fooling": {"metric": "exact_match"},
        "performance_metric": perf,
    }


BUILTIN_TASKS = [
    {
        "code": "sentiment",
        "name": "Sentiment analysis",
        "description": "Write a sentence whose sentiment (positive, negative or neutral) the model gets wrong.",
        "config": _classification("Prompt", ["statement"], ["statement"], ["negative", "positive", "neutral"], "accuracy"),
        "target": "sentiment_minilm",
    },
    {
        "code": "nli",
        "name": "Natural language inference",
        "description": "Given a premise, write a hypothesis that is entailed by it, neutral, or contradicts it — and fool the model.",
        "config": _classification(
            "Premise", ["hypothesis"], ["context", "hypothesis"], ["entailment", "neutral", "contradiction"], "accuracy"
        ),
        "target": "nli_minilm",
    },
    {
        "code": "hate_speech",
        "name": "Hate speech detection",
        "description": "Write a statement that is hateful or not hateful, and that the model misclassifies.",
        "config": _classification("Prompt", ["statement"], ["statement"], ["not_hateful", "hateful"], "macro_f1"),
        "target": "hate_speech_minilm",
    },
    {
        "code": "qa",
        "name": "Extractive question answering",
        "description": "Ask a question about the passage and mark the answer span; fool the model into a wrong span.",
        "config": {
            "kind": "extractive_qa",
            "context_fields": [{"name": "context", "display_name": "Passage", "max_length": 10000}],
            "input_fields": [{"name": "question", "max_length": 1000}],
            "model_inputs": ["context", "question"],
            "answer_context_field": "context",
            "output_fields": ["answer", "start", "end", "confidence"],
            "fooling": {"metric": "string_f1", "threshold": 0.4},
            "performance_metric": "squad_f1",
        },
        "target": "qa_overlap_baseline",
    },
]


# The built-in task that owns each built-in target model (server/permissions/target_models.py), and the
# codes reserved for the built-in tasks (createTask refuses them).
BUILTIN_TARGETS: dict[str, str] = {spec["target"]: spec["code"] for spec in BUILTIN_TASKS}
BUILTIN_CODES = frozenset(spec["code"] for spec in BUILTIN_TASKS)
# `dynabench build-models` writes version 1 of each built-in model; retraining adds 2, 3, ...
BUILTIN_VERSION = "1"


def seed_contexts(code: str) -> list[dict]:
    path = SEED_DIR / f"{code}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


async def seed_builtin_tasks() -> list[str]:
    """Create any missing built-in task with round 1 and its context pool. Idempotent."""
    created = []
    for spec in BUILTIN_TASKS:
        task = await queries.task_by_code(spec["code"])
        if task is None:
            task = await service.create_task(None, spec["code"], spec["name"], spec["description"], spec["config"])
            created.append(spec["code"])
        round_row = await queries.round_by_number(task["id"], 1)
        if round_row is None:
            round_row = await service.create_round(spec["code"], [{"name": spec["target"], "version": BUILTIN_VERSION}])
        if not await queries.round_has_contexts(round_row["id"]):
            await service.add_contexts(round_row, seed_contexts(spec["code"]))
    return created
