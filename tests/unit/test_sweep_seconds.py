"""The worker's sweep cadence: production's own seconds, or more often when SWEEP_INTERVAL_S asks (workers/main.py)."""

import pytest

from workers.main import sweep_seconds


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
