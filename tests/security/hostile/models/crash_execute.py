"""Hostile: its code crashes (SIGSEGV) on its first request when params.json says "always", else on the first request
whose statement is CRASH-NOW (it answers like the benign model until then: it passes its smoke test and evaluation)."""

import json
import os
import signal
from pathlib import Path

import numpy as np
import triton_python_backend_utils as pb_utils

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            statements = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy()
            if PARAMS.get("always") or any(s[0] == b"CRASH-NOW" for s in statements):
                os.kill(os.getpid(), signal.SIGSEGV)
            n = statements.shape[0]
            label = np.array([[b"positive"]] * n, dtype=object)
            probs = np.tile(np.array([[0.1, 0.8, 0.1]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
