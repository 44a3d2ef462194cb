"""Each test run's temporary folder (a pytest plugin of tests/conftest.py): its own, and only its logs kept after it."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

RUN_DIR_PREFIX = "dynabench-tests-"
KEEP_FINISHED_RUNS = 2  # the logs of the last runs that ended stay for a look


def pytest_configure(config: pytest.Config) -> None:
    """Each run gets a temporary root of its own, not pytest's shared numbered folders under
    /tmp/pytest-of-<user>: their clean-up at the start of one run deleted the live stack folders (database,
    sockets) of another run on the same machine."""
    if config.option.basetemp is None:
        runs = Path(tempfile.gettempdir())
        _remove_finished_runs(runs)
        config.option.basetemp = str(runs / f"{RUN_DIR_PREFIX}{os.getpid()}")


def pytest_unconfigure(config: pytest.Config) -> None:
    """A run that ended keeps its logs only: its databases and model repositories (3-4 GB a run) left behind filled
    a shared disk once, and every service of the next run failed with 'No space left on device'."""
    basetemp = config.option.basetemp
    if not hasattr(config, "workerinput") and basetemp and Path(basetemp).name.startswith(RUN_DIR_PREFIX):
        keep_only_logs(Path(basetemp))


def _remove_finished_runs(runs: Path) -> None:
    finished = []
    for folder in runs.glob(f"{RUN_DIR_PREFIX}*"):
        pid = folder.name[len(RUN_DIR_PREFIX) :]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            finished.append(folder)
    finished.sort(key=lambda folder: folder.stat().st_mtime, reverse=True)
    for folder in finished[:KEEP_FINISHED_RUNS]:
        keep_only_logs(folder)  # a run killed before its end did not prune itself
    for folder in finished[KEEP_FINISHED_RUNS:]:
        shutil.rmtree(folder, ignore_errors=True)


def keep_only_logs(folder: Path) -> None:
    """Deletes everything under `folder` but log files (`*.log`, or anything in a folder named `logs`)."""
    for path in sorted(folder.rglob("*"), key=lambda path: len(path.parts), reverse=True):
        try:
            if path.is_symlink() or path.is_file():
                if path.suffix != ".log" and "logs" not in path.relative_to(folder).parts[:-1]:
                    path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        except OSError:
            pass  # a socket or file that vanished meanwhile, or one we may not touch: nothing to keep either way
