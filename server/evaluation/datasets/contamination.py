"""Contamination: exact and near-duplicate overlap between a set of rows and a corpus (docs/design.md §4.9).

Pure (no I/O): the job (server/evaluation/datasets/contamination_check.py) reads the rows, the corpus and, where the task
has a local encoder, their sentence embeddings, and stores what `compare` returns.

A row is a tuple of field texts in a fixed order (a task's model inputs). Two rows are
- an **exact** duplicate when every field is equal after `normalize` (lowercase, accents and punctuation
  removed, emoji and other symbols kept as words, whitespace collapsed);
- a **near-duplicate by n-grams** when, for every field, the Jaccard similarity of the sets of word
  `n`-grams (3 by default) of the normalized texts is at least `threshold` (0.7): the minimum over fields
  counts, so two NLI rows that share a premise but not a hypothesis are not duplicates. A text shorter than
  `n` words is one "n-gram" (itself), so for very short texts near means equal;
- a **near-duplicate by embeddings** when, for every field, the cosine similarity of the given vectors is at
  least `cosine_threshold` (0.98).
Each row counts once, under the first test it passes in that order.

Candidates for the n-gram test come from prefix filtering (Chaudhuri et al. 2006; Bayardo et al. 2007) on one
key field (the annotator-written one): with the n-grams of every text sorted rarest first, two sets whose
Jaccard similarity is at least t share an n-gram among the first |x| - ⌈t·|x|⌉ + 1 of each. So the join is
exact, like comparing every pair, without comparing every pair, and MinHash is not needed at ../shared/data
sizes. Measured (busy two-core machine): DynaSent R1 dev (3,600) against SST-2 train (6,920) 0.4 s, against
the sentiment seed (26,389) 1.4 s; ANLI R1 dev against SNLI + MNLI dev (19,657 pairs) 1.3 s.

The cosine threshold is 0.98, not the 0.95 usual for sentence encoders, because the targets' encoders are
fine-tuned classifiers whose pooled vectors crowd together: with the test stack's sentiment encoder, 151 of
DynaSent R1 dev's 3,600 rows had an SST-2 train sentence at cosine >= 0.95 and none was a duplicate; at >= 0.97
one row was left, an exact copy ("Amazing!"). A one-word respelling scores 0.995. On HatemojiBuild, whose test rows are one-word
or one-emoji edits of train rows by design, 0.98 finds 251 of 593.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

NGRAM = 3
JACCARD_THRESHOLD = 0.7
COSINE_THRESHOLD = 0.98  # measured: see the module docstring
EXACT, NEAR_NGRAM, NEAR_EMBEDDING = "exact", "near_ngram", "near_embedding"
KINDS = (EXACT, NEAR_NGRAM, NEAR_EMBEDDING)
_EPSILON = 1e-9  # 0.7 * 10 is 7.000000000000001 in floating point: a prefix must not lose a token to it
_BLOCK = 1024  # rows per block of the cosine-similarity matrix (1024 x 8192 float32 = 32 MB)
_CORPUS_BLOCK = 8192

Row = Sequence[str]


def normalize(text: str) -> str:
    """Lowercase, accents removed (NFKD without combining marks), punctuation and control characters a space,
    each symbol (an emoji, a currency sign) a word of its own, whitespace collapsed. Symbols stay: in "I would
    love to 🔪 some 👳🏾" the emoji carries the meaning."""
    out = []
    for ch in unicodedata.normalize("NFKD", text).casefold():
        category = unicodedata.category(ch)
        if unicodedata.combining(ch) or category == "Cf":  # accents, variation selectors, zero-width joiners
            continue
        if category[0] == "S":
            out.append(f" {ch} ")
        elif ch.isalnum():
            out.append(ch)
        else:
            out.append(" ")
    return " ".join("".join(out).split())


def exact_key(fields: Row) -> str:
    """A hash of the row's normalized fields (U+001F between fields, so field boundaries count)."""
    joined = "\x1f".join(normalize(text) for text in fields)
    return hashlib.blake2b(joined.encode("utf-8"), digest_size=16).hexdigest()


