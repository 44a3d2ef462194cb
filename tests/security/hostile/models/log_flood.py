"""Hostile: prints params.json's "megabytes" of 1 MiB lines while it loads (a disk-filling attempt through the
logs), then answers a label no task has, so its smoke test fails."""

import json
import sys
from pathlib import Path

import numpy as np
import triton_python_backend_utils as pb_utils

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())


class TritonPythonModel:
    def initialize(self, args):
        line = "FLOOD" + "x" * ((1 << 20) - 6) + "\n"
        for _ in range(PARAMS["megabytes"]):
            sys.stdout.write(line)
        sys.stdout.write("LAST-WORDS: the flood is over\n")
        sys.stdout.flush()

    def execute(self, requests):
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"flooded"]] * n, dtype=object)
            probs = np.tile(np.array([[0.1, 0.8, 0.1]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
