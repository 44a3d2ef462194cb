"""Hostile: a correct answer to its first request (the smoke test), then answers without its `probs` output
(malformed tensors) to every evaluation batch. It must fail with a message that says so, not wait for a retry."""

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.calls = 0

    def execute(self, requests):
        self.calls += 1
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"positive"]] * n, dtype=object)
            probs = np.tile(np.array([[0.1, 0.8, 0.1]], dtype=np.float32), (n, 1))
            tensors = [pb_utils.Tensor("label", label)]
            if self.calls == 1:
                tensors.append(pb_utils.Tensor("probs", probs))
            responses.append(pb_utils.InferenceResponse(tensors))
        return responses
