"""Shared by tests/security/test_hostile_models.py: archives of the hostile models in ./models, one benign
submission for the whole module, and the checks that the platform and the benign submission still serve."""

from __future__ import annotations

import io
import json
import os
import re
import tarfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import numpy as np
import psutil
from tritonclient.http import InferInput, InferRequestedOutput

from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import model_status, upload_model
from tests.conftest import run_sql, submissions_triton

MODELS = Path(__file__).resolve().parent / "models"
CONFIG = """name: "{name}"
backend: "python"
max_batch_size: 8
input [ {{ name: "statement" data_type: TYPE_STRING dims: [ 1 ] }} ]
output [ {{ name: "label" data_type: TYPE_STRING dims: [ 1 ] }}, {{ name: "probs" data_type: TYPE_FP32 dims: [ 3 ] }} ]
parameters {{ key: "task" value: {{ string_value: "sentiment" }} }}
parameters {{ key: "labels" value: {{ string_value: "[\\"negative\\", \\"positive\\", \\"neutral\\"]" }} }}
"""
TERMINAL = ("deployed", "evaluated", "failed")
PROBE = re.compile(r"([a-z0-9-]+)=(BLOCKED|OPEN)\(")


def archive(source: str, params: dict[str, Any], name: str = "hostile", replace: dict[str, str] | None = None) -> bytes:
    """A model archive: config.pbtxt, 1/model.py (models/<source>.py) and 1/params.json."""
    code = (MODELS / f"{source}.py").read_text()
    for old, new in (replace or {}).items():
        code = code.replace(old, new)
    entries = {
        f"{name}/config.pbtxt": CONFIG.format(name=name).encode(),
        f"{name}/1/model.py": code.encode(),
        f"{name}/1/params.json": json.dumps(params).encode(),
    }
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path, data in entries.items():
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def service_addresses(stack) -> dict[str, list]:
    """[host, port] of each of the platform's services a sandboxed probe must not reach."""

    def host_port(url: str) -> list:
        parsed = urlparse(url if "://" in url else f"tcp://{url}")
        return [parsed.hostname, parsed.port]

    return {
        "postgres": host_port(stack.env["DATABASE_URL"]),
        "redis": host_port(stack.env["REDIS_URL"]),
        "api": host_port(stack.api_url),
        "target-triton": host_port(stack.env["TRITON_URL"]),
        **{f"worker-metrics-{i}": host_port(url) for i, url in enumerate(stack.worker_metrics_urls)},
    }


def probe_results(message: str) -> dict[str, str]:
    """The probes a model listed in its exception ("name=BLOCKED(...)" or "name=OPEN(...)")."""
    return dict(PROBE.findall(message))


# The worker that runs this module's jobs gives up on a model's answers sooner than the session's worker (whose
# generous limits suit real models evaluated on a busy machine, tests/conftest.py SESSION_LIMITS) and than production
# (600 s / 120 s / 300 s): the models that never answer wait these out. A toy model loads in seconds and answers in
# milliseconds, and the huge output takes a few seconds to make and cut. The load limit stays above the memory bomb's
# worst case: when the kernel kills its stub rather than failing its allocation, the load ends only when Triton finds
# the stub unhealthy (the session's SANDBOX_STUB_TIMEOUT_S, 15 s).
WORKER_TIMEOUTS = {
    "MODEL_LOAD_TIMEOUT_S": "45",
    "SMOKE_TEST_TIMEOUT_S": "15",
    "EVALUATION_BATCH_TIMEOUT_S": "15",
    "EVALUATION_RETRY_S": "2",  # an evaluation that lost its model's answers is tried again soon
    # Three healthy submissions stay loaded beside the hostile one under test (production keeps 3 by default, and
    # would unload the least recently used idle one to make room).
    "SUBMISSIONS_MAX_LOADED": "6",
}


def timeout_setting(name: str, default: float) -> float:
    """The limit the module's worker applies (its WORKER_TIMEOUTS, else the session's environment, else `default`)."""
    return float(WORKER_TIMEOUTS.get(name) or os.environ.get(name, default))


@dataclass
class Submitted:
    model_id: str
    triton_name: str


