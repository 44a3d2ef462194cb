"""The submissions sandbox and the local stack's defence in depth, against real processes.

A sandboxed Triton on its own (model control by key, nested stub sandbox, memory measured inside),
PostgreSQL with SCRAM (a trust cluster from an older data directory is converted), Redis with a
password, the secrets file, and `dynabench up` refusing uploads when the sandbox cannot start.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import asyncpg
import httpx
import numpy as np
import psutil
import pytest
import redis
import tritonclient.http as triton_http
from tritonclient.utils import InferenceServerException

from server.cli.local_stack import _secrets
from server.core.triton_clients import CONTROL_HEADER, triton_client
from server.runtime import LocalPostgres, LocalRedis, LocalTriton, prepare_triton_runtime
from server.runtime.sandboxed_triton import SandboxedTriton
from server.sandbox.bwrap import SandboxLimits
from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import upload_model
from tests.conftest import GraphQLClient

IDENTITY_CONFIG = {
    "name": "echo",
    "backend": "python",
    "max_batch_size": 0,
    "input": [{"name": "INPUT0", "data_type": "TYPE_STRING", "dims": [-1]}],
    "output": [{"name": "OUTPUT0", "data_type": "TYPE_STRING", "dims": [-1]}],
    "instance_group": [{"kind": "KIND_CPU", "count": 1}],
}
# Reports what the model can see of its surroundings as its answer.
SEEING_MODEL = b"""
import json, os
import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.block = bytearray(64 << 20)  # resident: the sandbox measures it
        self.block[:: 4096] = b"x" * len(self.block[:: 4096])
        self.seen = json.dumps({
            "uid": os.getuid(), "pid": os.getpid(), "proc": sorted(os.listdir("/proc")),
            "shm": len(os.listdir("/dev/shm")), "run": os.listdir("/run"), "tmp": os.listdir("/tmp"),
        })

    def execute(self, requests):
        return [pb_utils.InferenceResponse(output_tensors=[
            pb_utils.Tensor("OUTPUT0", np.array([self.seen.encode()], dtype=np.object_))]) for _ in requests]
