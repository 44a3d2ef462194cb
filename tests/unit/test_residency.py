"""Which loaded submissions make room for another (server/evaluation/models/residency.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from server.evaluation.models.residency import choose_evictions
from server.evaluation.records import ResidentModelRow

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def _row(pk: int, status: str = "evaluated", minutes: int = 0, in_the_loop: bool = False) -> ResidentModelRow:
    return {
        "id": pk,
        "triton_name": f"submission_{pk}",
        "status": status,
        "changed_at": T0 + timedelta(minutes=minutes),
        "in_the_loop": in_the_loop,
    }


def _rows(*rows: ResidentModelRow) -> dict[str, ResidentModelRow]:
    return {row["triton_name"]: row for row in rows}


def test_below_the_limit_nothing_is_unloaded():
    rows = _rows(_row(1), _row(2))
    assert choose_evictions(list(rows), rows, keep="submission_9", max_loaded=3) == []


def test_no_limit_unloads_nothing():
    rows = _rows(*(_row(pk) for pk in range(10)))
    assert choose_evictions(list(rows), rows, keep="submission_99", max_loaded=0) == []


def test_at_the_limit_the_least_recently_active_idle_one_goes():
    rows = _rows(_row(1, minutes=30), _row(2, minutes=10), _row(3, minutes=20))
    assert choose_evictions(list(rows), rows, keep="submission_9", max_loaded=3) == ["submission_2"]


def test_over_the_limit_enough_go_for_one_more_to_fit():
    rows = _rows(*(_row(pk, minutes=pk) for pk in range(1, 6)))
    assert choose_evictions(list(rows), rows, keep="submission_9", max_loaded=3) == [
        "submission_1",
        "submission_2",
        "submission_3",
    ]


def test_models_no_row_names_go_first():
    rows = _rows(_row(1, minutes=0), _row(2, minutes=5))
    loaded = ["submission_1", "submission_2", "old_orphan"]
    assert choose_evictions(loaded, rows, keep="submission_9", max_loaded=3) == ["old_orphan"]


def test_targets_of_open_rounds_and_busy_models_are_never_unloaded():
    rows = _rows(
        _row(1, minutes=0, in_the_loop=True),
        _row(2, status="evaluating", minutes=1),
        _row(3, status="deploying", minutes=2),
        _row(4, status="deployed", minutes=3),
        _row(5, status="not_ranked", minutes=9),
    )
    assert choose_evictions(list(rows), rows, keep="submission_9", max_loaded=3) == ["submission_5"]


def test_when_everything_is_in_use_nothing_goes():
    rows = _rows(_row(1, in_the_loop=True), _row(2, status="evaluating"), _row(3, status="uploaded"))
    assert choose_evictions(list(rows), rows, keep="submission_9", max_loaded=2) == []


def test_the_model_being_loaded_is_never_chosen():
    rows = _rows(_row(1, minutes=0), _row(2, minutes=1))
    assert choose_evictions(list(rows), rows, keep="submission_1", max_loaded=2) == ["submission_2"]
