"""A well-behaved sentiment submission: always "positive" with probs [0.1, 0.8, 0.1].

The marker below lets the hostile probes look for this file's content wherever they can read.
"""

import json
from pathlib import Path

import numpy as np
import triton_python_backend_utils as pb_utils

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())
MARKER = "BENIGN-MARKER-PLACEHOLDER"  # the archive builder replaces this with the session's marker


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"positive"]] * n, dtype=object)
            probs = np.tile(np.array([[0.1, 0.8, 0.1]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
