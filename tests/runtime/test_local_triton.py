"""A real Triton started as a child on free loopback ports (no mocks): live, load, infer, the model venv, restarts and
load failures, a port in use."""

from __future__ import annotations

import importlib.metadata
import json
import sys
import textwrap
import urllib.request
from pathlib import Path

import numpy as np
import pytest
import tritonclient.http as triton_http

from server.runtime import LocalTriton, PortInUseError, ServiceStartError, prepare_triton_runtime
from tests.runtime.processes import listening_socket

IDENTITY_CONFIG = """
name: "identity"
backend: "python"
max_batch_size: 0
input [ { name: "INPUT0" data_type: TYPE_STRING dims: [ -1 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_STRING dims: [ -1 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
"""

IDENTITY_MODEL = """
import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            data = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
            out = pb_utils.Tensor("OUTPUT0", data.astype(np.object_))
            responses.append(pb_utils.InferenceResponse(output_tensors=[out]))
        return responses
"""

BROKEN_MODEL = """
class TritonPythonModel:
    def initialize(self, args):
        raise RuntimeError("this model is broken on purpose")

    def execute(self, requests):
        return []
"""

PROBE_MODEL = """
import importlib.util
import json
import os
import sys

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        import torch

        self.info = json.dumps({
            "prefix": sys.prefix,
            "numpy_file": np.__file__,
            "numpy_version": np.__version__,
            "torch_version": torch.__version__,
            "has_transformers": importlib.util.find_spec("transformers") is not None,
            "hf_offline": os.environ.get("HF_HUB_OFFLINE"),
        })

    def execute(self, requests):
        info = np.array([self.info.encode()], dtype=np.object_)
        return [pb_utils.InferenceResponse(output_tensors=[pb_utils.Tensor("INFO", info)]) for _ in requests]
"""


# --- Triton ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def triton_runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runtime = tmp_path_factory.mktemp("triton") / "runtime"
    prepare_triton_runtime(runtime)
    assert prepare_triton_runtime(runtime) == runtime  # second call is a no-op
    return runtime


@pytest.fixture
def model_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "models"
    for name, source in (("identity", IDENTITY_MODEL), ("broken", BROKEN_MODEL)):
        (repo / name / "1").mkdir(parents=True)
        (repo / name / "config.pbtxt").write_text(IDENTITY_CONFIG.replace('"identity"', f'"{name}"'))
        (repo / name / "1" / "model.py").write_text(textwrap.dedent(source))
    return repo


def _our_shm_regions(triton: LocalTriton) -> list[Path]:
    """Python-backend shared-memory regions left by this Triton instance (others may be running)."""
    return sorted(Path("/dev/shm").glob(f"{triton._shm_prefix}*"))


def _infer_identity(client: triton_http.InferenceServerClient, values: list[bytes]) -> list[bytes]:
    data = np.array(values, dtype=np.object_)
    inp = triton_http.InferInput("INPUT0", list(data.shape), "BYTES")
    inp.set_data_from_numpy(data)
    result = client.infer("identity", [inp], outputs=[triton_http.InferRequestedOutput("OUTPUT0")])
    return list(result.as_numpy("OUTPUT0"))


def test_triton_live_load_infer_and_venv(triton_runtime: Path, model_repo: Path) -> None:
    assert (triton_runtime / "backends" / "python" / "triton_python_backend_stub").exists()
    tr = LocalTriton(triton_runtime, model_repo)
    try:
        tr.start()
        assert tr.metrics_url == f"http://127.0.0.1:{tr.metrics_port}/metrics"
        client = triton_http.InferenceServerClient(url=tr.http_url)
        assert client.is_server_live()
        assert not client.is_model_ready("identity")  # explicit mode: nothing loaded yet
        client.load_model("identity")
        assert client.is_model_ready("identity")
        assert _infer_identity(client, [b"hello", "w\u00f6rld".encode()]) == [b"hello", "w\u00f6rld".encode()]

        # Files sent with the load request: the stub must use this venv (numpy<2, torch).
        config = {
            "name": "probe",
            "backend": "python",
            "max_batch_size": 0,
            "input": [{"name": "DUMMY", "data_type": "TYPE_INT32", "dims": [1]}],
            "output": [{"name": "INFO", "data_type": "TYPE_STRING", "dims": [1]}],
        }
        client.load_model("probe", config=json.dumps(config), files={"file:1/model.py": PROBE_MODEL.encode()})
        dummy = triton_http.InferInput("DUMMY", [1], "INT32")
        dummy.set_data_from_numpy(np.array([0], dtype=np.int32))
        info = json.loads(client.infer("probe", [dummy]).as_numpy("INFO")[0])
        assert Path(info["prefix"]) == Path(sys.prefix)
        assert info["numpy_file"].startswith(sys.prefix)
        assert info["numpy_version"] == np.__version__
        assert info["torch_version"] == importlib.metadata.version("torch")
        assert info["has_transformers"] is True
        assert info["hf_offline"] == "1"
        client.close()
        with urllib.request.urlopen(tr.metrics_url, timeout=5) as resp:
            assert "nv_inference_request_success" in resp.read().decode()
    finally:
        tr.stop()
    assert tr.poll() is not None and not tr.running
    assert _our_shm_regions(tr) == []


def test_triton_load_models_at_start_restart_and_failure(triton_runtime: Path, model_repo: Path, tmp_path: Path) -> None:
    log_path = tmp_path / "triton.log"
    with LocalTriton(triton_runtime, model_repo, load_models=["identity"], log_path=log_path) as tr:
        client = triton_http.InferenceServerClient(url=tr.http_url)
        assert client.is_model_ready("identity")
        ports = (tr.http_port, tr.grpc_port, tr.metrics_port)
        old_prefix = tr._shm_prefix
        tr.restart()  # with the client's keep-alive connection still open
        assert (tr.http_port, tr.grpc_port, tr.metrics_port) == ports
        assert list(Path("/dev/shm").glob(f"{old_prefix}*")) == []  # the stopped instance's region was removed
        assert len(_our_shm_regions(tr)) == 1
        client = triton_http.InferenceServerClient(url=tr.http_url)
        assert _infer_identity(client, [b"again"]) == [b"again"]
    assert log_path.exists()

    broken = LocalTriton(triton_runtime, model_repo, load_models=["broken"], name="Triton (sandbox)")
    with pytest.raises(ServiceStartError) as info:
        broken.start()
    assert str(info.value).startswith("Triton (sandbox): ")
    assert "broken on purpose" in str(info.value)
    assert not broken.running
    assert _our_shm_regions(tr) == []


def test_triton_port_in_use(triton_runtime: Path, model_repo: Path) -> None:
    sock, taken = listening_socket()
    with sock, pytest.raises(PortInUseError, match="--triton-grpc-port"):
        LocalTriton(triton_runtime, model_repo, grpc_port=taken).start()
