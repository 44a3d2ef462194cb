"""Validator reliability (Dawid–Skene) from a task's vote history, and the reliability-weighted outcome rule.
Pure, no I/O; numpy only (written here rather than taken from crowd-kit, which would pull pandas, scikit-learn, nltk
and transformers into the server for one EM loop).

**Model** (Dawid & Skene 1979). Each item has one true label k among `labels`, with prior p_k; each worker answers
label l on an item whose true label is k with probability π_w[k, l] (their confusion matrix), independently.
`fit(votes)` estimates p and every π_w by EM: start from each item's vote shares, then alternate
- M-step: p_k ∝ Σ_i T_ik + 1 and π_w[k, l] ∝ Σ_{w voted l on i} T_ik + `smoothing` (+ `diagonal_prior` when l = k);
- E-step: T_ik ∝ p_k Π_{votes (w, l) on i} π_w[k, l],
until no T_ik moves by more than `tolerance` (or `max_iterations`). The pseudo-counts keep a worker with few votes
near the default matrix (what an unknown worker gets: `smoothing` everywhere, plus `diagonal_prior` on the diagonal,
normalized), so one lucky vote is not full trust. A worker's **reliability** is their expected accuracy
Σ_k p_k π_w[k, k]. A worker's repeated vote on the same item counts once (the first).

**Weighted rule** (`decide`, and `weighted_outcome` for validations). The votes are replayed in the order cast and
after each one the posterior over labels is computed (as in the E-step, with the fitted p and π); the first time the
most probable label has posterior ≥ `threshold` (strictly more than every other label) it decides (`CONFIDENT`).
No example stays open forever, as in `server/annotation/aggregation.py`: once `max_votes` votes are in without a
confident decision (for validations 2N − 1, N the task's num_matching_validations), the most probable label decides if
it is strictly more probable than each other (`FALLBACK`); a tie leaves no label (for validations: flagged, the owners
decide). An owner-mode vote decides at once, as in today's rule. Fit the model from the task's history on a schedule
and use that snapshot: an outcome once decided is stored, not re-decided when the model moves.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

import numpy as np
import numpy.typing as npt

from server.annotation.aggregation import OPEN, OUTCOME_OF_LABEL
from server.core.errors import ConfigError
from server.core.i18n import tr

Array = npt.NDArray[np.float64]
VALIDATION_LABELS = ("correct", "incorrect", "flagged")


@dataclass(frozen=True)
class VoteRecord:
    item: Hashable  # the example
    worker: Hashable  # the validator
    label: str


@dataclass(frozen=True)
class WorkerReliability:
    votes: int
    accuracy: float  # Σ_k p_k π[k, k]
    confusion: tuple[tuple[float, ...], ...]  # rows: true label, columns: answered label (the model's label order)


@dataclass(frozen=True)
class ReliabilityModel:
    labels: tuple[str, ...]
    prior: tuple[float, ...]
    workers: Mapping[Hashable, WorkerReliability]
    default_confusion: tuple[tuple[float, ...], ...]  # for a worker the history does not know
    item_posteriors: Mapping[Hashable, tuple[float, ...]] = field(default_factory=dict)  # from all the votes in the fit
    iterations: int = 0
    converged: bool = True

    def confusion(self, worker: Hashable) -> Array:
        known = self.workers.get(worker)
        return np.array(known.confusion if known else self.default_confusion, dtype=np.float64)

    def log_prior(self) -> Array:
        return np.log(np.array(self.prior, dtype=np.float64))

    def log_likelihood(self, worker: Hashable, label: str) -> Array:
        """log P(worker answers `label` | true label k), for each k."""
        logs = self._log_confusions.get(worker, self._log_default)
        try:
            column = self.labels.index(label)
        except ValueError:
            raise ValueError(f"the label {label!r} is not one of {self.labels}") from None
        out: Array = logs[:, column]
        return out

    def posterior(self, votes: Iterable[tuple[Hashable, str]]) -> dict[str, float]:
        """P(true label | these (worker, label) votes); each worker's first vote counts."""
        log_t = self.log_prior()
        seen: set[Hashable] = set()
        for worker, label in votes:
            if worker not in seen:
                seen.add(worker)
                log_t = log_t + self.log_likelihood(worker, label)
        return self.posterior_from_log(log_t)

    def posterior_from_log(self, log_t: Array) -> dict[str, float]:
        """Normalized posterior from unnormalized log-probabilities in the label order."""
        t = _normalize_log(log_t[np.newaxis, :])[0]
        return {label: float(t[k]) for k, label in enumerate(self.labels)}

    @cached_property
    def _log_confusions(self) -> dict[Hashable, Array]:
        return {worker: np.log(np.array(r.confusion, dtype=np.float64)) for worker, r in self.workers.items()}

    @cached_property
    def _log_default(self) -> Array:
        return np.log(np.array(self.default_confusion, dtype=np.float64))


