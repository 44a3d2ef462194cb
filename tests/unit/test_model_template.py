"""The example model of a task's contract (server/evaluation/archive/template.py): for any task shape, its archive
passes the archive checks and the contract check as it is, and its model code answers in the contract's shape."""

from __future__ import annotations

import io
import sys
import types
import zipfile

import numpy as np
import pytest

from server.evaluation.archive import check_contract, read_model_repository
from server.evaluation.archive.template import archive_name, contract_of, example_archive, model_py
from tests.unit.archive_builders import LIMITS

SHAPES = [
    ("classification", ["statement"], ["negative", "positive", "neutral"], None),
    ("classification", ["context", "hypothesis"], ["entailment", "neutral", "contradiction"], None),
    ("classification", ["review", "title"], ["1", "2", "3", "4", "5"], None),
    ("extractive_qa", ["context", "question"], None, "context"),
    ("extractive_qa", ["passage", "question"], None, "passage"),
]


@pytest.mark.parametrize("kind, inputs, labels, context", SHAPES)
def test_the_example_archive_passes_the_checks(tmp_path, kind, inputs, labels, context):
    contract = contract_of(kind, inputs, labels)
    path = tmp_path / "example.zip"
    path.write_bytes(example_archive(contract, "my task", context))
    repo = read_model_repository(path, LIMITS)
    check_contract(repo, kind, inputs, labels)  # raises ArchiveRejected on any problem


class _Tensor:
    def __init__(self, name, value):
        self.name, self.value = name, value

    def as_numpy(self):
        return self.value


@pytest.mark.parametrize("kind, inputs, labels, context", SHAPES)
def test_the_example_model_answers_in_the_contracts_shape(monkeypatch, kind, inputs, labels, context):
    # Triton's python-backend utilities exist only inside Triton: a stand-in records what the model returns.
    fake = types.ModuleType("triton_python_backend_utils")
    fake.Tensor = _Tensor
    fake.InferenceResponse = lambda output_tensors: {t.name: t.value for t in output_tensors}
    fake.get_input_tensor_by_name = lambda request, name: _Tensor(name, request[name])
    monkeypatch.setitem(sys.modules, "triton_python_backend_utils", fake)
    namespace: dict = {}
    exec(compile(model_py(contract_of(kind, inputs, labels), context), "model.py", "exec"), namespace)
    model = namespace["TritonPythonModel"]()
    model.initialize({})
    texts = {
        name: np.array([[b"Ada Lovelace wrote it."], ["\u00e9t\u00e9 \u00e0 Paris".encode()]], dtype=np.object_)
        for name in inputs
    }
    [answer] = model.execute([texts])
    if kind == "classification":
        assert [x[0].decode() for x in answer["label"]] == [labels[0], labels[0]]
        assert answer["probs"].shape == (2, len(labels)) and np.allclose(answer["probs"].sum(axis=1), 1)
    else:
        spans = [(x[0].decode(), s[0], e[0]) for x, s, e in zip(answer["answer"], answer["start"], answer["end"], strict=True)]
        contexts = [t[0].decode() for t in texts[context]]
        assert [c[s:e] for c, (_, s, e) in zip(contexts, spans, strict=True)] == [a for a, _, _ in spans] == ["Ada", "été"]
        assert answer["confidence"].dtype == np.float32


def test_the_archive_name_is_safe_for_a_file():
    assert archive_name("sentiment") == "sentiment-example-model.zip"
    assert archive_name("../we ird/") == "we-ird-example-model.zip"
    assert zipfile.ZipFile(io.BytesIO(example_archive(contract_of("classification", ["s"], ["a", "b"]), "t"))).namelist() == [
        "my_model/config.pbtxt",
        "my_model/1/model.py",
    ]
