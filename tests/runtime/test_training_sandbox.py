"""An uploaded classifier's train.py in its one-shot sandbox (server/sandbox/training.py), against real processes: what it
writes leaves as a tar stream, and the time limit, a stop request, the output cap, the process limit and a failing
script each end it with the reason, leaving no process behind."""

from __future__ import annotations

import asyncio
import io
import os
import tarfile
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from server.sandbox.training import TrainingLimits, run_train_script

LIMITS = TrainingLimits(wall_seconds=60, memory_bytes=2 * 1024**3, output_bytes=8 * 1024**2, max_processes=64)


def _model(tmp_path: Path, script: str) -> tuple[Path, Path]:
    model = tmp_path / "current" / "mymodel"
    (model / "1").mkdir(parents=True)
    (model / "config.pbtxt").write_text('name: "mymodel"\n')
    (model / "1" / "train.py").write_text(textwrap.dedent(script))
    data = tmp_path / "data"
    data.mkdir()
    (data / "train.jsonl").write_text('{"statement": "a fine day", "label": "positive"}\n')
    for path in (tmp_path, tmp_path / "current", model, model / "1", data):
        os.chmod(path, 0o755)
    return model, data


def _run(model: Path, data: Path, limits: TrainingLimits = LIMITS, stop: threading.Event | None = None):
    output = data.parent / "output.tar"
    outcome = asyncio.run(run_train_script(model, "1/train.py", data, output, limits, stop, name=f"test-{os.getpid()}"))
    outcome.output = output.read_bytes() if outcome.ok else b""  # type: ignore[attr-defined]
    return outcome


def _sandboxed_processes() -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if "/sandbox/data" in " ".join(process.info["cmdline"] or []):
            found.append(process)
    return found


def test_what_train_py_writes_comes_back_as_the_model_directory(tmp_path):
    model, data = _model(
        tmp_path,
        """
        import os, sys
        from pathlib import Path
        rows = (Path(sys.argv[1]) / "train.jsonl").read_text().splitlines()
        out = Path(sys.argv[2])
        (out / "1").mkdir()
        (out / "config.pbtxt").write_text(Path(__file__).parent.parent.joinpath("config.pbtxt").read_text())
        (out / "1" / "model.py").write_text(f"# trained on {len(rows)} rows as uid {os.getuid()}")
        print("done", flush=True)
        """,
    )
    outcome = _run(model, data)
    assert outcome.ok, (outcome.reason, outcome.log)
    assert "done" in outcome.log
    with tarfile.open(fileobj=io.BytesIO(outcome.output)) as tar:
        assert sorted(tar.getnames()) == ["mymodel", "mymodel/1", "mymodel/1/model.py", "mymodel/config.pbtxt"]
        written = tar.extractfile("mymodel/1/model.py").read().decode()
    assert written.startswith("# trained on 1 rows")
    if os.geteuid() == 0:
        assert written.endswith("as uid 65534")  # nobody, never root


def test_a_failing_script_ends_with_its_status_and_output(tmp_path):
    model, data = _model(tmp_path, "import sys\nprint('it went wrong here')\nsys.exit(7)\n")
    outcome = _run(model, data)
    assert not outcome.ok and outcome.output == b""
    assert outcome.reason == "it ended with exit status 7"
    assert "it went wrong here" in outcome.log


def test_the_time_limit_stops_a_script_that_never_ends(tmp_path):
    model, data = _model(tmp_path, "import time\ntime.sleep(3600)\n")
    started = time.monotonic()
    outcome = _run(model, data, TrainingLimits(wall_seconds=2, output_bytes=1 << 20))
    assert not outcome.ok and outcome.reason == "it ran past the time limit of 2 s"
    assert time.monotonic() - started < 60
    assert _sandboxed_processes() == []


def test_a_stop_request_ends_it_at_once(tmp_path):
    model, data = _model(tmp_path, "import time\ntime.sleep(3600)\n")
    stop = threading.Event()
    threading.Timer(1.0, stop.set).start()
    outcome = _run(model, data, stop=stop)
    assert not outcome.ok and outcome.reason == "cancelled"
    assert _sandboxed_processes() == []


def test_output_past_the_cap_fails_without_filling_the_disk(tmp_path):
    model, data = _model(
        tmp_path,
        """
        import sys
        from pathlib import Path
        with open(Path(sys.argv[2]) / "weights.bin", "wb") as out:
            while True:
                out.write(b"0" * (1 << 20))
        """,
    )
    outcome = _run(model, data)
    assert not outcome.ok
    assert "No space left on device" in outcome.log and outcome.reason == "it ended with exit status 1"


def test_no_network_nothing_of_the_host_and_few_processes(tmp_path):
    model, data = _model(
        tmp_path,
        f"""
        import os, socket, sys
        report = {{}}
        try:
            socket.create_connection(("127.0.0.1", 22), timeout=2)
            report["network"] = "OPEN"
        except OSError:
            report["network"] = "BLOCKED"
        report["host-files"] = "OPEN" if os.path.exists({str(Path(__file__).resolve())!r}) else "BLOCKED"
        report["processes"] = "OPEN" if len([p for p in os.listdir("/proc") if p.isdigit()]) > 5 else "BLOCKED"
        children = 0
        try:
            for _ in range(500):
                if os.fork() == 0:
                    import time
                    time.sleep(30)
                    os._exit(0)
                children += 1
        except OSError:
            pass
        report["fork"] = "OPEN" if children >= 500 else "BLOCKED"
        print(" ".join(f"{{k}}={{v}}" for k, v in report.items()), flush=True)
        sys.exit(3)
        """,
    )
    outcome = _run(model, data)
    assert outcome.reason == "it ended with exit status 3", outcome.log
    report = dict(item.split("=") for item in outcome.log.split() if "=" in item)
    assert report == {"network": "BLOCKED", "host-files": "BLOCKED", "processes": "BLOCKED", "fork": "BLOCKED"}, outcome.log
    assert _sandboxed_processes() == []


def test_without_a_cgroup_the_script_does_not_run(tmp_path, monkeypatch):
    # Per-process rlimits would not bound a recipe that forks, or mounts memory-backed folders in a user namespace of
    # its own: with no cgroup for its limits, train.py is refused, with the reason, before anything of it runs.
    from server.sandbox import training
    from server.sandbox.bwrap import SandboxUnavailable

    monkeypatch.setattr(training.SandboxCgroup, "create", classmethod(lambda cls, name, limits: None))
    model, data = _model(tmp_path, "print('ran')")
    with pytest.raises(SandboxUnavailable, match="no cgroup could be made for its memory, CPU and process limits"):
        _run(model, data)


def test_a_bwrap_without_the_training_sandboxs_options_is_named_before_any_recipe_runs(tmp_path, monkeypatch):
    # An operator's older bwrap (SANDBOX_BWRAP; 0.6 knows no --size) serves uploads but cannot build this sandbox: the
    # check names bwrap's refusal, where the recipe's run would have ended as "train.py did not finish".
    from server.sandbox.bwrap import SandboxUnavailable, bwrap_binary
    from server.sandbox.training import check_training_available

    check_training_available()  # this machine's bwrap has them
    old = tmp_path / "bwrap-0.6"
    old.write_text(
        '#!/bin/sh\nfor a in "$@"; do [ "$a" = --size ] && { echo "bwrap: Unknown option --size" >&2; exit 1; }; done\n'
        f'exec {bwrap_binary()} "$@"\n'
    )
    old.chmod(0o755)
    monkeypatch.setenv("SANDBOX_BWRAP", str(old))
    with pytest.raises(SandboxUnavailable, match="Unknown option --size"):
        check_training_available()
