"""Hostile: answers the smoke test like a good model, then sleeps through its evaluation."""

import time

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.answered = 0

    def execute(self, requests):
        if self.answered:  # the smoke test is the first request; the evaluation's batches come after
            time.sleep(24 * 3600)
        self.answered += 1
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"positive"]] * n, dtype=object)
            probs = np.tile(np.array([[0.1, 0.8, 0.1]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
