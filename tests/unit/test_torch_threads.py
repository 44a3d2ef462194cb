"""torch's threads per process (server/core/settings.py torch_threads): TORCH_THREADS, else every core."""

import os

from server.core.settings import torch_threads


def test_torch_threads_follow_torch_threads_else_every_core(monkeypatch):
    monkeypatch.setenv("TORCH_THREADS", "1")
    assert torch_threads() == 1
    for unset in ("", "many", "-2"):
        monkeypatch.setenv("TORCH_THREADS", unset)
        assert torch_threads() == max(1, os.cpu_count() or 1)
    monkeypatch.delenv("TORCH_THREADS")
    assert torch_threads() == max(1, os.cpu_count() or 1)
