"""Uploaded model archives: the task's I/O contract checked against a model's config.

Every archive is built at runtime in tmp_path with the builders in tests/unit/archive_builders.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.evaluation.archive import ArchiveRejected, ModelRepository, check_contract, read_model_repository
from tests.unit.archive_builders import LIMITS, SENTIMENT_LABELS, classification_config, model_entries, qa_config, write_tar


def repo_for(tmp_path: Path, config: str, name: str = "my_model") -> ModelRepository:
    return read_model_repository(write_tar(tmp_path / f"{name}.tgz", model_entries(name, config=config)), LIMITS)


def contract_error(repo, kind, inputs, labels) -> ArchiveRejected:
    with pytest.raises(ArchiveRejected) as info:
        check_contract(repo, kind, inputs, labels)
    assert info.value.code == "CONTRACT"
    return info.value


def test_contract_accepts_extra_outputs(tmp_path):
    extra = ',\n  { name: "logits" data_type: TYPE_FP32 dims: [ 3 ] }'
    repo = repo_for(tmp_path, classification_config(extra_outputs=extra))
    check_contract(repo, "classification", ["statement"], SENTIMENT_LABELS)
    nli = repo_for(
        tmp_path,
        classification_config("nli_model", inputs=("hypothesis", "context"), labels=["entailment", "neutral", "contradiction"]),
        "nli_model",
    )
    check_contract(nli, "classification", ["context", "hypothesis"], ["entailment", "neutral", "contradiction"])
    qa = repo_for(tmp_path, qa_config(), "my_qa")
    check_contract(qa, "extractive_qa", ["context", "question"], None)
    check_contract(qa, "qa", ["context", "question"], [])


def test_contract_optional_embedding_output(tmp_path):
    good = ',\n  { name: "embedding" data_type: TYPE_FP32 dims: [ -1 ] }'
    check_contract(
        repo_for(tmp_path, classification_config(extra_outputs=good)), "classification", ["statement"], SENTIMENT_LABELS
    )
    bad = ',\n  { name: "embedding" data_type: TYPE_STRING dims: [ 4, 4 ] }'
    (tmp_path / "bad").mkdir()
    error = contract_error(
        repo_for(tmp_path / "bad", classification_config(extra_outputs=bad)),
        "classification",
        ["statement"],
        SENTIMENT_LABELS,
    )
    assert "output 'embedding' (optional" in error.message and "expected TYPE_FP32 dims [-1] or [D]" in error.message


def test_contract_wrong_input_name(tmp_path):
    repo = repo_for(tmp_path, classification_config(inputs=("text",)))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "input 'statement' is missing" in error.message and "input 'text'" in error.message
    assert len(error.details) == 2


def test_contract_wrong_input_type(tmp_path):
    repo = repo_for(tmp_path, classification_config(input_type="TYPE_FP32"))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "input 'statement' is TYPE_FP32, expected TYPE_STRING" in error.message


def test_contract_probs_with_wrong_dims(tmp_path):
    repo = repo_for(tmp_path, classification_config(probs_dims=2, label_param=json.dumps(SENTIMENT_LABELS)))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "output 'probs' has dims [2], expected [3]" in error.message
    assert "negative, positive, neutral" in error.message


def test_contract_qa_missing_start(tmp_path):
    outputs = [("answer", "TYPE_STRING"), ("end", "TYPE_INT32"), ("confidence", "TYPE_FP32")]
    repo = repo_for(tmp_path, qa_config(outputs=outputs), "my_qa")
    error = contract_error(repo, "extractive_qa", ["context", "question"], None)
    assert error.details == ["output 'start' is missing: expected start TYPE_INT32 dims [1]"]

    int64 = [("answer", "TYPE_STRING"), ("start", "TYPE_INT64"), ("end", "TYPE_INT32"), ("confidence", "TYPE_FP32")]
    repo = repo_for(tmp_path, qa_config("qa_two", outputs=int64), "qa_two")
    error = contract_error(repo, "extractive_qa", ["context", "question"], None)
    assert "output 'start' is TYPE_INT64, expected TYPE_INT32" in error.message


def test_contract_labels_parameter_in_wrong_order(tmp_path):
    wrong_order = json.dumps(["positive", "negative", "neutral"])
    repo = repo_for(tmp_path, classification_config(label_param=wrong_order))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "parameter 'labels'" in error.message and "in that order" in error.message

    not_json = repo_for(tmp_path, classification_config("other", label_param="negative,positive,neutral"), "other")
    assert "JSON list" in contract_error(not_json, "classification", ["statement"], SENTIMENT_LABELS).message


def test_contract_unbatched_model_and_several_problems(tmp_path):
    repo = repo_for(tmp_path, classification_config(max_batch_size=0, probs_dims=5, inputs=("statement", "extra")))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert len(error.details) == 3
    assert "max_batch_size" in error.details[0]
    assert "(1)" in error.message and "(3)" in error.message


def test_contract_bad_task_kind(tmp_path):
    repo = repo_for(tmp_path, classification_config())
    with pytest.raises(ValueError):
        check_contract(repo, "translation", ["statement"], None)
    with pytest.raises(ValueError):
        check_contract(repo, "classification", ["statement"], None)