class Arena:
    """One researcher, one benign submission, and the hostile ones uploaded one after another."""

    def __init__(self, stack, api, token: str) -> None:
        self.stack, self.api, self.token = stack, api, token
        self.benign: Submitted | None = None
        self.benign_marker = ""
        # The worker's own guards end every deployment; these only stop a broken test from hanging.
        self.deploy_guard = timeout_setting("MODEL_LOAD_TIMEOUT_S", 600) + timeout_setting("SMOKE_TEST_TIMEOUT_S", 120) + 180
        self.evaluation_guard = 2 * timeout_setting("EVALUATION_BATCH_TIMEOUT_S", 300) + 180

    def upload(self, name: str, data: bytes) -> Submitted:
        result = upload_model(self.api, self.token, "sentiment", name, data)
        assert result["__typename"] == "ModelUploaded", result
        model_id = result["model"]["id"]
        triton_name = run_sql("SELECT triton_name FROM models WHERE name = $1", name)[0]["triton_name"]
        return Submitted(model_id, triton_name)

    def status(self, model: Submitted) -> dict:
        return model_status(self.api, self.token, model.model_id)

    def settle(self, model: Submitted, until: tuple[str, ...] = TERMINAL) -> dict:
        """The model's status once the worker is done with it (by default: with its deployment)."""
        guard = self.deploy_guard + (self.evaluation_guard if "deployed" not in until else 0)
        wait_until(lambda: self.status(model)["status"] in until, timeout=guard, interval=0.5)
        return self.status(model)

    def failure(self, model: Submitted, until: tuple[str, ...] = TERMINAL) -> str:
        """The hostile model ended failed; the last log entry (what the researcher reads) says why."""
        status = self.settle(model, until)
        assert status["status"] == "failed", status
        log = status["statusLog"]
        assert log and log[-1]["status"] == "failed", log
        return log[-1]["message"]

    def benign_answer(self) -> tuple[str, list[float]]:
        assert self.benign is not None
        statement = InferInput("statement", [1, 1], "BYTES")
        statement.set_data_from_numpy(np.array([[b"a fine day"]], dtype=np.object_))
        outputs = [InferRequestedOutput("label"), InferRequestedOutput("probs")]
        result = submissions_triton(self.stack).infer(self.benign.triton_name, [statement], outputs=outputs)
        label = result.as_numpy("label")[0][0]
        return (label.decode() if isinstance(label, bytes) else str(label)), [
            round(float(p), 3) for p in result.as_numpy("probs")[0]
        ]

    def assert_platform_serves(self) -> None:
        """GET /health answers 200 with every service ok; the benign submission is ready and answers."""
        response = httpx.get(f"{self.stack.api_url}/health", timeout=30)
        assert response.status_code == 200, response.text
        services = response.json()["services"]
        assert all(check["ok"] for check in services.values()), services
        assert self.benign is not None
        assert submissions_triton(self.stack).is_model_ready(self.benign.triton_name)
        assert self.benign_answer() == ("positive", [0.1, 0.8, 0.1])
        assert self.status(self.benign)["status"] in ("deployed", "evaluated")

    def secrets(self) -> list[str]:
        values = json.loads((self.stack.data_dir / "secrets.json").read_text()).values()
        return [str(v) for v in values if len(str(v)) >= 16]

    def assert_no_secret_in(self, *texts: str) -> None:
        for secret in self.secrets():
            assert all(secret not in text for text in texts), "a secret reached a place a researcher can read"

    def sandbox_processes(self) -> list[psutil.Process]:
        """Every process of this stack's sandbox (bubblewrap and all it started, nested sandboxes included)."""
        pid = self.stack.triton_submissions.pid
        try:
            return psutil.Process(pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def instances_of(self, model: Submitted) -> list[int]:
        """Processes running the model's code: python-backend stubs (and their forks) name the instance
        (``<model>_<group>_<n>``) in their argv."""
        prefix = f"{model.triton_name}_"
        found = []
        for process in self.sandbox_processes():
            try:
                argv = process.cmdline()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            if any(a.startswith(prefix) and a[len(prefix) :].replace("_", "").isdigit() for a in argv):
                found.append(process.pid)
        return found

    def wait_code_gone(self, model: Submitted, guard: float = 180) -> None:
        """Nothing of a failed model keeps running: the worker gave up on it, so must the sandbox (the guard is
        generous; it only bounds how long the test waits for the processes to go)."""
        try:
            wait_until(lambda: not self.instances_of(model), timeout=guard, interval=0.5)
        except AssertionError:
            left = []
            for pid in self.instances_of(model):
                try:
                    process = psutil.Process(pid)
                    left.append(f"{pid} {process.name()} ({process.status()}, {process.cpu_times().user:.0f} s CPU)")
                except psutil.NoSuchProcess:
                    continue
            raise AssertionError(
                f"{model.triton_name} failed, yet {guard:g} s later its code still runs in the sandbox: {left}"
            ) from None


def processes_with(marker: str) -> list[int]:
    """Any process on this machine whose argv mentions ``marker`` (unique to one test)."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if any(marker in a for a in process.info["cmdline"] or ()):
            found.append(process.pid)
    return found


class Hammer:
    """Asks the given submissions for answers, one after another, for as long as the `with` block runs (as the
    rounds they judge would): every answer that is not the benign one is recorded in ``errors``."""

    def __init__(self, arena: Arena, models: list[Submitted]) -> None:
        self.arena, self.models = arena, models
        self.calls, self.errors = 0, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        client = submissions_triton(self.arena.stack)
        statement = InferInput("statement", [1, 1], "BYTES")
        statement.set_data_from_numpy(np.array([[b"a fine day"]], dtype=np.object_))
        while not self._stop.is_set():
            for model in self.models:
                try:
                    result = client.infer(model.triton_name, [statement], outputs=[InferRequestedOutput("label")])
                    if result.as_numpy("label")[0][0] != b"positive":
                        self.errors.append(f"{model.triton_name}: {result.as_numpy('label')}")
                except Exception as exc:  # noqa: BLE001 — every failure is what this counts
                    self.errors.append(f"{model.triton_name}: {type(exc).__name__}: {exc}")
                self.calls += 1

    def __enter__(self) -> Hammer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join(timeout=60)