class DecidedBy(StrEnum):
    CONFIDENT = "confident"
    FALLBACK = "fallback"
    OPEN = "open"


@dataclass(frozen=True)
class Decision:
    label: str | None  # None: open (by OPEN) or a tie at the fallback (to the owners)
    by: DecidedBy
    votes_used: int
    posterior: Mapping[str, float]


@dataclass(frozen=True)
class WeightedVote:
    worker: Hashable
    label: str  # correct | incorrect | flagged
    mode: str = "user"  # user | owner


def fit(
    votes: Iterable[VoteRecord],
    labels: Sequence[str] | None = None,
    *,
    smoothing: float = 1.0,
    diagonal_prior: float = 1.0,
    max_iterations: int = 200,
    tolerance: float = 1e-6,
) -> ReliabilityModel:
    """Dawid–Skene by EM (see the module docstring). `labels` fixes the label order (default: sorted labels seen)."""
    if smoothing <= 0 or diagonal_prior < 0:
        raise ConfigError(
            "reliability.smoothing", tr("The pseudo-counts must be positive (smoothing) and not negative (diagonal).")
        )
    records: list[VoteRecord] = []
    seen: set[tuple[Hashable, Hashable]] = set()
    for vote in votes:
        if (vote.item, vote.worker) not in seen:
            seen.add((vote.item, vote.worker))
            records.append(vote)
    label_list = tuple(labels) if labels is not None else tuple(sorted({v.label for v in records}))
    if len(label_list) < 2 or len(set(label_list)) != len(label_list):
        raise ConfigError("reliability.labels", tr("Reliability needs at least two distinct labels."))
    k = len(label_list)
    label_index = {label: i for i, label in enumerate(label_list)}
    for vote in records:
        if vote.label not in label_index:
            raise ValueError(f"the label {vote.label!r} is not one of {label_list}")
    pseudo = np.full((k, k), smoothing) + np.eye(k) * diagonal_prior
    default = pseudo / pseudo.sum(axis=1, keepdims=True)
    if not records:
        return ReliabilityModel(label_list, tuple([1.0 / k] * k), {}, _rows(default))

    items = list(dict.fromkeys(v.item for v in records))
    workers = list(dict.fromkeys(v.worker for v in records))
    item_of = {item: i for i, item in enumerate(items)}
    worker_of = {worker: w for w, worker in enumerate(workers)}
    vi = np.array([item_of[v.item] for v in records])
    vw = np.array([worker_of[v.worker] for v in records])
    vl = np.array([label_index[v.label] for v in records])

    t = np.zeros((len(items), k))
    np.add.at(t, (vi, vl), 1.0)
    t /= t.sum(axis=1, keepdims=True)
    converged = False
    iterations = 0
    while not converged and iterations < max_iterations:
        iterations += 1
        prior, confusion = _m_step(t, vi, vw, vl, len(workers), pseudo)
        log_t = np.log(prior)[np.newaxis, :].repeat(len(items), axis=0)
        np.add.at(log_t, vi, np.log(confusion[vw, :, vl]))
        new_t = _normalize_log(log_t)
        converged = float(np.max(np.abs(new_t - t))) <= tolerance
        t = new_t
    prior, confusion = _m_step(t, vi, vw, vl, len(workers), pseudo)
    counts = np.bincount(vw, minlength=len(workers))
    reliabilities = {
        worker: WorkerReliability(int(counts[w]), float(np.dot(prior, np.diag(confusion[w]))), _rows(confusion[w]))
        for w, worker in enumerate(workers)
    }
    posteriors = {item: tuple(float(x) for x in t[i]) for i, item in enumerate(items)}
    return ReliabilityModel(
        label_list, tuple(float(x) for x in prior), reliabilities, _rows(default), posteriors, iterations, converged
    )


