"""The per-task I/O contract a model's tensors must follow (triton_models/README.md)."""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format

from server.core.i18n import tr
from server.core.inference import EMBEDDING_OUTPUT
from server.evaluation.archive.generative import generative_problems
from server.evaluation.archive.limits import ArchiveRejected, numbered
from server.evaluation.archive.repository import ModelRepository, _pb2

_TASK_KINDS = {"classification": "classification", "extractive_qa": "qa", "qa": "qa"}


def _dtype(value: int) -> str:
    try:
        return _pb2().DataType.Name(value)
    except ValueError:
        return str(value)


def check_contract(repo: ModelRepository, task_kind: str, input_names: list[str], labels: list[str] | None) -> None:
    """Refuse (code CONTRACT) a model whose tensors do not follow its task's I/O contract.

    ``task_kind``: "classification", "extractive_qa" (alias "qa") or "generative" (its contract is the same for every
    task: server/evaluation/archive/generative.py); ``input_names``: the task's model inputs (TaskConfig.model_inputs);
    ``labels``: the task's labels in order (classification).
    Every problem found is reported (``details``), each naming the tensor and what was expected.
    """
    if task_kind == "generative":
        return _refuse(generative_problems(repo))
    kind = _TASK_KINDS.get(task_kind)
    if kind is None:
        raise ValueError(f"unknown task kind {task_kind!r}")
    if kind == "classification" and not labels:
        raise ValueError("a classification task needs its labels")
    pb2 = _pb2()
    config = json_format.ParseDict(repo.config, pb2.ModelConfig())
    problems: list[str] = []
    string = "TYPE_STRING dims [1]"

    if config.max_batch_size <= 0:
        problems.append(
            tr(
                "max_batch_size is {size}: the API sends batched tensors ([batch, 1]), so set "
                "max_batch_size to at least 1 (e.g. 64 with dynamic_batching)",
                size=config.max_batch_size,
            )
        )

    expected_inputs = list(input_names)
    inputs: dict[str, Any] = {}
    for tensor in config.input:
        if tensor.name in inputs:
            problems.append(tr("input '{name}' is declared twice", name=tensor.name))
        inputs[tensor.name] = tensor
    for name in expected_inputs:
        tensor = inputs.get(name)
        if tensor is None:
            problems.append(
                tr(
                    "input '{name}' is missing: this task sends the inputs {inputs}, each {string}",
                    name=name,
                    inputs=expected_inputs,
                    string=string,
                )
            )
            continue
        if tensor.data_type != pb2.TYPE_STRING:
            problems.append(
                tr("input '{name}' is {dtype}, expected TYPE_STRING (UTF-8 bytes)", name=name, dtype=_dtype(tensor.data_type))
            )
        if list(tensor.dims) != [1]:
            problems.append(tr("input '{name}' has dims {dims}, expected [1]", name=name, dims=list(tensor.dims)))
    for name in inputs:
        if name not in expected_inputs:
            problems.append(
                tr(
                    "input '{name}' is not one of this task's inputs {inputs}: the API sends exactly those, each {string}",
                    name=name,
                    inputs=expected_inputs,
                    string=string,
                )
            )

    if kind == "classification":
        assert labels is not None
        expected_outputs = [
            ("label", pb2.TYPE_STRING, [1], ""),
            ("probs", pb2.TYPE_FP32, [len(labels)], tr(" (one probability per label: {labels})", labels=", ".join(labels))),
        ]
    else:
        expected_outputs = [
            ("answer", pb2.TYPE_STRING, [1], ""),
            ("start", pb2.TYPE_INT32, [1], ""),
            ("end", pb2.TYPE_INT32, [1], ""),
            ("confidence", pb2.TYPE_FP32, [1], ""),
        ]
    outputs: dict[str, Any] = {}
    for tensor in config.output:
        if tensor.name in outputs:
            problems.append(tr("output '{name}' is declared twice", name=tensor.name))
        outputs[tensor.name] = tensor
    for name, dtype, dims, why in expected_outputs:
        tensor = outputs.get(name)
        if tensor is None:
            problems.append(
                tr(
                    "output '{name}' is missing: expected {name} {dtype} dims {dims}{why}",
                    name=name,
                    dtype=_dtype(dtype),
                    dims=dims,
                    why=why,
                )
            )
            continue
        if tensor.data_type != dtype:
            problems.append(
                tr(
                    "output '{name}' is {dtype}, expected {expected}",
                    name=name,
                    dtype=_dtype(tensor.data_type),
                    expected=_dtype(dtype),
                )
            )
        if list(tensor.dims) != dims:
            problems.append(
                tr(
                    "output '{name}' has dims {dims}, expected {expected}{why}",
                    name=name,
                    dims=list(tensor.dims),
                    expected=dims,
                    why=why,
                )
            )

    embedding = outputs.get(EMBEDDING_OUTPUT)
    if embedding is not None and (embedding.data_type != pb2.TYPE_FP32 or len(embedding.dims) != 1):
        problems.append(
            tr(
                "output '{name}' (optional: the near-duplicate guard compares examples by it) is "
                "{dtype} dims {dims}, expected TYPE_FP32 dims [-1] or [D]",
                name=EMBEDDING_OUTPUT,
                dtype=_dtype(embedding.data_type),
                dims=list(embedding.dims),
            )
        )

    if kind == "classification" and "labels" not in config.parameters:
        problems.append(
            tr(
                "parameter 'labels' is missing: declare the task's labels in order, "
                "parameters {{ key: \"labels\" value: {{ string_value: '{expected}' }} }}, so that probs[i] is "
                "the probability of labels[i]",
                expected=json.dumps(labels),
            )
        )
    if "labels" in config.parameters:
        expected_labels = list(labels or []) if kind == "classification" else []
        raw = config.parameters["labels"].string_value
        try:
            declared = json.loads(raw)
        except ValueError:
            declared = None
        if not isinstance(declared, list) or not all(isinstance(x, str) for x in declared):
            problems.append(tr("parameter 'labels' must be a JSON list of strings, got {raw!r}", raw=raw))
        elif declared != expected_labels:
            if kind == "classification":
                problems.append(
                    tr(
                        "parameter 'labels' is {declared}, but this task's labels are "
                        "{expected} in that order (probs[i] must be the probability of labels[i])",
                        declared=json.dumps(declared),
                        expected=json.dumps(expected_labels),
                    )
                )
            else:
                problems.append(
                    tr("parameter 'labels' is {declared}, but a QA model has no labels ([])", declared=json.dumps(declared))
                )

    _refuse(problems)


def _refuse(problems: list[str]) -> None:
    if problems:
        message = tr(
            "the model does not follow the task's I/O contract: {problems}",
            problems=problems[0] if len(problems) == 1 else numbered(problems),
        )
        raise ArchiveRejected("CONTRACT", message, details=problems)
