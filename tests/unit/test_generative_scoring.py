"""Scoring a generative task (server/evaluation/datasets/service.py, metrics/measures.py, models/generate.py): its
dataset rows are {uid, prompt, reference, tags}, refused line by line when malformed; the demo task's shipped dataset
parses, with robustness (and, where a name or gendered word occurs, fairness) copies of its prompts; token_f1 is the mean
SQuAD F1 of replies against references on a 0–100 scale; replies are asked at temperature 0 with the task's limits."""

from __future__ import annotations

import io
import json

import pytest

from server.core.errors import ServiceError
from server.evaluation.datasets.seed import seed_dataset_path
from server.evaluation.datasets.service import parse_jsonl, perturbed_copies
from server.evaluation.metrics import measures
from server.evaluation.models.generate import evaluation_params
from server.evaluation.records import Perturbation
from server.generation.prompt import DEFAULT_STOP
from server.tasks.builtin import GENERATIVE_DEMO
from server.tasks.config import TaskConfig, parse_task_config


def demo_config(**generative) -> TaskConfig:
    document = json.loads(json.dumps(GENERATIVE_DEMO["config"]))
    document["generative"].update(generative)
    config, errors = parse_task_config(document)
    assert config is not None, errors
    return config


def parse(lines: list[object], config: TaskConfig | None = None):
    data = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines).encode()
    return parse_jsonl(io.BytesIO(data), config or demo_config())


def test_the_demo_tasks_dataset_parses_with_perturbed_prompts():
    config = demo_config()
    rows = parse_jsonl(io.BytesIO(seed_dataset_path("chat_demo").read_bytes()), config)
    assert 45 <= len(rows) <= 60 and len({r["uid"] for r in rows}) == len(rows)
    assert all(set(r["fields"]) == {"prompt"} and isinstance(r["gold"], str) and r["gold"] and r["tags"] for r in rows)
    copies = perturbed_copies(config, rows)
    robustness = [c for c in copies if c["perturbation"] == Perturbation.ROBUSTNESS]
    assert len(robustness) == 2 * len(rows)  # every prompt: two copies, each differing from it
    originals = {r["uid"]: r for r in rows}
    assert all(c["fields"]["prompt"] != originals[c["original_uid"]]["fields"]["prompt"] for c in copies)
    assert all(c["gold"] == originals[c["original_uid"]]["gold"] for c in copies)


def test_a_generative_dataset_row_needs_a_prompt_and_a_reference():
    rows = parse([{"uid": "a", "prompt": "Capital of France?", "reference": "Paris", "tags": ["geo"]}])
    assert rows == [{"uid": "a", "fields": {"prompt": "Capital of France?"}, "gold": "Paris", "tags": ["geo"]}]
    with pytest.raises(ServiceError) as info:
        parse(
            [
                {"uid": "a", "prompt": "Capital of France?"},
                {"uid": "b", "prompt": " ", "reference": "x"},
                {"uid": "c", "prompt": "Hi", "reference": ["Paris"]},
                {"uid": "d", "statement": "Hi", "label": "positive"},
            ]
        )
    problems = [(p.field, str(p.message)) for p in info.value.fields]
    assert problems == [
        ("line 1", "`reference` must be non-empty text"),
        ("line 2", "`prompt` must be non-empty text"),
        ("line 3", "`reference` must be non-empty text"),
        ("line 4", "`prompt` must be non-empty text"),
    ]


def test_token_f1_is_the_mean_squad_f1_of_replies_on_a_0_to_100_scale():
    golds = ["Paris", "the Pacific Ocean", "seven"]
    replies = [" The capital is Paris.", "Pacific", "I do not know"]
    # "capital is paris" vs "paris": P 1/3, R 1 -> 0.5; "pacific" vs "pacific ocean": P 1, R 1/2 -> 2/3; 0.
    assert measures.performance("token_f1", golds, replies) == pytest.approx(100 * (0.5 + 2 / 3 + 0) / 3)
    assert measures.per_tag("token_f1", [(["geo"], "Paris", "Paris"), (["num"], "seven", "six")]) == {
        "geo": 100.0,
        "num": 0.0,
    }
    # Consistency of replies compares them as text after SQuAD normalization.
    assert measures.consistency({"a": " Paris."}, [("a", "paris"), ("a", "Lyon")], qa=True) == 0.5


def test_replies_are_asked_greedily_with_the_tasks_length_and_stops():
    params = evaluation_params(demo_config(max_tokens=40, temperature=0.9))
    assert (params.max_tokens, params.temperature, params.seed, params.stop) == (40, 0.0, 0, (DEFAULT_STOP,))
    assert evaluation_params(demo_config(stop=["###"])).stop == ("###",)
    assert json.loads(params.sampling_parameters()) == {"max_tokens": 40, "temperature": 0.0, "stop": ["\nUser:"], "seed": 0}
