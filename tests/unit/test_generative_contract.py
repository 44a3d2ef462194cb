"""A generative task's model contract (server/evaluation/archive/generative.py, template.py): decoupled, `text_input`
in and `text_output` out, refused with the line to add; the example archive passes as it is, and its model streams one
response per word then the final flag; the built-in demo's config passes too."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from server.core.i18n import translate
from server.evaluation.archive import ArchiveRejected, check_config_limits, check_contract, read_model_repository
from server.evaluation.archive.config_limits import ConfigLimits
from server.evaluation.archive.template import contract_of, example_archive, model_py
from tests.unit.archive_builders import LIMITS, ROOT, model_entries, write_tar

GOOD = """name: "gen"
backend: "python"
max_batch_size: 0
model_transaction_policy { decoupled: true }
input [
  { name: "text_input" data_type: TYPE_STRING dims: [ 1 ] },
  { name: "sampling_parameters" data_type: TYPE_STRING dims: [ 1 ] optional: true }
]
output [ { name: "text_output" data_type: TYPE_STRING dims: [ 1 ] } ]
"""


def repo_for(tmp_path: Path, config: str):
    return read_model_repository(write_tar(tmp_path / "gen.tgz", model_entries("gen", config=config)), LIMITS)


def problems(tmp_path: Path, config: str) -> list[str]:
    with pytest.raises(ArchiveRejected) as info:
        check_contract(repo_for(tmp_path, config), "generative", [], None)
    assert info.value.code == "CONTRACT"
    return [str(p) for p in info.value.details]


def test_a_decoupled_model_with_the_prompt_and_text_output_passes(tmp_path):
    check_contract(repo_for(tmp_path, GOOD), "generative", ["scenario"], None)  # the task's context fields do not matter
    batched = GOOD.replace("max_batch_size: 0", "max_batch_size: 8").replace(
        "dims: [ 1 ] optional: true }",
        'dims: [ 1 ] optional: true },\n  { name: "extra" data_type: TYPE_FP32 dims: [ 2 ] optional: true }',
    )
    check_contract(repo_for(tmp_path, batched), "generative", [], None)


def test_without_decoupled_and_text_output_the_lines_to_add_are_named(tmp_path):
    config = GOOD.replace("model_transaction_policy { decoupled: true }\n", "").replace("text_output", "answer")
    found = problems(tmp_path, config)
    assert len(found) == 2
    assert "not decoupled" in found[0] and "model_transaction_policy { decoupled: true }" in found[0]
    assert found[1].startswith("output 'text_output' is missing: add ")
    assert '{ name: "text_output" data_type: TYPE_STRING dims: [ 1 ] }' in found[1]
    with pytest.raises(ArchiveRejected) as info:
        check_contract(repo_for(tmp_path, config), "generative", [], None)
    french = translate(info.value.message, "fr")
    assert "model_transaction_policy { decoupled: true }" in french and french != str(info.value.message)


def test_wrong_types_shapes_and_required_extra_inputs_are_refused(tmp_path):
    config = GOOD.replace('"text_input" data_type: TYPE_STRING dims: [ 1 ]', '"text_input" data_type: TYPE_INT32 dims: [ 1 ]')
    config = config.replace(
        "optional: true }",
        'optional: true },\n  { name: "stream" data_type: TYPE_STRING dims: [ 1 ] },\n'
        '  { name: "history" data_type: TYPE_STRING dims: [ 1 ] }',
    ).replace('"text_output" data_type: TYPE_STRING dims: [ 1 ]', '"text_output" data_type: TYPE_STRING dims: [ 2 ]')
    found = problems(tmp_path, config)
    assert found == [
        "input 'text_input' is TYPE_INT32: declare it as { name: \"text_input\" data_type: TYPE_STRING dims: [ 1 ] }",
        "input 'stream' is TYPE_STRING: declare it as { name: \"stream\" data_type: TYPE_BOOL dims: [ 1 ] optional: true }",
        "input 'history' is required, but the API sends only text_input, sampling_parameters and stream: remove it or "
        "mark it optional: true",
        "output 'text_output' has dims [2]: declare it as { name: \"text_output\" data_type: TYPE_STRING dims: [ 1 ] }",
    ]


def test_the_example_archive_passes_and_its_model_streams_word_by_word(tmp_path, monkeypatch):
    contract = contract_of("generative", ["scenario"], None)
    assert contract.kind == "generative" and contract.labels == []
    assert [t.name for t in contract.inputs] == ["text_input", "sampling_parameters", "stream"]
    assert [t.name for t in contract.outputs] == ["text_output"]
    path = tmp_path / "example.zip"
    path.write_bytes(example_archive(contract, "chat_demo"))
    repo = read_model_repository(path, LIMITS)
    check_contract(repo, "generative", ["scenario"], None)
    check_config_limits(repo, ConfigLimits())

    sent: list[tuple[object, int]] = []

    class Sender:
        def is_cancelled(self):
            return len(sent) >= 3  # the client leaves after three pieces

        def send(self, response=None, flags=0):
            sent.append((response, flags))

    fake = types.ModuleType("triton_python_backend_utils")
    fake.TRITONSERVER_RESPONSE_COMPLETE_FINAL = 1
    fake.Tensor = lambda name, value: (name, value)
    fake.InferenceResponse = lambda output_tensors: dict(output_tensors)
    fake.get_input_tensor_by_name = lambda request, name: request.get(name)

    class Tensor:
        def __init__(self, text: str) -> None:
            self.value = np.array([text.encode()], dtype=np.object_)

        def as_numpy(self):
            return self.value

    class Request(dict):
        def get_response_sender(self):
            return Sender()

    monkeypatch.setitem(sys.modules, "triton_python_backend_utils", fake)
    namespace: dict = {}
    exec(compile(model_py(contract), "model.py", "exec"), namespace)
    model = namespace["TritonPythonModel"]()
    model.initialize({})
    prompt = "Be brief.\n\nUser: What is the capital of France?\nAssistant:"
    request = Request(text_input=Tensor(prompt), sampling_parameters=Tensor(json.dumps({"max_tokens": 5})))
    assert model.execute([request]) is None
    pieces = [r["text_output"][0].decode() for r, flags in sent if r is not None]
    assert pieces == [" What", " is", " the"] and sent[-1] == (None, 1)
    sent.clear()
    Sender.is_cancelled = lambda self: False  # type: ignore[method-assign]
    model.execute([Request(text_input=Tensor(prompt), sampling_parameters=Tensor(json.dumps({"max_tokens": 5})))])
    assert "".join(r["text_output"][0].decode() for r, _ in sent if r is not None) == " What is the capital of"


def test_the_built_in_demos_config_follows_the_contract(tmp_path):
    config = (ROOT / "triton_models" / "generative_demo" / "config.pbtxt").read_text()
    repo = repo_for(tmp_path, config.replace('name: "generative_demo"', 'name: "gen"'))
    check_contract(repo, "generative", [], None)
    check_config_limits(repo, ConfigLimits())
