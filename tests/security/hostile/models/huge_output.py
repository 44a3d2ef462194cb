"""Hostile: answers every request with a label far larger than the sandbox lets out (100 MiB per example)."""

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"positive" + b" " * (100 << 20)]] * n, dtype=object)
            probs = np.tile(np.array([[0.0, 1.0, 0.0]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
