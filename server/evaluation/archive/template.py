"""A task's model contract in words and as a starting archive that passes every upload check (issue #29).

Pure: from a task's kind, model inputs and labels, `contract_of` describes the tensors and parameters a model must
declare (triton_models/README.md), and `example_archive` builds a zip of a python-backend model that follows them:
a deliberately trivial baseline (a classifier that always answers the first label; a QA model that answers the
context's first word) for a researcher to replace `predict` in. It is labelled as such in its own files."""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass

from server.evaluation.archive.generative import DECOUPLED_LINE, tensor_line

MODEL_DIR = "my_model"


@dataclass(frozen=True)
class Tensor:
    name: str
    dtype: str
    dims: list[int]
    meaning: str


@dataclass(frozen=True)
class Contract:
    kind: str
    inputs: list[Tensor]
    outputs: list[Tensor]
    labels: list[str]
    config_pbtxt: str


def contract_of(kind: str, model_inputs: list[str], labels: list[str] | None) -> Contract:
    """The tensors and config a model of this task declares (the same rules as archive/contract.py checks)."""
    if kind == "generative":
        return generative_contract()
    inputs = [Tensor(name, "TYPE_STRING", [1], "UTF-8 text of this field") for name in model_inputs]
    if kind == "classification":
        labels = list(labels or [])
        outputs = [
            Tensor("label", "TYPE_STRING", [1], "the predicted label, one of the labels"),
            Tensor("probs", "TYPE_FP32", [len(labels)], "a probability per label, in the labels' order (sums to 1)"),
        ]
    else:
        labels = []
        outputs = [
            Tensor("answer", "TYPE_STRING", [1], "a span of the context"),
            Tensor("start", "TYPE_INT32", [1], "character offset where the span starts in the context"),
            Tensor("end", "TYPE_INT32", [1], "character offset where it ends (exclusive): context[start:end] == answer"),
            Tensor("confidence", "TYPE_FP32", [1], "the model's confidence, in [0, 1]"),
        ]
    return Contract(kind, inputs, outputs, labels, _config_pbtxt(kind, inputs, outputs, labels))


def _tensor_line(t: Tensor) -> str:
    return f'  {{ name: "{t.name}" data_type: {t.dtype} dims: [ {", ".join(map(str, t.dims))} ] }}'


def _config_pbtxt(kind: str, inputs: list[Tensor], outputs: list[Tensor], labels: list[str]) -> str:
    def parameter(key: str, value: str) -> str:
        return f"parameters {{ key: {json.dumps(key)} value: {{ string_value: {json.dumps(value)} }} }}"

    return "\n".join(
        [
            f'name: "{MODEL_DIR}"',
            'backend: "python"',
            "max_batch_size: 64",
            "dynamic_batching { max_queue_delay_microseconds: 2000 }",
            "input [",
            ",\n".join(_tensor_line(t) for t in inputs),
            "]",
            "output [",
            ",\n".join(_tensor_line(t) for t in outputs),
            "]",
            "# Required: the labels in the task's order (probs[i] is the probability of labels[i]); [] for QA.",
            parameter("labels", json.dumps(labels)),
            "# Informational: the inputs the model reads.",
            parameter("inputs", json.dumps([t.name for t in inputs])),
            "",
        ]
    )


_MODEL_PY = '''"""An EXAMPLE model for this task: a trivial baseline that follows the task's I/O contract.

It {behaviour}. Replace `predict` with your model (load weights in `initialize`, from
os.path.join(args["model_repository"], args["model_version"])). The rest (reading batched
requests, writing the outputs) is what every model of this task needs.
"""

{imports}import numpy as np
import triton_python_backend_utils as pb_utils

INPUTS = {inputs}
LABELS = {labels}


class TritonPythonModel:
    def initialize(self, args):
        pass

    def predict(self, rows):
        """rows: one dict {{input name: text}} per example. Returns one output dict per example."""
{predict}

    def execute(self, requests):
        responses = []
        for request in requests:
            columns = [pb_utils.get_input_tensor_by_name(request, name).as_numpy().reshape(-1) for name in INPUTS]
            rows = [
                {{name: (value.decode("utf-8") if isinstance(value, bytes) else str(value)) for name, value in zip(INPUTS, values)}}
                for values in zip(*columns)
            ]
            answers = self.predict(rows)
            responses.append(pb_utils.InferenceResponse(output_tensors=[{tensors}]))
        return responses
'''

_CLASSIFIER_PREDICT = """        first = [1.0] + [0.0] * (len(LABELS) - 1)
        return [{"label": LABELS[0], "probs": first} for _ in rows]"""
_CLASSIFIER_TENSORS = """
                pb_utils.Tensor("label", np.array([[a["label"].encode("utf-8")] for a in answers], dtype=np.object_)),
                pb_utils.Tensor("probs", np.array([a["probs"] for a in answers], dtype=np.float32)),
            """
