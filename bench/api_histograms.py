"""The API processes' own Prometheus histograms over a benchmark run (GET /metrics before and after): how long an
operation took inside the API (parse, validate, execute) and how late each process's event loop ran, as quantiles
read off the buckets (an upper bound: the bucket's edge)."""

from __future__ import annotations

import math
from collections import defaultdict

import httpx
from prometheus_client.parser import text_string_to_metric_families

Buckets = dict[float, float]  # upper edge -> cumulative count


def scrape(urls: list[str], token: str = "") -> dict[tuple[str, str], Buckets]:
    """(histogram, operation or "") -> cumulative bucket counts, summed over the API processes."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    found: dict[tuple[str, str], Buckets] = defaultdict(lambda: defaultdict(float))
    for url in urls:
        text = httpx.get(f"{url}/metrics", headers=headers, timeout=30).text
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name.endswith("_bucket"):
                    key = (family.name, sample.labels.get("operation", ""))
                    found[key][float(sample.labels["le"])] += sample.value
    return found


def delta(after: dict[tuple[str, str], Buckets], before: dict[tuple[str, str], Buckets]) -> dict[tuple[str, str], Buckets]:
    return {key: {edge: n - before.get(key, {}).get(edge, 0.0) for edge, n in buckets.items()} for key, buckets in after.items()}


def quantile(buckets: Buckets, q: float) -> float:
    """The upper edge of the bucket holding the q-quantile (seconds; inf past the last edge; nan when empty)."""
    total = buckets.get(math.inf, 0.0)
    if total <= 0:
        return math.nan
    for edge in sorted(buckets):
        if buckets[edge] >= q * total:
            return edge
    return math.inf


def summary(run: dict[tuple[str, str], Buckets], operations: list[str]) -> str:
    parts = []
    for operation in operations:
        buckets = run.get(("dynabench_graphql_request_duration_seconds", operation))
        if buckets:
            parts.append(f"{operation} p50 <= {quantile(buckets, 0.5) * 1000:g} ms, p99 <= {quantile(buckets, 0.99) * 1000:g} ms")
    lag = run.get(("dynabench_event_loop_lag_seconds", ""))
    if lag:
        parts.append(f"event-loop lag p50 <= {quantile(lag, 0.5) * 1000:g} ms, p99 <= {quantile(lag, 0.99) * 1000:g} ms")
    return "; ".join(parts)
