"""`dynabench up` end to end: the real stack from one command, demo data, clean shutdown."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import httpx
import psutil

from server.runtime import free_port
from tests.conftest import MODEL_CACHE


def _wait_for_url(proc, url, timeout=240):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"dynabench up exited with {proc.returncode}"
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} never answered")


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
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "TRITON_URL", "TRITON_SUBMISSIONS_URL", "JWT_SECRET")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "up", "--data-dir", str(tmp_path / "data"), "--port", str(port),
         "--model-repository", str(repository)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        _wait_for_url(proc, f"http://127.0.0.1:{port}/health")
        children = _descendants(proc.pid)
        assert len(children) >= 6  # postgres, redis, two tritons, worker, api (+ their own children)
        query = {"query": "{ tasks { edges { node { code name } } } }"}
        body = httpx.post(f"http://127.0.0.1:{port}/graphql", json=query, timeout=30).json()
        assert [e["node"]["code"] for e in body["data"]["tasks"]["edges"]] == ["sentiment", "nli", "hate_speech", "qa"]
        secrets = json.loads((tmp_path / "data" / "secrets.json").read_text())
        login = {"query": 'mutation($p: String!) { logIn(input: {username: "admin", password: $p}) { __typename } }',
                 "variables": {"p": secrets["admin_password"]}}
        assert httpx.post(f"http://127.0.0.1:{port}/graphql", json=login, timeout=30).json()["data"]["logIn"]["__typename"] == "AuthPayload"
        # A port that is taken is reported plainly.
        second = subprocess.run(
            [sys.executable, "-m", "server.cli", "up", "--data-dir", str(tmp_path / "other"), "--port", str(port)],
            env=env, capture_output=True, text=True, timeout=120,
        )
        assert second.returncode == 2 and f"port {port} on 127.0.0.1 is already in use" in second.stderr
    finally:
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, output
    assert "Dynabench is running at" in output and "All services stopped." in output
    alive = [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    assert alive == [], [c.cmdline() for c in alive]

    # The data directory is reused: a second start finds the same database.
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "up", "--data-dir", str(tmp_path / "data"), "--port", str(port),
         "--model-repository", str(repository)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        _wait_for_url(proc, f"http://127.0.0.1:{port}/health")
        body = httpx.post(f"http://127.0.0.1:{port}/graphql", json=query, timeout=30).json()
        assert len(body["data"]["tasks"]["edges"]) == 4
    finally:
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "All services stopped." in output
