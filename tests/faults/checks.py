"""What must hold after any fault: counters equal a recount from rows; helpers to stop and start workers."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from tests import stack_helpers
from tests.conftest import run_sql


def assert_counters_equal_rows() -> None:
    """Round, context and per-user counters, and validation outcomes, recounted from the rows
    (the fault tests retract nothing, so every example counts)."""
    assert run_sql("SELECT count(*) AS n FROM examples WHERE retracted")[0]["n"] == 0
    assert (
        run_sql("""
        SELECT r.round FROM round_totals r LEFT JOIN examples e ON e.round = r.round
        GROUP BY r.round, r.total_collected, r.total_fooled, r.total_validated, r.total_validated_fooled
        HAVING r.total_collected <> count(e.id) OR r.total_fooled <> count(e.id) FILTER (WHERE e.fooled)
            OR r.total_validated <> count(e.id) FILTER (WHERE e.status = 'validated')
            OR r.total_validated_fooled <> count(e.id) FILTER (WHERE e.status = 'validated' AND e.fooled)""")
        == []
    )
    assert (
        run_sql("""
        SELECT c.id FROM contexts c LEFT JOIN examples e ON e.context = c.id
        GROUP BY c.id HAVING c.total_used <> count(e.id) OR c.total_fooled <> count(e.id) FILTER (WHERE e.fooled)""")
        == []
    )
    assert (
        run_sql("""
        SELECT s."user", s.round FROM user_round_stats s
        LEFT JOIN examples e ON e."user" = s."user" AND e.round = s.round
        GROUP BY s."user", s.round, s.submitted, s.fooled
        HAVING s.submitted <> count(e.id) OR s.fooled <> count(e.id) FILTER (WHERE e.fooled)""")
        == []
    )
    assert (
        run_sql("""
        SELECT s."user", s.round FROM user_round_stats s
        LEFT JOIN validations v ON v."user" = s."user"
        LEFT JOIN examples e ON e.id = v.example AND e.round = s.round
        GROUP BY s."user", s.round, s.validations_done HAVING s.validations_done <> count(e.id)""")
        == []
    )
    assert run_sql("SELECT count(*) AS n FROM validations WHERE NOT aggregated")[0]["n"] == 0


def live_workers(stack) -> list:
    return [stack.group.get(n) for n in stack.group.names if n.startswith("worker") and stack.group.get(n).poll() is None]


def kill_workers(stack, sig: int = signal.SIGKILL) -> None:
    for worker in live_workers(stack):
        os.kill(worker.pid, sig)
        worker.wait(timeout=60)


def start_worker(stack) -> Path:
    """Starts another worker on the stack; returns its log file (tests/stack_helpers.py: the first one started when
    none is alive serves the session's worker metrics port, as the worker it replaces did)."""
    return stack_helpers.start_worker(stack)