def decide(
    model: ReliabilityModel, votes: Sequence[tuple[Hashable, str]], threshold: float, max_votes: int | None = None
) -> Decision:
    """Replay (worker, label) votes in order: the first confident prefix decides; after `max_votes` votes, the
    fallback; otherwise open. With `max_votes` None there is no fallback."""
    check_threshold(threshold)
    if max_votes is not None and max_votes < 1:
        raise ValueError("max_votes is at least 1")
    log_t = model.log_prior()
    posterior = model.posterior_from_log(log_t)
    seen: set[Hashable] = set()
    for n, (worker, label) in enumerate(votes, start=1):
        if worker not in seen:
            seen.add(worker)
            log_t = log_t + model.log_likelihood(worker, label)
            posterior = model.posterior_from_log(log_t)
        best, unique = _best(posterior)
        if unique and posterior[best] >= threshold:
            return Decision(best, DecidedBy.CONFIDENT, n, posterior)
        if max_votes is not None and n >= max_votes:
            return Decision(best if unique else None, DecidedBy.FALLBACK, n, posterior)
    return Decision(None, DecidedBy.OPEN, len(votes), posterior)


def weighted_outcome(votes: Iterable[WeightedVote], model: ReliabilityModel, threshold: float, num_matching: int) -> str:
    """validated | rejected | flagged | open, the weighted counterpart of aggregation.outcome (same guarantees)."""
    if set(model.labels) != set(VALIDATION_LABELS):
        raise ValueError(f"a validation model has the labels {VALIDATION_LABELS}")
    user: list[tuple[Hashable, str]] = []
    for vote in votes:
        if vote.mode == "owner":
            return OUTCOME_OF_LABEL[vote.label]
        user.append((vote.worker, vote.label))
    decision = decide(model, user, threshold, 2 * num_matching - 1)
    if decision.label is not None:
        return OUTCOME_OF_LABEL[decision.label]
    return "flagged" if decision.by is DecidedBy.FALLBACK else OPEN


def check_threshold(threshold: float) -> float:
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0.0 < float(threshold) <= 1.0:
        raise ConfigError("validation.confidenceThreshold", tr("The confidence threshold is above 0 and at most 1."))
    return float(threshold)


def _m_step(
    t: Array, vi: npt.NDArray[np.int_], vw: npt.NDArray[np.int_], vl: npt.NDArray[np.int_], n_workers: int, pseudo: Array
) -> tuple[Array, Array]:
    k = t.shape[1]
    prior = (t.sum(axis=0) + 1.0) / (t.shape[0] + k)
    answered = np.zeros((n_workers, k, k))  # [worker, answered label, true label]
    np.add.at(answered, (vw, vl), t[vi])
    counts = answered.transpose(0, 2, 1) + pseudo  # [worker, true, answered]
    return prior, counts / counts.sum(axis=2, keepdims=True)


def _normalize_log(log_t: Array) -> Array:
    shifted = log_t - log_t.max(axis=1, keepdims=True)
    p = np.exp(shifted)
    out: Array = p / p.sum(axis=1, keepdims=True)
    return out


def _best(posterior: Mapping[str, float]) -> tuple[str, bool]:
    ranked = sorted(posterior.items(), key=lambda kv: -kv[1])
    unique = len(ranked) == 1 or ranked[0][1] > ranked[1][1]
    return ranked[0][0], unique


def _rows(matrix: Array) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(x) for x in row) for row in matrix)
