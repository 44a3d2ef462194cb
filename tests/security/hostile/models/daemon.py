"""Hostile: starts a daemon (double fork, setsid, signals ignored, a unique marker in its argv) meant to
outlive the model, loads fine, and answers with a label that fails the smoke test, so the worker unloads
it. The label says whether the daemon was alive when the smoke test ran."""

import json
import os
from pathlib import Path

import numpy as np
import triton_python_backend_utils as pb_utils

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())
SCRIPT = "trap '' HUP INT TERM; while :; do sleep 1; done"


def daemonize():
    read, write = os.pipe()
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            os.execv("/bin/sh", ["/bin/sh", "-c", SCRIPT, PARAMS["marker"]])
        os.write(write, str(pid).encode())
        os._exit(0)
    os.close(write)
    pid = int(os.read(read, 32))
    os.wait()
    return pid


class TritonPythonModel:
    def initialize(self, args):
        self.daemon = daemonize()

    def execute(self, requests):
        try:
            os.kill(self.daemon, 0)
            state = b"daemon-alive"
        except OSError:
            state = b"daemon-gone"
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[state]] * n, dtype=object)
            probs = np.tile(np.array([[0.0, 1.0, 0.0]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