"""


@pytest.fixture(scope="module")
def sandboxed(tmp_path_factory):
    base = tmp_path_factory.mktemp("sandbox")
    triton = SandboxedTriton(
        prepare_triton_runtime(base / "runtime"), base / "state", "the-control-key", limits=SandboxLimits(stub_timeout_s=12)
    )
    triton.start()
    try:
        yield triton
    finally:
        triton.stop()


def _load_and_ask(url: str, key: str, name: str) -> dict:
    async def go():
        client = triton_client(url, key)
        try:
            config = json.dumps({**IDENTITY_CONFIG, "name": name})
            await client.load_model(name, config=config, files={"file:1/model.py": SEEING_MODEL})
            tensor = triton_http.InferInput("INPUT0", [1], "BYTES")
            tensor.set_data_from_numpy(np.array([b"?"], dtype=object))
            result = await client.infer(name, [tensor])
            return json.loads(result.as_numpy("OUTPUT0")[0].decode())
        finally:
            await client.close()

    return asyncio.run(go())


def test_models_load_only_with_the_control_key_and_each_runs_nested_and_alone(sandboxed):
    async def without_key():
        client = triton_client(sandboxed.url)
        try:
            await client.load_model("echo", config=json.dumps(IDENTITY_CONFIG), files={"file:1/model.py": SEEING_MODEL})
        finally:
            await client.close()

    with pytest.raises(InferenceServerException) as refused:
        asyncio.run(without_key())
    assert "dynabench-control-key" in str(refused.value)

    first = _load_and_ask(sandboxed.url, "the-control-key", "first")
    second = _load_and_ask(sandboxed.url, "the-control-key", "second")
    for seen in (first, second):
        # Its own PID namespace (only bwrap's init and itself), an empty /proc, no relay socket in
        # /run, its own shared-memory region only, a private /tmp holding its own folder only.
        assert seen["pid"] == 2 and seen["proc"] == ["cpuinfo", "meminfo"], seen
        # (a Python installation or venv under /tmp, as in a CI checkout, is bound in again, read-only)
        assert seen["run"] == [] and seen["shm"] == 1 and len(_own_folders(seen["tmp"])) == 1, seen
    assert _own_folders(first["tmp"]) != _own_folders(second["tmp"])
    assert sandboxed.model_ready("first") and sandboxed.model_ready("second")


def _listening(process: psutil.Process) -> bool:
    try:
        return any(c.status == psutil.CONN_LISTEN for c in process.net_connections(kind="tcp"))
    except psutil.NoSuchProcess:
        return False


def _tritons(sandbox_pid: int) -> set[int]:
    # This sandbox's only: other tests' Tritons start and stop beside it in the same run.
    return {p.pid for p in psutil.Process(sandbox_pid).children(recursive=True) if _name(p) == "tritonserver"}


def _name(process: psutil.Process) -> str:
    try:
        return process.name()
    except psutil.NoSuchProcess:  # ended since it was listed
        return ""


def test_unloading_a_model_whose_triton_stopped_answering_succeeds_and_it_can_be_loaded_again(sandboxed):
    # Its Triton shutting down (its stubs' finalize slow to end): its HTTP port is closed while the process lives on, so
    # the relay cannot reach it and no crash is reported yet. An unload is done all the same (it is stopped here).
    slow_to_end = SEEING_MODEL + b"\n    def finalize(self):\n        __import__('time').sleep(20)\n"
    before = _tritons(sandboxed.pid)

    async def go() -> None:
        client = triton_client(sandboxed.url, "the-control-key")
        try:
            config = json.dumps({**IDENTITY_CONFIG, "name": "fading"})
            await client.load_model("fading", config=config, files={"file:1/model.py": slow_to_end})
            [own] = _tritons(sandboxed.pid) - before  # the model's own Triton (one per model)
            triton = psutil.Process(own)
            triton.terminate()
            # Until its HTTP port is closed while the process lives on (its stubs still finalizing): the state under test.
            await asyncio.to_thread(wait_until, lambda: not _listening(triton), timeout=15, interval=0.05)
            assert triton.is_running()
            await client.unload_model("fading")  # answered "stopped answering in the sandbox" (400) before
        finally:
            await client.close()

    asyncio.run(go())
    assert not sandboxed.model_ready("fading")
    assert _load_and_ask(sandboxed.url, "the-control-key", "fading")["pid"] == 2


def _own_folders(tmp_entries: list[str]) -> list[str]:
    from server.sandbox.bwrap import python_roots

    roots = {Path(root).parts[2] for root in python_roots() if Path(root).parts[1:2] == ("tmp",)}
    return [entry for entry in tmp_entries if entry not in roots]


def test_peak_memory_is_measured_inside_the_sandbox(sandboxed):
    _load_and_ask(sandboxed.url, "the-control-key", "measured")
    peak = sandboxed.peak_memory_bytes("measured")
    assert peak > 64 << 20  # the model keeps 64 MiB resident, plus the interpreter
    assert sandboxed.peak_memory_bytes("no_such_model") == 0


def test_the_sandbox_runs_unprivileged_with_no_host_port(sandboxed):
    # bwrap itself (and its init) keep root's uid to set the sandbox up; everything they start does not.
    tree = psutil.Process(sandboxed.pid).children(recursive=True)
    inside = [p for p in tree if not p.name().startswith("bwrap")]
    assert any("/sandbox/agent" in p.cmdline() for p in inside) and any("tritonserver" in p.name() for p in inside)
    # Its limits reach Triton: here the stub timeout (SANDBOX_STUB_TIMEOUT_S).
    triton_argv = next(p.cmdline() for p in inside if "tritonserver" in p.name())
    assert "--backend-config=python,stub-timeout-seconds=12" in triton_argv
    assert SandboxLimits.from_env({"SANDBOX_STUB_TIMEOUT_S": "15"}).stub_timeout_s == 15
    assert SandboxLimits.from_env({}).stub_timeout_s == 30
    if os.geteuid() == 0:
        assert {p.uids().real for p in inside} == {65534}
        assert all(p.status() == psutil.STATUS_ZOMBIE or _no_capabilities(p.pid) for p in inside)
    listening = [c for p in [psutil.Process(sandboxed.pid), *tree] for c in p.net_connections(kind="inet")]
    assert [c for c in listening if c.status == psutil.CONN_LISTEN and c.laddr.ip != "127.0.0.1"] == []
    assert stat.S_IMODE(Path(sandboxed.run_dir).stat().st_mode) == 0o700


def _no_capabilities(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status").read_text()
    return all(int(line.split()[1], 16) == 0 for line in status.splitlines() if line.startswith(("CapEff", "CapPrm")))


def test_postgres_uses_scram_and_converts_a_trust_cluster(tmp_path):
    old = LocalPostgres(tmp_path / "pg", durable=False)  # as an older `dynabench up` made it: trust
    old.start()
    old.stop()
    server = LocalPostgres(tmp_path / "pg", durable=False, password="s3cret-pass")
    server.start()
    try:

        async def connect(dsn):
            connection = await asyncpg.connect(dsn)
            await connection.close()

        asyncio.run(connect(server.dsn))
        no_password = server.dsn.replace(":s3cret-pass@", "@")
        with pytest.raises((asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError)):
            asyncio.run(connect(no_password))
        hba = (server.pgdata / "pg_hba.conf").read_text()
        assert "trust" not in [line.split()[-1] for line in hba.splitlines() if line.strip() and not line.startswith("#")]
    finally:
        server.stop()


def test_redis_requires_its_password(tmp_path):
    server = LocalRedis(tmp_path / "redis", password="r3dis-pass")
    server.start()
    try:
        assert redis.Redis.from_url(server.url).ping()
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(host="127.0.0.1", port=server.port).ping()
        assert "r3dis-pass" not in " ".join(server.process.args)  # not on the command line
    finally:
        server.stop()


def test_target_triton_model_control_needs_the_key(tmp_path):
    from server.runtime.triton import restricted_control

    (tmp_path / "repo").mkdir()
    server = LocalTriton(prepare_triton_runtime(tmp_path / "rt"), tmp_path / "repo", extra_args=restricted_control("k3y"))
    server.start()
    try:
        client = triton_http.InferenceServerClient(server.http_url)
        with pytest.raises(InferenceServerException, match="dynabench-control-key"):
            client.unload_model("anything")
        with pytest.raises(InferenceServerException, match="dynabench-control-key"):
            client.get_model_repository_index()
        client.close()
    finally:
        server.stop()


def test_secrets_file_is_private_and_gains_missing_secrets(tmp_path):
    (tmp_path / "secrets.json").write_text(json.dumps({"jwt_secret": "kept", "admin_password": "kept-too"}))
    (tmp_path / "secrets.json").chmod(0o644)
    values = _secrets(tmp_path)
    assert values["jwt_secret"] == "kept" and values["admin_password"] == "kept-too"
    assert {"postgres_password", "redis_password", "triton_control_key"} <= set(values)
    assert stat.S_IMODE((tmp_path / "secrets.json").stat().st_mode) == 0o600
    assert json.loads((tmp_path / "secrets.json").read_text()) == values


def test_up_without_a_working_sandbox_refuses_uploads(tmp_path, target_models):
    # `dynabench up` in a child process: an in-process stack would take over this session's environment.
    import shutil
    import signal

    from server.runtime import free_port
    from tests.conftest import MODEL_CACHE
    from tests.test_up import _Up

    # One quick model to serve (the word-overlap baseline, no torch): only the sandbox matters here.
    shutil.copytree(MODEL_CACHE / target_models["qa"], tmp_path / "models" / target_models["qa"])
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "TRITON_URL", "TRITON_SUBMISSIONS_URL")}
    env["SANDBOX_BWRAP"] = "/usr/bin/false"  # a bwrap that cannot start anything
    up = _Up(["--data-dir", str(tmp_path / "data"), "--port", str(port), "--model-repository", str(tmp_path / "models")], env)
    try:
        up.wait_until_running()
        assert "the sandbox for uploaded models could not start" in up.output(), up.output()
        api = GraphQLClient(f"http://127.0.0.1:{port}")
        token = api.sign_up("uploader")
        result = upload_model(api, token, "sentiment", "never-run", b"not even read")
        assert result["__typename"] == "ServiceUnavailableError", result
        assert "sandbox" in result["message"] and "false" not in result["message"]
        assert httpx.get(f"http://127.0.0.1:{port}/health").status_code in (200, 503)  # still answering
    finally:
        code, output = up.stop(signal.SIGINT)
    assert code == 0, output


def test_the_agent_alone_measures_memory_over_tcp_as_in_compose(tmp_path):
    """compose runs the agent in the submissions container (no nested sandbox there): TCP relay + statistics."""
    import subprocess
    import sys
    import time

    from server.runtime import free_port
    from server.runtime.triton import triton_environment
    from server.sandbox.bwrap import AGENT

    runtime = prepare_triton_runtime(tmp_path / "rt")
    relay, stats = free_port(), free_port()
    agent = subprocess.Popen(
        [
            sys.executable,
            str(AGENT),
            f"--listen=tcp:127.0.0.1:{relay}",
            f"--stats-listen=tcp:127.0.0.1:{stats}",
            f"--log-dir={tmp_path / 'logs'}",
            "--",
            str(runtime / "bin" / "tritonserver"),
            f"--model-repository={tmp_path / 'models'}",
            "--model-control-mode=explicit",
            f"--backend-directory={runtime / 'backends'}",
            "--allow-metrics=false",
        ],
        stdin=subprocess.PIPE,
        env=triton_environment(),
        cwd=tmp_path,
    )
    agent.stdin.write(b"compose-key\n")
    agent.stdin.close()
    try:
        for _ in range(300):  # a guard against hanging, not a timing assertion
            assert agent.poll() is None
            try:
                if httpx.get(f"http://127.0.0.1:{relay}/v2/health/live", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        _load_and_ask(f"127.0.0.1:{relay}", "compose-key", "in_compose")
        answer = httpx.get(f"http://127.0.0.1:{stats}/memory/in_compose", timeout=10).json()
        assert answer["peak_bytes"] > 64 << 20
        # Killing a model's processes (the worker's way out of code that never returns) needs the key.
        stubs = [p for p in psutil.process_iter(["cmdline"]) if "in_compose_0_0" in (p.info["cmdline"] or ())]
        assert stubs
        refused = httpx.post(f"http://127.0.0.1:{stats}/kill/in_compose", headers={CONTROL_HEADER: "wrong"}, timeout=10)
        assert refused.status_code == 403 and all(p.is_running() for p in stubs)
        # The model's own log (its Triton's output) and the list of models need the key too.
        assert httpx.get(f"http://127.0.0.1:{stats}/log/in_compose", timeout=10).status_code == 403
        log = httpx.get(f"http://127.0.0.1:{stats}/log/in_compose", headers={CONTROL_HEADER: "compose-key"}, timeout=10)
        assert log.status_code == 200 and "in_compose" in log.json()["tail"]
        assert httpx.get(f"http://127.0.0.1:{stats}/models", timeout=10).status_code == 403
        killed = httpx.post(f"http://127.0.0.1:{stats}/kill/in_compose", headers={CONTROL_HEADER: "compose-key"}, timeout=10)
        assert killed.status_code == 200 and killed.json()["killed"] == len(stubs)
        wait_until(lambda: all(not p.is_running() or p.status() == psutil.STATUS_ZOMBIE for p in stubs), timeout=30)
        # Killed on the host's word: its Triton went with it, and it is not listed as stopped by the agent.
        models = httpx.get(f"http://127.0.0.1:{stats}/models", headers={CONTROL_HEADER: "compose-key"}, timeout=10).json()
        assert models == {"models": {}, "stopped": {}}, models
    finally:
        agent.terminate()
        agent.wait(30)
