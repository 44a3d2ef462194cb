"""The supervisor of the local services (ServiceGroup): start order, stop in reverse, process groups killed whole,
children that outlive a short-lived thread, children that die with a killed parent, Ctrl-C reaching only the supervisor."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest
import redis

from server.runtime import LocalRedis, ServiceGroup
from tests.runtime.processes import gone

REPO_ROOT = Path(__file__).resolve().parents[2]


def _descendants() -> list[int]:
    return [p.pid for p in psutil.Process().children(recursive=True)]


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
    assert gone(started)
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
        assert gone(family, timeout=60)
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
        assert gone([redis_pid])
    finally:
        if sup.poll() is None:
            sup.kill()
            sup.wait()
