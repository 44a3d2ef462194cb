"""The scoring datasets the built-in tasks ship with (server/evaluation/datasets/seed/): well-formed for their task,
balanced, tagged, QA answers that really occur in their passage, and written for the project (no row of the
third-party corpora in ../shared/data, nor of the tasks' own seed contexts)."""

import io
import json
import re
from collections import Counter

import pytest

from server.evaluation.datasets.seed import seed_dataset_path
from server.evaluation.datasets.service import parse_jsonl, perturbed_copies
from server.evaluation.records import LIVE_STATUSES, NOT_RANKED_MESSAGE, ModelStatus, Perturbation
from server.tasks.builtin import BUILTIN_TASKS, seed_contexts
from server.tasks.config import parse_task_config
from tests.conftest import SHARED_DATA

CODES = [spec["code"] for spec in BUILTIN_TASKS]


def _config(code):
    spec = next(s for s in BUILTIN_TASKS if s["code"] == code)
    config, errors = parse_task_config(spec["config"])
    assert config is not None, errors
    return config


def _raw(code):
    return [json.loads(line) for line in seed_dataset_path(code).read_text().splitlines() if line.strip()]


def _parsed(code):
    return parse_jsonl(io.BytesIO(seed_dataset_path(code).read_bytes()), _config(code))


def _normalize(text: str) -> str:
    return " " + " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split()) + " "


def _texts(row: dict) -> list[str]:
    return [row[k] for k in ("statement", "context", "hypothesis", "question") if k in row]


@pytest.mark.parametrize("code", CODES)
def test_every_builtin_task_ships_a_dataset_the_upload_parser_accepts(code):
    rows = _parsed(code)  # the createDataset parser: raises on any bad row
    assert 60 <= len(rows) <= 120, len(rows)
    assert len({r["uid"] for r in rows}) == len(rows)
    config = _config(code)
    assert all(set(r["fields"]) == set(config.model_inputs) for r in rows)


@pytest.mark.parametrize("code", CODES)
def test_rows_are_tagged_so_that_per_tag_metrics_show_something(code):
    rows = _parsed(code)
    assert all(r["tags"] for r in rows)
    tags = Counter(t for r in rows for t in r["tags"])
    assert len(tags) >= 4 and sum(1 for n in tags.values() if n >= 5) >= 4, tags


@pytest.mark.parametrize("code", [c for c in CODES if _config(c).kind == "classification"])
def test_classification_labels_are_valid_and_balanced(code):
    config = _config(code)
    counts = Counter(r["gold"] for r in _parsed(code))
    assert set(counts) == set(config.labels), counts
    assert max(counts.values()) - min(counts.values()) <= 1, counts
    # Interleaved: any prefix (a smoke test's few rows) has every label.
    assert {r["gold"] for r in _parsed(code)[: len(config.labels)]} == set(config.labels)


def test_qa_answers_are_spans_of_their_passage():
    raw = _raw("qa")
    for row in raw:
        assert row["question"].strip().endswith("?"), row["uid"]
        assert row["answers"] and all(isinstance(a, str) and a.strip() == a and a for a in row["answers"]), row["uid"]
        for answer in row["answers"]:
            start = row["context"].find(answer)
            assert start >= 0, (row["uid"], answer)
            assert row["context"][start : start + len(answer)] == answer
    assert [r["gold"] for r in _parsed("qa")] == [r["answers"] for r in raw]
    passages = Counter(r["context"] for r in raw)
    assert len(passages) >= 12 and all(n >= 3 for n in passages.values()), passages


@pytest.mark.parametrize("code", CODES)
def test_perturbed_copies_are_generated_and_keep_qa_spans(code):
    config = _config(code)
    rows = _parsed(code)
    copies = perturbed_copies(config, rows)
    kinds = Counter(c["perturbation"] for c in copies)
    assert kinds[Perturbation.ROBUSTNESS] >= len(rows)  # most rows get two typo / wording copies
    if config.kind == "classification":
        assert kinds[Perturbation.FAIRNESS] > 0
    else:
        assert kinds[Perturbation.FAIRNESS] == 0  # swapping names in a passage would move answer spans
        originals = {r["uid"]: r for r in rows}
        for copy in copies:
            assert copy["fields"]["context"] == originals[copy["original_uid"]]["fields"]["context"]
            assert all(answer in copy["fields"]["context"] for answer in copy["gold"])


@pytest.mark.parametrize("code", CODES)
def test_rows_are_not_the_tasks_seed_contexts(code):
    contexts = {_normalize(text) for c in seed_contexts(code) for text in c["fields"].values()}
    for row in _raw(code):
        assert not {_normalize(t) for t in _texts(row)} & contexts, row["uid"]


def test_no_row_is_copied_from_the_third_party_corpora():
    files = sorted(p for p in SHARED_DATA.rglob("*") if p.suffix in (".jsonl", ".csv"))
    assert files, f"real data missing under {SHARED_DATA}"
    corpus = "".join(_normalize(p.read_text(errors="replace")) for p in files)
    copied = [(code, row["uid"]) for code in CODES for row in _raw(code) if any(_normalize(t) in corpus for t in _texts(row))]
    assert copied == []


def test_not_ranked_is_a_live_status_of_its_own():
    assert ModelStatus.NOT_RANKED == "not_ranked" and ModelStatus.NOT_RANKED != ModelStatus.EVALUATED
    # Live: a new scoring dataset evaluates it, and deploying it again is a no-op.
    assert ModelStatus.NOT_RANKED in LIVE_STATUSES
    assert NOT_RANKED_MESSAGE == "Not ranked: no scoring dataset"


def test_no_row_is_in_the_built_in_models_training_data():
    # A scoring row the target model was trained on would score its memory, not its skill.
    from pathlib import Path

    import server.modelbuild.seed as seed_package

    corpus = "".join(_normalize(p.read_text()) for p in sorted(Path(seed_package.__file__).parent.glob("*.jsonl")))
    copied = [(code, row["uid"]) for code in CODES for row in _raw(code) if any(_normalize(t) in corpus for t in _texts(row))]
    assert copied == []
