"""Dynascore (Dynaboard, NeurIPS 2021; docs/design.md §4). Pure functions, no I/O.

Given each model's metrics (each already a dataset-weighted average, see
``dataset_weighted_metrics``), ``compute_dynascores`` does exactly this:

1. Metrics: ``perf`` first, then throughput, memory, robustness, fairness (and any other metric
   named in the weights or the models, with direction +1 and offset 0).
2. Convert: x'_m = d_m · x_m + o_m, with d_m = +1 (higher is better) except memory, d = −1, and
   o_m = 0 except memory, o = the memory budget in GB, so memory' = budget − used.
3. Weights are normalized to sum 1. A metric with no weight, or weight 0, contributes 0.
4. Sort the models by perf (ascending; equal perfs are ordered by model id so that the result is
   deterministic: see ``_id_key``). Take the differences Δ between adjacent models. Drop the pairs
   with |Δperf| ≤ 1e-4 · max(|perf|) (ties and near-ties).
5. AMRS_m = mean over the kept pairs of |Δx'_m| / |Δperf|. A pair whose Δx'_m is not finite
   (a model lacks that metric) is left out of that metric's mean only (as pandas' skipna did in
   Dynabench's implementation). AMRS_perf is 1 by definition (|Δperf| / |Δperf|), also when no
   pair is kept.
6. Dynascore = Σ_m w_m · x'_m / |AMRS_m|.

NaN rule ("NaN → 0", made exact): a term w_m · x'_m / |AMRS_m| contributes 0 when w_m is 0, or when
it is not a finite number: x'_m missing / None / NaN / ±inf for that model, AMRS_m undefined (no
kept pair with finite values for m: a single model, all perfs tied) or AMRS_m = 0 (the metric is
the same for every model, so it cannot tell them apart). Consequences:

* one model alone, or all models tied on perf: only the perf term counts,
  Dynascore = w_perf · perf (with w_perf normalized);
* a model missing robustness gets 0 for that term, while the others keep theirs.

perf itself must be a finite number for every model (``ValueError`` otherwise): models cannot be
ordered without it, and docs/design.md §4 only scores models that have every scoring dataset.

``compute_resolved_dynascores`` is the leaderboard's default (docs/design.md §4, "resolved Dynascore"): the same
computation on values snapped to each metric's measurement resolution (``RESOLUTIONS``), with every metric other than
perf counted from the worst ranked model. A difference no instrument here can measure then cannot set a price: in
the exact computation, two models whose memory differs by a few bytes get a memory AMRS near zero, and the memory
term (budget − used) / AMRS swamps the score with a six-digit number.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

PERF = "perf"
METRICS = ("perf", "throughput", "memory", "robustness", "fairness")
DEFAULT_DIRECTIONS: dict[str, int] = {"perf": 1, "throughput": 1, "memory": -1, "robustness": 1, "fairness": 1}
DEFAULT_WEIGHTS: dict[str, float] = {"perf": 4.0, "throughput": 1.0, "memory": 1.0, "robustness": 1.0, "fairness": 1.0}
DELTA_CUTOFF_PROPORTION = 1e-4


@dataclass(frozen=True)
class Resolution:
    """The smallest difference of a metric that is measured, not noise: max(absolute, relative · |larger value|)."""

    absolute: float = 0.0
    relative: float = 0.0

    def ties(self, a: float, b: float) -> bool:
        return abs(a - b) < max(self.absolute, self.relative * max(abs(a), abs(b)))


# Why these (docs/design.md §4): throughput on a shared CPU moves by ±10 % between runs of one model; memory is a
# peak RSS sampled every 0.25 s, which moves by tens of MB between runs (interpreter, allocator, sampling instant);
# robustness and fairness are shares over a few hundred perturbed copies, so 1 point is a handful of answers.
# perf is exact on its dataset and keeps Dynaboard's own cutoff (DELTA_CUTOFF_PROPORTION).
RESOLUTIONS: dict[str, Resolution] = {
    "throughput": Resolution(relative=0.10),
    "memory": Resolution(absolute=0.05),
    "robustness": Resolution(absolute=0.01),
    "fairness": Resolution(absolute=0.01),
}

ModelId = Hashable


@dataclass(frozen=True)
class DynascoreResult:
    """One model's Dynascore and everything needed to explain it in the leaderboard UI.

    ``values``: the metrics as given (NaN where missing); ``converted``: x'_m; ``amrs``: AMRS_m
    (shared by all models; NaN where undefined); ``weights``: normalized weights;
    ``contributions``: w_m · x'_m / |AMRS_m| after the NaN rule, summing to ``dynascore``.
    """

    model_id: Any
    dynascore: float
    perf: float
    values: dict[str, float] = field(default_factory=dict)
    converted: dict[str, float] = field(default_factory=dict)
    amrs: dict[str, float] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)
    contributions: dict[str, float] = field(default_factory=dict)


def _number(value: Any) -> float:
    """A metric value as float; None, missing or unparsable values become NaN."""
    if value is None or isinstance(value, bool):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _id_key(model_id: Any) -> tuple[int, float, str]:
    """A total order on model ids of mixed types: numbers first (by value), then by str."""
    if isinstance(model_id, (int, float)) and not isinstance(model_id, bool):
        return (0, model_id, "")
    return (1, 0, str(model_id))


def _metric_order(names: Iterable[str]) -> list[str]:
    names = set(names) | {PERF}
    return [m for m in METRICS if m in names] + sorted(names - set(METRICS))


def normalize_weights(weights: Mapping[str, float]) -> dict[str, float]:
    """Weights scaled to sum 1. Negative or non-finite weights, or a zero total, raise ValueError."""
    clean: dict[str, float] = {}
    for metric, weight in weights.items():
        w = _number(weight)
        if not math.isfinite(w) or w < 0:
            raise ValueError(f"weight of {metric!r} must be a non-negative number, got {weight!r}")
        clean[metric] = w
    total = sum(clean.values())
    if total <= 0:
        raise ValueError("at least one metric weight must be positive")
    return {metric: w / total for metric, w in clean.items()}


def compute_dynascores(
    models: Mapping[ModelId, Mapping[str, Any]],
    weights: Mapping[str, float],
    directions: Mapping[str, int] | None = None,
    memory_budget_gb: float = 16.0,
) -> dict[ModelId, DynascoreResult]:
    """Dynascore of every model (see the module docstring for the exact definition).

    ``models``: ``{model_id: {metric: value}}``; ``weights``: ``{metric: weight}`` (any scale);
    ``directions``: overrides of ``DEFAULT_DIRECTIONS`` (+1 / −1; perf must stay +1).
    """
    if not models:
        return {}
    direction = dict(DEFAULT_DIRECTIONS)
    for metric, d in (directions or {}).items():
        if d not in (1, -1):
            raise ValueError(f"direction of {metric!r} must be +1 or -1, got {d!r}")
        direction[metric] = int(d)
    if direction[PERF] != 1:
        raise ValueError("perf is higher-is-better: its direction must be +1")
    offset = {"memory": float(memory_budget_gb)}
    norm_weights = normalize_weights(weights)

    metrics = _metric_order([*norm_weights, *(m for values in models.values() for m in values)])
    values: dict[ModelId, dict[str, float]] = {}
    converted: dict[ModelId, dict[str, float]] = {}
    for model_id, raw in models.items():
        values[model_id] = {m: _number(raw.get(m)) for m in metrics}
        if not math.isfinite(values[model_id][PERF]):
            raise ValueError(f"model {model_id!r} has no finite perf value")
        converted[model_id] = {m: direction.get(m, 1) * values[model_id][m] + offset.get(m, 0.0) for m in metrics}

    ordered = sorted(models, key=lambda mid: (values[mid][PERF], _id_key(mid)))
    threshold = DELTA_CUTOFF_PROPORTION * max(abs(values[mid][PERF]) for mid in ordered)
    pairs = [
        (low, high) for low, high in zip(ordered, ordered[1:]) if abs(converted[high][PERF] - converted[low][PERF]) > threshold
    ]

    amrs: dict[str, float] = {}
    for metric in metrics:
        if metric == PERF:
            amrs[metric] = 1.0
            continue
        ratios = []
        for low, high in pairs:
            delta = abs(converted[high][metric] - converted[low][metric])
            if math.isfinite(delta):
                ratios.append(delta / abs(converted[high][PERF] - converted[low][PERF]))
        amrs[metric] = sum(ratios) / len(ratios) if ratios else math.nan

    results: dict[ModelId, DynascoreResult] = {}
    for model_id in models:
        contributions: dict[str, float] = {}
        for metric in metrics:
            w = norm_weights.get(metric, 0.0)
            term = math.nan
            if w > 0 and math.isfinite(amrs[metric]) and amrs[metric] != 0:
                term = w * converted[model_id][metric] / abs(amrs[metric])
            contributions[metric] = term if math.isfinite(term) else 0.0
        results[model_id] = DynascoreResult(
            model_id=model_id,
            dynascore=sum(contributions.values()),
            perf=values[model_id][PERF],
            values=values[model_id],
            converted=converted[model_id],
            amrs=dict(amrs),
            weights={m: norm_weights.get(m, 0.0) for m in metrics},
            contributions=contributions,
        )
    return results


def snap_to_resolution(values: Mapping[ModelId, float], resolution: Resolution) -> dict[ModelId, float]:
    """Values that differ by less than the resolution made equal: sorted ascending, each group holds the values that
    tie with its lowest one and takes their mean. A spread below the resolution leaves a single group (every value
    equal), so the metric cannot tell the models apart. Non-finite values are kept as they are."""
    snapped = {model_id: value for model_id, value in values.items() if not math.isfinite(value)}
    ordered = sorted(((v, _id_key(m), m) for m, v in values.items() if math.isfinite(v)), key=lambda item: item[:2])
    group: list[tuple[float, Any]] = []
    for value, _, model_id in [*ordered, (math.nan, None, None)]:
        if group and (math.isnan(value) or not resolution.ties(group[0][0], value)):
            mean = sum(v for v, _ in group) / len(group)
            snapped.update({member: mean for _, member in group})
            group = []
        group.append((value, model_id))
    return snapped


def compute_resolved_dynascores(
    models: Mapping[ModelId, Mapping[str, Any]],
    weights: Mapping[str, float],
    directions: Mapping[str, int] | None = None,
    memory_budget_gb: float = 16.0,
    resolutions: Mapping[str, Resolution] = RESOLUTIONS,
) -> dict[ModelId, DynascoreResult]:
    """Dynascore with measurement resolution (the module docstring): ``compute_dynascores`` on values snapped to each
    metric's resolution, then each metric but perf counted from the worst ranked model (its term minus the lowest
    term; a model without the metric gets 0, like the worst). The shift is the same for every model, so it changes no
    rank; it makes each term read as "points gained over the worst model" and every contribution non-negative
    (for perf ≥ 0). ``values`` keep the measured numbers; ``converted`` are the snapped ones."""
    measured = {model_id: {m: _number(v) for m, v in raw.items()} for model_id, raw in models.items()}
    snapped = {model_id: dict(raw) for model_id, raw in measured.items()}
    for metric, resolution in resolutions.items():
        column = snap_to_resolution({mid: raw.get(metric, math.nan) for mid, raw in measured.items()}, resolution)
        for model_id, value in column.items():
            if metric in measured[model_id]:
                snapped[model_id][metric] = value
    exact = compute_dynascores(snapped, weights, directions, memory_budget_gb)
    if not exact:
        return {}
    metrics = next(iter(exact.values())).contributions
    floor: dict[str, float] = {}
    for metric in metrics:
        present = [r.contributions[metric] for r in exact.values() if math.isfinite(r.converted[metric])]
        floor[metric] = min(present) if metric != PERF and present else 0.0
    results: dict[ModelId, DynascoreResult] = {}
    for model_id, result in exact.items():
        contributions = {
            m: (c - floor[m] if math.isfinite(result.converted[m]) else 0.0) for m, c in result.contributions.items()
        }
        results[model_id] = DynascoreResult(
            model_id=model_id,
            dynascore=sum(contributions.values()),
            perf=result.perf,
            values={m: measured[model_id].get(m, math.nan) for m in result.values},
            converted=result.converted,
            amrs=result.amrs,
            weights=result.weights,
            contributions=contributions,
        )
    return results


def dataset_weighted_metrics(
    scores: Iterable[tuple[Hashable, Mapping[str, Any]]],
    dataset_weights: Mapping[Hashable, float] | None = None,
) -> dict[str, float]:
    """One model's metrics averaged over datasets: Σ_d w_d · x_{d,m} / Σ_d w_d for each metric m.

    ``scores``: ``(dataset_id, {metric: value})`` per dataset. ``dataset_weights``: weight per
    dataset id; None, or a dataset absent from it, means weight 1 (equal weights by default).
    A dataset with weight 0 is left out. A metric that a dataset lacks (absent, None, NaN) is
    averaged over the datasets that have it (their weights renormalized); a metric that no
    included dataset has is absent from the result. Negative or non-finite weights raise ValueError.
    """
    weights = dataset_weights or {}
    totals: dict[str, float] = {}
    weight_sums: dict[str, float] = {}
    for dataset_id, metrics in scores:
        w = _number(weights.get(dataset_id, 1.0))
        if not math.isfinite(w) or w < 0:
            raise ValueError(f"weight of dataset {dataset_id!r} must be a non-negative number")
        if w == 0:
            continue
        for metric, raw in metrics.items():
            value = _number(raw)
            if not math.isfinite(value):
                continue
            totals[metric] = totals.get(metric, 0.0) + w * value
            weight_sums[metric] = weight_sums.get(metric, 0.0) + w
    return {metric: totals[metric] / weight_sums[metric] for metric in _metric_order(totals) if metric in totals}


def rank(results: Mapping[ModelId, DynascoreResult]) -> list[tuple[ModelId, DynascoreResult]]:
    """Leaderboard order: Dynascore descending, then perf descending, then model id ascending. Dynascores equal to 9
    decimals are ties: with two models every metric's term differs by exactly w_m · Δperf, so their scores are equal
    up to float rounding, which must not decide the order."""
    return sorted(results.items(), key=lambda item: (-round(item[1].dynascore, 9), -item[1].perf, _id_key(item[0])))


def priced_metrics(results: Iterable[DynascoreResult]) -> list[str]:
    """The metrics whose weight can move scores now: perf always; another only when its AMRS is defined and non-zero
    (at least two models differ in perf, and in that metric). With one model, only perf counts (the NaN rule)."""
    amrs = next(iter(results), DynascoreResult(None, 0.0, 0.0)).amrs
    return [PERF] + [m for m, value in amrs.items() if m != PERF and math.isfinite(value) and value != 0]
