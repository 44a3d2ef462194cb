"""Fixtures of the authorization tests: one world per matrix module (see world.py), and extra API processes
with their own settings, started on the session's services the way a second replica would run."""

import sys
import uuid
from contextlib import contextmanager

import httpx
import pytest

from server.runtime import free_port
from tests.api.examples_helpers import wait_until
from tests.authz.world import build_world, load_qa_target


@pytest.fixture(scope="module")
def world(stack, request):
    load_qa_target(stack, request)
    # Rounds are opened (and their targets replaced) only with models that answer: the scratch task's own.
    request.getfixturevalue("target_models")
    built = build_world(stack)
    yield built
    built.api.http.close()


def _healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/health", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def extra_api(stack, env: dict[str, str], cli_options: tuple[str, ...] = ()):
    """`dynabench [options] serve` on the stack's services with `env` added; yields (url, log path). The process
    is stopped on exit (so its log is complete when the block ends)."""
    port = free_port()
    name = f"api-authz-{uuid.uuid4().hex[:6]}"
    log_path = stack.logs / f"{name}.log"
    proc = stack.group.spawn(
        name,
        [sys.executable, "-m", "server.cli", *cli_options, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env={**stack.env, **env},
        log_path=log_path,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _healthy(url) or proc.poll() is not None, timeout=90)
        assert proc.poll() is None, log_path.read_text(errors="replace")[-3000:]
        yield url, log_path
    finally:
        proc.terminate()
        proc.wait(timeout=30)
