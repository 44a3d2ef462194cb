"""Fault tests kill, add and replace workers; each leaves the stack as the session had it: one worker, serving the
session's worker metrics port (tests/api/test_observability.py scrapes it, in whatever order the files run)."""

from __future__ import annotations

import pytest

from tests.stack_helpers import restore_session_worker


@pytest.fixture(autouse=True)
def session_worker_back(request):
    yield
    if "stack" in request.fixturenames:
        restore_session_worker(request.getfixturevalue("stack"))
