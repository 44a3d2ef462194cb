"""`dynabench up` end to end: the real stack from one command, demo data, clean shutdown."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import httpx
import psutil

from server.runtime import free_port
from tests.conftest import MODEL_CACHE


class _Up:
    """`dynabench up` as a child whose output is collected by a thread while the test goes on."""

    def __init__(self, args, env):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "up", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def pid(self):
        return self.proc.pid

    def wait_until_running(self, timeout=240):
        # Users wait for this line, not for /health: only after it is a signal a normal stop (exit 0).
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any("Dynabench is running at" in line for line in self.lines):
                return
            assert self.proc.poll() is None, f"dynabench up exited with {self.proc.returncode}: {self.output()}"
            time.sleep(0.2)
        raise AssertionError(f"dynabench up never said it was running: {self.output()}")

    def stop(self, sig):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=120)
        self._reader.join(timeout=30)
        return self.proc.returncode, self.output()

    def output(self):
        return "".join(self.lines)


def _descendants(pid):
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def test_up_serves_the_four_tasks_and_stops_everything_on_sigint(tmp_path, target_models):
    # Reuse the test session's built models so this test does not train again.
    repository = tmp_path / "models"
    shutil.copytree(MODEL_CACHE, repository)
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "TRITON_URL", "TRITON_SUBMISSIONS_URL", "JWT_SECRET")
    }
    proc = _Up(["--data-dir", str(tmp_path / "data"), "--port", str(port), "--model-repository", str(repository)], env)
    try:
        proc.wait_until_running()
        children = _descendants(proc.pid)
        assert len(children) >= 6  # postgres, redis, two tritons, worker, api (+ their own children)
        query = {"query": "{ tasks { edges { node { code name } } } }"}
        body = httpx.post(f"http://127.0.0.1:{port}/graphql", json=query, timeout=30).json()
        assert [e["node"]["code"] for e in body["data"]["tasks"]["edges"]] == [
            "sentiment",
            "nli",
            "hate_speech",
            "qa",
            "chat_demo",
        ]
        secrets = json.loads((tmp_path / "data" / "secrets.json").read_text())
        login = {
            "query": 'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { __typename } }',
            "variables": {"p": secrets["admin_password"]},
        }
        assert (
            httpx.post(f"http://127.0.0.1:{port}/graphql", json=login, timeout=30).json()["data"]["logIn"]["__typename"]
            == "AuthPayload"
        )
        # A port that is taken is reported plainly.
        second = subprocess.run(
            [sys.executable, "-m", "server.cli", "up", "--data-dir", str(tmp_path / "other"), "--port", str(port)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 2 and f"port {port} on 127.0.0.1 is already in use" in second.stderr
    finally:
        returncode, output = proc.stop(signal.SIGINT)
    assert returncode == 0, output
    assert "Dynabench is running at" in output and "All services stopped." in output
    alive = [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    assert alive == [], [c.cmdline() for c in alive]

    # The data directory is reused: a second start finds the same database.
    proc = _Up(["--data-dir", str(tmp_path / "data"), "--port", str(port), "--model-repository", str(repository)], env)
    try:
        proc.wait_until_running()
        body = httpx.post(f"http://127.0.0.1:{port}/graphql", json=query, timeout=30).json()
        assert len(body["data"]["tasks"]["edges"]) == 5
    finally:
        returncode, output = proc.stop(signal.SIGTERM)
    assert returncode == 0 and "All services stopped." in output, output
