"""Where the suite's time goes, per test file (a pytest plugin loaded by tests/conftest.py): at the end of a run over
several processes, the files that took longest — their summed setup, call and teardown time, when they started and
ended (seconds after the first test began) and which process ran them — so that SLOW_FILES_FIRST can be kept in order.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

SHOWN = 30
_totals: dict[str, float] = defaultdict(float)
_spans: dict[str, list[float]] = {}
_workers: dict[str, str] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = report.nodeid.split("::", 1)[0]
    _totals[path] += report.duration
    start, stop = getattr(report, "start", None), getattr(report, "stop", None)
    if start is not None and stop is not None:
        span = _spans.setdefault(path, [start, stop])
        span[0], span[1] = min(span[0], start), max(span[1], stop)
    worker = getattr(report, "worker_id", None) or getattr(getattr(report, "node", None), "workerid", None)
    if worker:
        _workers[path] = str(worker)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not _totals or len(_totals) < 2:
        return
    first = min((span[0] for span in _spans.values()), default=0.0)
    terminalreporter.write_sep("=", f"slowest {SHOWN} test files (seconds)")
    for path, total in sorted(_totals.items(), key=lambda item: -item[1])[:SHOWN]:
        span = _spans.get(path)
        when = f"{span[0] - first:7.0f} → {span[1] - first:5.0f}" if span else ""
        terminalreporter.write_line(f"{total:8.1f}  {when:>15}  {_workers.get(path, ''):>4}  {path}")
    ends: dict[str, float] = {}
    for path, span in _spans.items():
        worker = _workers.get(path, "")
        ends[worker] = max(ends.get(worker, 0.0), span[1] - first)
    busy = ", ".join(f"{worker} until {end:.0f} s" for worker, end in sorted(ends.items()))
    terminalreporter.write_line(f"processes: {busy}")
