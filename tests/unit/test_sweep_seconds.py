"""The worker's sweep cadence: production's own seconds, or more often when SWEEP_INTERVAL_S asks (workers/main.py);
and how soon a dead worker's jobs are released (WORKER_HEARTBEAT_TTL_S, workers/liveness.py)."""

import pytest

from workers.liveness import heartbeat_ttl_s
from workers.main import dead_worker_check_seconds, sweep_seconds


def test_without_an_interval_each_sweep_keeps_its_own_seconds(monkeypatch):
    monkeypatch.delenv("SWEEP_INTERVAL_S", raising=False)
    assert sweep_seconds(37) == {37}
    assert sweep_seconds(17, 47) == {17, 47}


def test_an_interval_runs_a_sparse_sweep_more_often_from_its_own_offset(monkeypatch):
    monkeypatch.setenv("SWEEP_INTERVAL_S", "10")
    assert sweep_seconds(37) == {7, 17, 27, 37, 47, 57}
    assert sweep_seconds(14, 44) == {4, 14, 24, 34, 44, 54}


def test_an_interval_never_makes_a_sweep_run_less_often(monkeypatch):
    monkeypatch.setenv("SWEEP_INTERVAL_S", "30")
    assert sweep_seconds(0, 10, 20, 30, 40, 50) == {0, 10, 20, 30, 40, 50}


@pytest.mark.parametrize("value", ["0", "60", "", "-5", "often"])
def test_an_interval_outside_a_minute_or_not_a_number_is_ignored(monkeypatch, value):
    monkeypatch.setenv("SWEEP_INTERVAL_S", value)
    assert sweep_seconds(41) == {41}


def test_a_dead_workers_jobs_are_released_every_half_heartbeat_at_most_every_10_s(monkeypatch):
    assert dead_worker_check_seconds(20) == {2, 12, 22, 32, 42, 52}  # production
    assert dead_worker_check_seconds(10) == {2, 7, 12, 17, 22, 27, 32, 37, 42, 47, 52, 57}  # the tests' workers
    assert dead_worker_check_seconds(300) == {2, 12, 22, 32, 42, 52}


@pytest.mark.parametrize(("value", "ttl"), [("", 20), ("10", 10), ("5", 5), ("4", 20), ("301", 20), ("ten", 20)])
def test_the_heartbeat_ttl_is_20_s_unless_configured_within_5_to_300(monkeypatch, value, ttl):
    monkeypatch.setenv("WORKER_HEARTBEAT_TTL_S", value)
    assert heartbeat_ttl_s() == ttl
