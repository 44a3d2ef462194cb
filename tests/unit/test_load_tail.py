"""bench/load_tail.py: slow requests told apart from the rest, and whether they stalled together."""

from bench.load_tail import Span, bursts, overlapping_share, report, slow_spans


def _steady(op: str, n: int, ms: float) -> list[Span]:
    return [Span(i * 0.05, i * 0.05 + ms / 1000, op) for i in range(n)]


def test_slow_is_relative_to_each_operations_median_and_above_a_floor():
    spans = _steady("fast", 50, 4) + _steady("slow", 50, 40)
    spans += [Span(10.0, 10.03, "fast"), Span(10.0, 10.06, "fast"), Span(20.0, 20.2, "slow"), Span(30.0, 30.12, "slow")]
    # 30 ms is 7.5x the fast median but under the 50 ms floor; 120 ms is 3x the slow median (not 4x)
    assert slow_spans(spans) == [Span(10.0, 10.06, "fast"), Span(20.0, 20.2, "slow")]


def test_a_shared_stall_shows_as_one_burst_of_overlapping_requests():
    stall = [Span(5.0 + i * 0.01, 5.15, op) for i, op in enumerate("ababa")]
    alone = [Span(1.0, 1.1, "a"), Span(9.0, 9.1, "b")]
    assert overlapping_share(stall) == 1.0 and overlapping_share(alone) == 0.0
    fullest_start, fullest = bursts(stall + alone)[0]
    assert fullest == stall and abs(fullest_start - 5.1) < 1e-9
    text = report(_steady("a", 50, 4) + _steady("b", 50, 4) + stall, [(5.05, 40.0)], [Span(5.0, 5.1, "raw Triton")])
    assert "5 of 105 requests" in text and "100% of them overlapped" in text
    assert "late by at most 40 ms" in text and "raw Triton probes then: 100 ms" in text
