"""The near-duplicate guard at submission: does a new example repeat one of the worker's earlier examples or one of
the round's validated examples? Pure, no I/O; the caller reads the earlier texts and, when the task has an encoder,
computes the vectors (the new text's and the earlier ones') with it.

The tests reuse the contamination check's definitions (`server.evaluation.datasets.contamination`, docs/design.md §4.9), on
the annotator-written text, in this order; the first that finds something decides:
1. **exact**: equal after `normalize` (case, accents, punctuation and spacing do not count). A text that normalizes to
   nothing (only punctuation) is never a duplicate by text;
2. **near**: the Jaccard similarity of the sets of word n-grams (`ngram`, 3) is at least `jaccard` (0.7); a text of
   fewer than n words is one n-gram, so for short texts near means equal;
3. **semantic**: the cosine similarity of the vectors is at least the task's `cosine` threshold (None: no semantic
   test). Zero vectors are never similar; vectors of different lengths are a caller error.
Within a test the most similar earlier example wins, ties going to the earliest given. The result names it (its id
and whether it is the worker's own or a validated one of the round), the kind and the score, for a message such as
"This repeats your example #12 (near-duplicate, 0.82)".
Build a `DuplicateIndex` once per batch of checks (a sync of offline submissions) rather than per text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from server.core.errors import ConfigError
from server.core.i18n import tr
from server.evaluation.datasets.contamination import COSINE_THRESHOLD, JACCARD_THRESHOLD, NGRAM, jaccard, ngrams, normalize


class Source(StrEnum):
    OWN = "own"  # the same worker's earlier example
    ROUND = "round"  # a validated example of the round


class DuplicateKind(StrEnum):
    EXACT = "exact"
    NEAR = "near"
    SEMANTIC = "semantic"


@dataclass(frozen=True)
class Earlier:
    id: int
    text: str
    source: Source
    vector: Sequence[float] | npt.NDArray[np.floating[Any]] | None = None


@dataclass(frozen=True)
class Thresholds:
    jaccard: float = JACCARD_THRESHOLD
    cosine: float | None = COSINE_THRESHOLD  # the task's; None turns the semantic test off
    ngram: int = NGRAM

    def __post_init__(self) -> None:
        if not 0.0 < self.jaccard <= 1.0:
            raise ConfigError("duplicates.jaccard", tr("The n-gram similarity threshold is above 0 and at most 1."))
        if self.cosine is not None and not 0.0 < self.cosine <= 1.0:
            raise ConfigError("duplicates.cosine", tr("The embedding similarity threshold is above 0 and at most 1."))
        if not 1 <= self.ngram <= 10:
            raise ConfigError("duplicates.ngram", tr("The n-gram length is from 1 to 10 words."))


@dataclass(frozen=True)
class DuplicateMatch:
    earlier_id: int
    source: Source
    kind: DuplicateKind
    score: float  # 1.0 for exact; the Jaccard or cosine similarity otherwise

    def message(self) -> str:
        how = {
            DuplicateKind.EXACT: tr("the same text"),
            DuplicateKind.NEAR: tr("nearly the same words"),
            DuplicateKind.SEMANTIC: tr("the same meaning"),
        }[self.kind]
        if self.source is Source.OWN:
            return tr(
                "This repeats your earlier example #{id} ({how}, similarity {score:.2f}). Please write something new.",
                id=self.earlier_id,
                how=how,
                score=self.score,
            )
        return tr(
            "This repeats the validated example #{id} ({how}, similarity {score:.2f}). Please write something new.",
            id=self.earlier_id,
            how=how,
            score=self.score,
        )


_EPS = 1e-9


class DuplicateIndex:
    """The earlier examples, prepared once; `check` compares a new text (and its vector) against all of them."""

    def __init__(self, earlier: Iterable[Earlier], thresholds: Thresholds | None = None) -> None:
        self.thresholds = thresholds or Thresholds()
        self.items = tuple(earlier)
        self._normalized = [normalize(item.text) for item in self.items]
        self._exact: dict[str, int] = {}
        for i, text in enumerate(self._normalized):
            if text:
                self._exact.setdefault(text, i)
        self._ngrams = [ngrams(item.text, self.thresholds.ngram) for item in self.items]
        with_vectors = [i for i, item in enumerate(self.items) if item.vector is not None]
        self._vector_rows = np.array(with_vectors, dtype=np.int64)
        self._matrix: npt.NDArray[np.float64] | None = None
        if with_vectors:
            matrix = np.array([np.asarray(self.items[i].vector, dtype=np.float64) for i in with_vectors])
            if matrix.ndim != 2:
                raise ValueError("the earlier examples' vectors have different lengths")
            self._matrix = _unit(matrix)

    def check(self, text: str, vector: Sequence[float] | npt.NDArray[np.floating[Any]] | None = None) -> DuplicateMatch | None:
        norm = normalize(text)
        if norm:
            i = self._exact.get(norm)
            if i is not None:
                return self._match(i, DuplicateKind.EXACT, 1.0)
            grams = ngrams(text, self.thresholds.ngram)
            best: tuple[float, int] | None = None
            for i, other in enumerate(self._ngrams):
                if not other or not self._normalized[i]:
                    continue
                score = jaccard(grams, other)
                if score >= self.thresholds.jaccard - _EPS and (best is None or score > best[0]):
                    best = (score, i)
            if best is not None:
                return self._match(best[1], DuplicateKind.NEAR, best[0])
        if vector is None or self.thresholds.cosine is None or self._matrix is None:
            return None
        query = np.asarray(vector, dtype=np.float64)
        if query.ndim != 1 or query.shape[0] != self._matrix.shape[1]:
            raise ValueError("the new text's vector does not have the earlier vectors' length")
        norm_q = float(np.linalg.norm(query))
        if norm_q == 0.0 or not np.isfinite(norm_q):
            return None
        scores = self._matrix @ (query / norm_q)
        j = int(np.argmax(scores))  # the first of equal maxima: the earliest given
        score = float(scores[j])
        if score >= self.thresholds.cosine - _EPS:
            return self._match(int(self._vector_rows[j]), DuplicateKind.SEMANTIC, min(score, 1.0))
        return None

    def _match(self, i: int, kind: DuplicateKind, score: float) -> DuplicateMatch:
        item = self.items[i]
        return DuplicateMatch(item.id, item.source, kind, score)


def find_duplicate(
    text: str,
    earlier: Iterable[Earlier],
    vector: Sequence[float] | npt.NDArray[np.floating[Any]] | None = None,
    thresholds: Thresholds | None = None,
) -> DuplicateMatch | None:
    """One check against `earlier` (see DuplicateIndex for many)."""
    return DuplicateIndex(earlier, thresholds).check(text, vector)


def _unit(matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Rows scaled to length 1; zero (or non-finite) rows become zero, so they match nothing."""
    matrix = np.where(np.isfinite(matrix).all(axis=1, keepdims=True), matrix, 0.0)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    out: npt.NDArray[np.float64] = matrix / np.where(norms == 0, 1.0, norms)
    return out