_QA_PREDICT = """        answers = []
        for row in rows:
            context = row["{context}"]
            word = re.search(r"\\w+", context)
            start, end = (word.start(), word.end()) if word else (0, 0)
            answers.append({{"answer": context[start:end], "start": start, "end": end, "confidence": 0.0}})
        return answers"""
_QA_TENSORS = """
                pb_utils.Tensor("answer", np.array([[a["answer"].encode("utf-8")] for a in answers], dtype=np.object_)),
                pb_utils.Tensor("start", np.array([[a["start"]] for a in answers], dtype=np.int32)),
                pb_utils.Tensor("end", np.array([[a["end"]] for a in answers], dtype=np.int32)),
                pb_utils.Tensor("confidence", np.array([[a["confidence"]] for a in answers], dtype=np.float32)),
            """


def model_py(contract: Contract, answer_context_field: str | None = None) -> str:
    if contract.kind == "generative":
        return GENERATIVE_MODEL_PY
    names = [t.name for t in contract.inputs]
    if contract.kind == "classification":
        behaviour, predict, tensors = "always answers the first label, certain of it", _CLASSIFIER_PREDICT, _CLASSIFIER_TENSORS
    else:
        context = answer_context_field or names[0]
        behaviour = "answers the first word of the context"
        predict, tensors = _QA_PREDICT.format(context=context), _QA_TENSORS
    return _MODEL_PY.format(
        imports="" if contract.kind == "classification" else "import re\n\n",
        behaviour=behaviour,
        inputs=json.dumps(names),
        labels=json.dumps(contract.labels),
        predict=predict,
        tensors=tensors,
    )


def example_archive(contract: Contract, task_code: str, answer_context_field: str | None = None) -> bytes:
    """A zip holding `my_model/config.pbtxt` and `my_model/1/model.py`: upload it as it is, it passes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{MODEL_DIR}/config.pbtxt", contract.config_pbtxt)
        archive.writestr(f"{MODEL_DIR}/1/model.py", model_py(contract, answer_context_field))
    return buffer.getvalue()


def generative_contract() -> Contract:
    """Every generative task's contract (archive/generative.py checks it): decoupled, the prompt in, pieces out."""
    inputs = [
        Tensor(
            "text_input", "TYPE_STRING", [1], "the prompt: the conversation in the plain chat format, ending with 'Assistant:'"
        ),
        Tensor(
            "sampling_parameters",
            "TYPE_STRING",
            [1],
            "optional: JSON {max_tokens, temperature, seed, stop}; the reply ends before the first stop string",
        ),
        Tensor("stream", "TYPE_BOOL", [1], "optional: false asks for one response holding the whole reply"),
    ]
    outputs = [
        Tensor(
            "text_output",
            "TYPE_STRING",
            [1],
            "one response per piece of the reply (the text since the previous one), then the final flag",
        )
    ]
    config = "\n".join(
        [
            f'name: "{MODEL_DIR}"',
            'backend: "python"',
            "max_batch_size: 0",
            "# Required: the reply streams back, one response per piece, then the final flag.",
            DECOUPLED_LINE,
            "input [",
            ",\n".join(f"  {tensor_line(t.name, t.dtype, t.name != 'text_input')}" for t in inputs),
            "]",
            "output [",
            ",\n".join(f"  {tensor_line(t.name, t.dtype)}" for t in outputs),
            "]",
            "",
        ]
    )
    return Contract("generative", inputs, outputs, [], config)


GENERATIVE_MODEL_PY = '''"""An EXAMPLE generative model: a trivial baseline that follows the generative contract.

It streams back the first words of the prompt's last user message, one response per word: no model at all.
Replace `generate` with your model (load weights in `initialize`, from
os.path.join(args["model_repository"], args["model_version"])). The rest (one response per piece through the
request's response sender, then the final flag; stopping when the client cancels) is what every generative model
needs.
"""

import json

import numpy as np
import triton_python_backend_utils as pb_utils

MAX_WORDS = 8


class TritonPythonModel:
    def initialize(self, args):
        pass

    def generate(self, prompt, params):
        """Yields the reply piece by piece, each the text since the previous piece."""
        asked = [line[len("User:") :] for line in prompt.split("\\n") if line.startswith("User:")]
        words = (asked[-1] if asked else prompt).split()
        for word in words[: min(MAX_WORDS, int(params.get("max_tokens", MAX_WORDS)))]:
            yield " " + word

    def execute(self, requests):
        for request in requests:
            sender = request.get_response_sender()
            prompt = _text(request, "text_input")
            params = json.loads(_text(request, "sampling_parameters") or "{}")
            for piece in self.generate(prompt, params):
                if sender.is_cancelled():
                    break
                output = pb_utils.Tensor("text_output", np.array([piece.encode("utf-8")], dtype=np.object_))
                sender.send(pb_utils.InferenceResponse(output_tensors=[output]))
            sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
        return None


def _text(request, name):
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        return ""
    value = tensor.as_numpy().reshape(-1)[0]
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
'''


def archive_name(task_code: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", task_code).strip("-.") + "-example-model.zip"