def ngrams(text: str, n: int = NGRAM) -> frozenset[str]:
    """The word n-grams of the normalized text; a text of fewer than n words is one n-gram; empty: none."""
    words = normalize(text).split()
    if len(words) < n:
        return frozenset([" ".join(words)]) if words else frozenset()
    return frozenset(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def prefix_length(size: int, threshold: float) -> int:
    """How many of a set's rarest tokens must be indexed so that no pair with Jaccard >= threshold is missed."""
    return size - math.ceil(threshold * size - _EPSILON) + 1 if size else 0


@dataclass(frozen=True)
class Match:
    row: int  # index into the rows
    match: int  # index into the corpus
    kind: str  # exact | near_ngram | near_embedding
    similarity: float  # 1.0 for exact; the minimum over fields otherwise


@dataclass
class OverlapReport:
    """How many rows duplicate something in the corpus, by the first test that found it, and each such row's match."""

    rows: int
    compared: int
    matches: dict[int, Match] = field(default_factory=dict)
    embeddings: bool = False  # whether the embedding test ran

    def count(self, kind: str) -> int:
        return sum(1 for m in self.matches.values() if m.kind == kind)

    def counts(self) -> dict[str, int]:
        """{"compared", "exact", "near_ngram", "near_embedding", "rows"}: rows = rows matched by any test."""
        return {"compared": self.compared, **{kind: self.count(kind) for kind in KINDS}, "rows": len(self.matches)}

    def examples(self, cap: int) -> list[Match]:
        """At most `cap` matches, spread over the kinds (exact first), each kind in row order."""
        by_kind = {kind: sorted((m for m in self.matches.values() if m.kind == kind), key=lambda m: m.row) for kind in KINDS}
        picked: list[Match] = []
        while len(picked) < cap and any(by_kind.values()):
            for kind in KINDS:
                if by_kind[kind] and len(picked) < cap:
                    picked.append(by_kind[kind].pop(0))
        return sorted(picked, key=lambda m: (KINDS.index(m.kind), m.row))


def exact_matches(rows: Sequence[Row], corpus: Sequence[Row]) -> dict[int, int]:
    """Row index → the first corpus index with the same exact key."""
    first: dict[str, int] = {}
    for j, item in enumerate(corpus):
        first.setdefault(exact_key(item), j)
    found: dict[int, int] = {}
    for i, row in enumerate(rows):
        match = first.get(exact_key(row))
        if match is not None:
            found[i] = match
    return found


def ngram_matches(
    rows: Sequence[Row],
    corpus: Sequence[Row],
    *,
    n: int = NGRAM,
    threshold: float = JACCARD_THRESHOLD,
    key_field: int = 0,
    skip: set[int] | frozenset[int] = frozenset(),
) -> dict[int, tuple[int, float]]:
    """Row index → (corpus index, similarity) of its most similar corpus row with similarity >= threshold
    (the minimum over fields of the n-gram Jaccard similarity); rows in `skip` are not looked at."""
    row_sets = [[ngrams(text, n) for text in row] for row in rows]
    corpus_sets = [[ngrams(text, n) for text in item] for item in corpus]
    # Global order: rarest n-gram first (ties by text), counted over both sides' key fields.
    frequency = Counter(g for sets in (*row_sets, *corpus_sets) for g in sets[key_field])
    rank = {g: (count, g) for g, count in frequency.items()}

    def ordered(tokens: frozenset[str]) -> list[str]:
        return sorted(tokens, key=rank.__getitem__)

    index: dict[str, list[int]] = {}
    for j, sets in enumerate(corpus_sets):
        key = ordered(sets[key_field])
        for token in key[: prefix_length(len(key), threshold)]:
            index.setdefault(token, []).append(j)
    found: dict[int, tuple[int, float]] = {}
    for i, sets in enumerate(row_sets):
        if i in skip:
            continue
        key = ordered(sets[key_field])
        candidates: set[int] = set()
        for token in key[: prefix_length(len(key), threshold)]:
            candidates.update(index.get(token, ()))
        best: tuple[int, float] | None = None
        for j in sorted(candidates):
            similarity = min(jaccard(a, b) for a, b in zip(sets, corpus_sets[j], strict=True))
            if similarity >= threshold - _EPSILON and (best is None or similarity > best[1]):
                best = (j, similarity)
        if best is not None:
            found[i] = best
    return found


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (a zero row stays zero)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def embedding_matches(
    row_vectors: Sequence[np.ndarray],
    corpus_vectors: Sequence[np.ndarray],
    *,
    threshold: float = COSINE_THRESHOLD,
    only: Sequence[int] | None = None,
) -> dict[int, tuple[int, float]]:
    """Row index → (corpus index, similarity) of the corpus row whose minimum over fields of the cosine
    similarity is highest, when that is >= threshold. One matrix per field, rows × dimensions; `only` limits
    the rows looked at."""
    if len(row_vectors) != len(corpus_vectors) or not row_vectors:
        raise ValueError("one matrix per field on both sides")
    rows_n, corpus_n = len(row_vectors[0]), len(corpus_vectors[0])
    if not rows_n or not corpus_n:
        return {}
    r_fields = [unit_rows(v) for v in row_vectors]
    c_fields = [unit_rows(v) for v in corpus_vectors]
    wanted = np.arange(rows_n) if only is None else np.asarray(sorted(set(only)), dtype=np.int64)
    found: dict[int, tuple[int, float]] = {}
    for start in range(0, len(wanted), _BLOCK):
        block = wanted[start : start + _BLOCK]
        best_sim = np.full(len(block), -np.inf, dtype=np.float32)
        best_at = np.zeros(len(block), dtype=np.int64)
        for c_start in range(0, corpus_n, _CORPUS_BLOCK):
            sims = None
            for r, c in zip(r_fields, c_fields, strict=True):
                part = r[block] @ c[c_start : c_start + _CORPUS_BLOCK].T
                sims = part if sims is None else np.minimum(sims, part)
            assert sims is not None
            at = sims.argmax(axis=1)
            value = sims[np.arange(len(block)), at]
            better = value > best_sim
            best_sim[better], best_at[better] = value[better], at[better] + c_start
        for i, j, s in zip(block.tolist(), best_at.tolist(), best_sim.tolist(), strict=True):
            if s >= threshold - 1e-6:
                found[i] = (j, min(1.0, float(s)))
    return found


def compare(
    rows: Sequence[Row],
    corpus: Sequence[Row],
    *,
    n: int = NGRAM,
    threshold: float = JACCARD_THRESHOLD,
    key_field: int = 0,
    row_vectors: Sequence[np.ndarray] | None = None,
    corpus_vectors: Sequence[np.ndarray] | None = None,
    vector_rows: Sequence[int] | None = None,
    cosine_threshold: float = COSINE_THRESHOLD,
) -> OverlapReport:
    """Exact, then n-gram, then (with vectors on both sides) embedding near-duplicates of rows in the corpus.
    `corpus_vectors` may cover only some corpus rows: `vector_rows` lists which, in order (default: all)."""
    report = OverlapReport(rows=len(rows), compared=len(corpus))
    if not rows or not corpus:
        report.embeddings = row_vectors is not None and corpus_vectors is not None
        return report
    for i, j in exact_matches(rows, corpus).items():
        report.matches[i] = Match(i, j, EXACT, 1.0)
    near = ngram_matches(rows, corpus, n=n, threshold=threshold, key_field=key_field, skip=set(report.matches))
    for i, (j, similarity) in near.items():
        report.matches[i] = Match(i, j, NEAR_NGRAM, round(similarity, 4))
    if row_vectors is not None and corpus_vectors is not None:
        report.embeddings = True
        left = [i for i in range(len(rows)) if i not in report.matches]
        found = embedding_matches(row_vectors, corpus_vectors, threshold=cosine_threshold, only=left)
        for i, (k, similarity) in found.items():
            j = k if vector_rows is None else vector_rows[k]
            report.matches[i] = Match(i, j, NEAR_EMBEDDING, round(similarity, 4))
    return report
