"""Where bench/load.py's tail comes from: are the slow requests of a run alone, or do many stall together?

Every timed request is kept as a span (start, end, operation, seconds since the run began). A request is slow when it
took at least `factor` times its operation's median and at least `floor_ms`. If the slow requests overlap each other
in bursts (many operations stalled over the same fraction of a second), something shared stopped (a process, the
machine); if they come one at a time, each request's own round trips added up. The load client's own event-loop lag
and raw Triton calls sent during the run (`--probe-triton`) are put on the same timeline.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from bench.common import percentile, raw_infer


@dataclass(frozen=True)
class Span:
    start: float  # seconds since the run began
    end: float
    op: str

    @property
    def ms(self) -> float:
        return (self.end - self.start) * 1000


def slow_spans(spans: list[Span], factor: float = 4.0, floor_ms: float = 50.0) -> list[Span]:
    medians = {op: statistics.median(s.ms for s in spans if s.op == op) for op in {s.op for s in spans}}
    return [s for s in spans if s.ms >= max(floor_ms, factor * medians[s.op])]


def bursts(slow: list[Span], window: float = 0.1) -> list[tuple[float, list[Span]]]:
    """The slow spans grouped by the `window` in which they ended, the fullest first."""
    by_window: dict[int, list[Span]] = {}
    for span in slow:
        by_window.setdefault(int(span.end / window), []).append(span)
    return sorted(((key * window, group) for key, group in by_window.items()), key=lambda item: -len(item[1]))


def overlapping_share(slow: list[Span], at_least: int = 3) -> float:
    """The share of slow spans that overlap at least `at_least` - 1 other slow spans (a shared stall)."""
    if not slow:
        return 0.0
    ordered = sorted(slow, key=lambda s: s.start)
    shared = 0
    for span in ordered:
        others = sum(1 for o in ordered if o is not span and o.start < span.end and span.start < o.end)
        shared += others + 1 >= at_least
    return shared / len(slow)


def report(spans: list[Span], lag: list[tuple[float, float]], probes: list[Span]) -> str:
    """A few lines for bench/load.py's output."""
    slow = slow_spans(spans)
    if not slow:
        return "Tail: no request took 4x its operation's median and 50 ms."
    lines = [
        f"Tail: {len(slow)} of {len(spans)} requests took >= 4x their operation's median and >= 50 ms "
        f"({dict(Counter(s.op for s in slow).most_common())}); {overlapping_share(slow):.0%} of them overlapped two or "
        f"more other slow ones; they ended in {len(bursts(slow))} different 0.1 s windows of the run."
    ]
    for start, group in bursts(slow)[:5]:
        late = [ms for t, ms in lag if start - 0.2 <= t < start + 0.1]
        probe = [p.ms for p in probes if p.end >= start - 0.2 and p.start < start + 0.1]
        lines.append(
            f"  t = {start:6.1f} s: {len(group)} slow ({', '.join(f'{s.op} {s.ms:.0f} ms' for s in group[:6])}); "
            f"client loop late by at most {max(late, default=0):.0f} ms; raw Triton probes then: "
            f"{', '.join(f'{ms:.0f} ms' for ms in probe) or 'none'}"
        )
    if probes:
        values = [p.ms for p in probes]
        lines.append(
            f"Raw Triton probes during the run (one at a time, diagnostic only: the goal's baseline is measured after the "
            f"run): n {len(values)}, p50 {percentile(values, 50):.1f} ms, p99 {percentile(values, 99):.1f} ms, max "
            f"{max(values):.1f} ms"
        )
    return "\n".join(lines)


async def loop_lag(deadline: float, recorder, tick: float = 0.01) -> None:
    """How late this process's event loop wakes a short sleep while the users run: every latency the client measures
    includes that delay besides the platform's own time (the raw baseline, measured after the run, does not)."""
    while time.monotonic() < deadline:
        start = time.monotonic()
        await asyncio.sleep(tick)
        late = (time.monotonic() - start - tick) * 1000
        recorder.loop_lag_ms.append(late)
        recorder.loop_lag_at.append((time.perf_counter() - (recorder.run_started or 0.0), late))


async def triton_probes(stack, sentences, deadline: float, recorder, rate: float) -> None:
    """`rate` raw calls a second of the target model during the run, one at a time (diagnostic: is the tail Triton's?)."""
    if rate <= 0:
        return
    import numpy as np
    from tritonclient.http.aio import InferenceServerClient, InferInput

    triton = InferenceServerClient(stack.env["TRITON_URL"])
    try:
        i = 0
        while time.monotonic() < deadline:
            tensor = InferInput("statement", [1, 1], "BYTES")
            tensor.set_data_from_numpy(np.array([[sentences[i % len(sentences)][0].encode()]], dtype=np.object_))
            started = time.perf_counter()
            await raw_infer(triton, "sentiment_minilm", [tensor])
            ended = time.perf_counter()
            base = recorder.run_started or started
            recorder.triton_probes.append(Span(started - base, ended - base, "raw Triton"))
            i += 1
            await asyncio.sleep(max(0.0, 1 / rate - (ended - started)))
    finally:
        await triton.close()
