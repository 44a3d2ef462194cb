"""The sandbox agent's pure parts (server/sandbox/agent/): what a model's end means for its researcher, the bounded
per-model logs, and how a status log quotes a model's output (server/evaluation/models/log_text.py excerpt)."""

from __future__ import annotations

import signal

from server.evaluation.models.log_text import excerpt
from server.sandbox.agent.instances import exit_reason, read_stub_exits, stub_exit_reason
from server.sandbox.agent.logs import CappedLog, keep_folder_under, read_tail


def test_how_a_models_triton_or_code_ended_is_said_plainly():
    assert "aborted (SIGABRT)" in exit_reason(-signal.SIGABRT) and "shared memory" in exit_reason(-signal.SIGABRT)
    assert "memory limit" in exit_reason(-signal.SIGKILL)
    assert exit_reason(-signal.SIGSEGV) == "its Triton process crashed (SIGSEGV)"
    assert exit_reason(3) == "its Triton process exited with status 3"
    assert stub_exit_reason(0, 0) is None
    assert "memory limit (8 GiB)" in stub_exit_reason(128 + signal.SIGKILL, 8 << 30)
    assert "CPU time limit" in stub_exit_reason(128 + signal.SIGXCPU, 0)
    assert stub_exit_reason(128 + signal.SIGSEGV, 0) == "its code crashed (SIGSEGV)"
    assert stub_exit_reason(1, 0) == "its code exited with status 1"


def test_the_launchers_reports_are_read_once_and_malformed_ones_dropped(tmp_path):
    (tmp_path / "submission_3_ab_0_1").write_text("139\n")
    (tmp_path / "not-an-instance").write_text("1\n")
    (tmp_path / "submission_4_cd_0_0").write_text("garbage")
    assert read_stub_exits(tmp_path) == [("submission_3_ab", 139)]
    assert list(tmp_path.iterdir()) == [] and read_stub_exits(tmp_path) == []
    assert read_stub_exits(tmp_path / "absent") == []


def test_a_models_log_rotates_at_its_cap_and_keeps_its_tail(tmp_path):
    log = CappedLog(tmp_path, "m", max_bytes=4096, total_bytes=0)
    for i in range(100):
        log.write(f"line {i:04d} ".encode() * 20 + b"\n")
    log.write(b"LAST\n")
    assert (tmp_path / "m.log").stat().st_size <= 4096 and (tmp_path / "m.log.1").stat().st_size == 4096
    assert read_tail(tmp_path / "m.log", 64).endswith(b"LAST\n") and len(log.tail(6000)) == 6000
    log.close()


def test_the_logs_folder_is_kept_under_its_total(tmp_path):
    for name, size in (("a.log.1", 3000), ("a.log", 3000), ("b.log", 3000), ("c.log", 1000)):
        (tmp_path / name).write_bytes(b"x" * size)
    keep_folder_under(tmp_path, 5000, keep=tmp_path / "c.log")
    sizes = {path.name: path.stat().st_size for path in tmp_path.iterdir()}
    assert "a.log.1" not in sizes and sum(sizes.values()) <= 5000 and sizes["c.log"] == 1000


def test_a_models_output_is_quoted_escaped_and_bounded():
    assert excerpt("positive") == "'positive'"
    assert excerpt("two\nlines\x1b[31m") == "'two\\nlines\\x1b[31m'"
    long = excerpt("s" * 10_000)
    assert long.startswith("'" + "s" * 80 + "'… ") and "(10,000 characters)" in long and len(long) < 120
    assert excerpt(b"\xff bytes") == "'\ufffd bytes'"  # undecodable bytes replaced, printable text kept
