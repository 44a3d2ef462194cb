"""Answers like the benign model, except the requests whose numbers params.json lists ("fail_calls"; "all": every
one after the smoke test), which it answers with an error, as a model whose backend is briefly unwell would."""

import json
from pathlib import Path

import numpy as np
import triton_python_backend_utils as pb_utils

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())


class TritonPythonModel:
    def initialize(self, args):
        self.calls = 0

    def execute(self, requests):
        self.calls += 1
        failing = self.calls > 1 if PARAMS["fail_calls"] == "all" else self.calls in PARAMS["fail_calls"]
        responses = []
        for request in requests:
            if failing:
                responses.append(pb_utils.InferenceResponse(error=pb_utils.TritonError(f"FLAKY call {self.calls}")))
                continue
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"positive"]] * n, dtype=object)
            probs = np.tile(np.array([[0.1, 0.8, 0.1]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
