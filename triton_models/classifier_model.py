"""Triton python-backend model: a fine-tuned MiniLM classifier (built-in target model).

The one template of the classification models (sentiment_minilm, nli_minilm, hate_speech_minilm):
``dynabench build-models`` writes it as each model's ``1/model.py``. It is a file at the top of
triton_models/, never a folder there, because a Triton model repository may hold only model directories.

Generic for every classification task: the task's input fields and label order come from the
config parameters ``inputs`` and ``labels`` (JSON lists). Weights in ``<version dir>/weights/``
are written by ``dynabench build-models`` (server/modelbuild): the fine-tuned encoder and
tokenizer (``save_pretrained`` layout, loaded with ``AutoModel``/``AutoTokenizer``),
``classifier.safetensors`` (linear head over the masked mean of the last hidden states) and
``head.json`` (its label order). All requests of one ``execute`` call are tokenized together
and run as one forward pass.

Inputs:  one BYTES tensor per field, dims [1] (batched: [batch, 1]).
Outputs: ``label`` BYTES [1] (the label string), ``probs`` FP32 [NUM_LABELS] (softmax, label order) and
``embedding`` FP32 [HIDDEN] (what the head reads, scaled to length 1: the near-duplicate guard compares examples
by it; sent only when a request asks for it).
"""

import json
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np

try:
    import triton_python_backend_utils as pb_utils  # only inside Triton's python-backend stub
except ImportError:  # imported outside Triton (tests, build checks)
    pb_utils = None


def _param(config, key, default=None):
    value = config.get("parameters", {}).get(key)
    return value.get("string_value", default) if isinstance(value, dict) else default


def _decode(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


class TritonPythonModel:
    def initialize(self, args):
        import torch
        from safetensors.torch import load_file
        from transformers import AutoModel, AutoTokenizer

        self.torch = torch
        config = json.loads(args["model_config"])
        self.inputs = json.loads(_param(config, "inputs"))
        self.labels = json.loads(_param(config, "labels"))
        self.max_length = int(_param(config, "max_length", "256"))
        threads = int(_param(config, "num_threads", "0") or 0) or min(2, os.cpu_count() or 1)
        torch.set_num_threads(threads)
        weights = os.path.join(args["model_repository"], args["model_version"], "weights")
        with open(os.path.join(weights, "head.json"), encoding="utf-8") as fh:
            head = json.load(fh)
        self.tokenizer = AutoTokenizer.from_pretrained(weights, local_files_only=True)
        try:  # BERT-like encoders: skip the unused pooler
            self.encoder = AutoModel.from_pretrained(weights, add_pooling_layer=False, local_files_only=True)
        except TypeError:
            self.encoder = AutoModel.from_pretrained(weights, local_files_only=True)
        self.encoder.eval()
        tensors = load_file(os.path.join(weights, "classifier.safetensors"))
        self.weight, self.bias = tensors["weight"].float(), tensors["bias"].float()
        head_labels = head.get("labels") or self.labels
        if sorted(head_labels) != sorted(self.labels) or self.weight.shape[0] != len(self.labels):
            raise ValueError(f"weights were trained for labels {head_labels}, config lists {self.labels}")
        self.order = [head_labels.index(label) for label in self.labels]  # head row per config label

    def _read(self, request):
        columns = []
        for name in self.inputs:
            tensor = pb_utils.get_input_tensor_by_name(request, name)
            if tensor is None:
                raise ValueError(f"missing input tensor {name!r}")
            columns.append([_decode(v) for v in tensor.as_numpy().reshape(-1)])
        if len({len(c) for c in columns}) != 1:
            raise ValueError("input tensors have different batch sizes")
        return columns

    def predict(self, columns):
        """columns: one list of strings per input field -> (labels, probs [n, L], embeddings [n, H]; float32)."""
        torch = self.torch
        enc = self.tokenizer(*columns, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
        with torch.inference_mode():
            hidden = self.encoder(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
            logits = pooled @ self.weight.T + self.bias
            embeddings = torch.nn.functional.normalize(pooled, dim=-1).float().numpy()
        probs = torch.softmax(logits, dim=-1)[:, self.order].numpy().astype(np.float32)
        labels = [self.labels[i] for i in probs.argmax(axis=1)]
        return labels, probs, embeddings

    def execute(self, requests):
        responses = [None] * len(requests)
        batch = [[] for _ in self.inputs]
        spans = []
        for i, request in enumerate(requests):
            try:
                columns = self._read(request)
            except ValueError as exc:
                responses[i] = pb_utils.InferenceResponse(error=pb_utils.TritonError(str(exc)))
                continue
            start = len(batch[0])
            for acc, column in zip(batch, columns):
                acc.extend(column)
            spans.append((i, start, len(batch[0])))
        labels, probs, embeddings = [], np.zeros((0, len(self.labels)), np.float32), np.zeros((0, 0), np.float32)
        if spans and batch[0]:
            try:
                labels, probs, embeddings = self.predict(batch)
            except Exception as exc:  # noqa: BLE001 - answer with an error instead of crashing the stub
                for i, _, _ in spans:
                    responses[i] = pb_utils.InferenceResponse(error=pb_utils.TritonError(f"inference failed: {exc}"))
                return responses
        for i, start, end in spans:
            label_arr = np.array([s.encode("utf-8") for s in labels[start:end]], dtype=np.object_).reshape(-1, 1)
            responses[i] = pb_utils.InferenceResponse(
                output_tensors=[
                    pb_utils.Tensor("label", label_arr),
                    pb_utils.Tensor("probs", np.ascontiguousarray(probs[start:end], dtype=np.float32)),
                    pb_utils.Tensor("embedding", np.ascontiguousarray(embeddings[start:end], dtype=np.float32)),
                ]
            )
        return responses

    def finalize(self):
        self.encoder = None
