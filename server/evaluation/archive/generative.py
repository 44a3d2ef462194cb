"""The contract of a generative task's model (triton_models/README.md, "Generative tasks"), the same for every such
task: a decoupled model (one request, a stream of responses) reached through Triton's generate extension, with
`text_input` in and `text_output` out; `sampling_parameters` and `stream` are optional inputs. Pure."""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format

from server.core.i18n import tr
from server.evaluation.archive.repository import ModelRepository, _pb2

DECOUPLED_LINE = "model_transaction_policy { decoupled: true }"
# (name, data type, what it carries) of what the API sends: text_input always, the other two with every request.
PROMPT = "text_input"
OPTIONAL_INPUTS = {"sampling_parameters": "TYPE_STRING", "stream": "TYPE_BOOL"}
OUTPUT = "text_output"


def tensor_line(name: str, dtype: str, optional: bool = False) -> str:
    """A tensor as config.pbtxt declares it."""
    return f'{{ name: "{name}" data_type: {dtype} dims: [ 1 ]{" optional: true" if optional else ""} }}'


def _dtype(value: int) -> str:
    try:
        return str(_pb2().DataType.Name(value))
    except ValueError:
        return str(value)


def generative_problems(repo: ModelRepository) -> list[str]:
    """What a generative model's config.pbtxt lacks or gets wrong, each saying the line to add or change."""
    config = json_format.ParseDict(repo.config, _pb2().ModelConfig())
    problems: list[str] = []
    if not config.model_transaction_policy.decoupled:
        problems.append(
            tr(
                "the model is not decoupled: a generative model streams its reply, one response per piece, so add the "
                "line {line} to config.pbtxt (and send the responses through request.get_response_sender())",
                line=DECOUPLED_LINE,
            )
        )
    inputs: dict[str, Any] = {}
    for tensor in config.input:
        if tensor.name in inputs:
            problems.append(tr("input '{name}' is declared twice", name=tensor.name))
        inputs[tensor.name] = tensor
    prompt = inputs.get(PROMPT)
    if prompt is None:
        problems.append(
            tr(
                "input '{name}' is missing: add {line} to its input [ ... ] (the prompt, UTF-8 text)",
                name=PROMPT,
                line=tensor_line(PROMPT, "TYPE_STRING"),
            )
        )
    else:
        problems.extend(_shape_problems("input", prompt, "TYPE_STRING"))
    for name, dtype in OPTIONAL_INPUTS.items():
        if name in inputs:
            problems.extend(_shape_problems("input", inputs[name], dtype))
    for name, tensor in inputs.items():
        if name != PROMPT and name not in OPTIONAL_INPUTS and not tensor.optional:
            problems.append(
                tr(
                    "input '{name}' is required, but the API sends only text_input, sampling_parameters and stream: "
                    "remove it or mark it optional: true",
                    name=name,
                )
            )
    outputs = {tensor.name: tensor for tensor in config.output}
    if OUTPUT not in outputs:
        problems.append(
            tr(
                "output '{name}' is missing: add {line} to its output [ ... ] (each response: the text generated since "
                "the previous one)",
                name=OUTPUT,
                line=tensor_line(OUTPUT, "TYPE_STRING"),
            )
        )
    else:
        problems.extend(_shape_problems("output", outputs[OUTPUT], "TYPE_STRING"))
    return problems


def _shape_problems(side: str, tensor: Any, dtype: str) -> list[str]:
    line = tensor_line(tensor.name, dtype, side == "input" and tensor.name in OPTIONAL_INPUTS)
    declared, dims = _dtype(tensor.data_type), list(tensor.dims)
    if declared != dtype:
        if side == "input":
            return [tr("input '{name}' is {dtype}: declare it as {line}", name=tensor.name, dtype=declared, line=line)]
        return [tr("output '{name}' is {dtype}: declare it as {line}", name=tensor.name, dtype=declared, line=line)]
    if dims != [1]:
        if side == "input":
            return [tr("input '{name}' has dims {dims}: declare it as {line}", name=tensor.name, dims=dims, line=line)]
        return [tr("output '{name}' has dims {dims}: declare it as {line}", name=tensor.name, dims=dims, line=line)]
    return []
