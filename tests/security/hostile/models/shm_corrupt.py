"""Hostile: answers its first request, then overwrites its own python-backend shared-memory region (the only file
in its /dev/shm), the channel its Triton reads every answer through. In a shared Triton this aborted the whole
server (every submission's); here it must take down only its own Triton."""

import mmap
import os

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.calls = 0

    def execute(self, requests):
        self.calls += 1
        if self.calls > 1:
            for name in os.listdir("/dev/shm"):
                with open(os.path.join("/dev/shm", name), "r+b") as region:
                    size = os.fstat(region.fileno()).st_size
                    view = mmap.mmap(region.fileno(), size)
                    view[:] = b"\xa5" * size
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"positive"]] * n, dtype=object)
            probs = np.tile(np.array([[0.1, 0.8, 0.1]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
