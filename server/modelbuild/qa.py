"""Fit the extractive QA baseline (word-overlap span ranker) and score it with SQuAD F1.

The features and the ranker live in the Triton model file
(``triton_models/qa_overlap_baseline/1/model.py``) so that fitting and serving share code;
this module loads that file by path (it imports Triton's ``triton_python_backend_utils``
only when present).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

# SQuAD v1.1 normalization and token F1: the platform's own definition (docs/design.md §4 "Fooled").
from server.annotation.fooling import squad_f1
from server.annotation.fooling import squad_normalize as normalize_answer


def load_ranker_module(model_py: Path) -> ModuleType:
    """Import the QA Triton model file by path (a fresh module object each call)."""
    name = f"_dynabench_qa_ranker_{abs(hash(str(model_py)))}"
    spec = importlib.util.spec_from_file_location(name, model_py)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {model_py}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class QAFitConfig:
    iterations: int
    lr: float = 0.1
    l2: float = 1e-3
    max_questions: int | None = None


QA_PROFILES = {
    "fast": QAFitConfig(iterations=150, max_questions=300),
    "full": QAFitConfig(iterations=400),
}


def _targets(module: ModuleType, rows: list[dict]):
    """Per question: (features, index of the best-F1 candidate) for questions with a usable target."""
    return [t for t in (_target(module, r) for r in rows) if t is not None]


def _target(module: ModuleType, r: dict):
    """(features, index of the best-F1 candidate), or None when no candidate span overlaps the answer."""
    spans, feats = module.candidate_features(r["context"], r["question"])
    if not spans:
        return None
    gold_start = r.get("answer_start", -1)
    gold_end = gold_start + len(r["answer"]) if gold_start is not None and gold_start >= 0 else -1
    best, best_key = -1, None
    for k, (s, e) in enumerate(spans):
        f1 = squad_f1(r["context"][s:e], r["answer"])
        overlap = max(0, min(e, gold_end) - max(s, gold_start)) if gold_end > 0 else 0
        key = (f1, overlap, -(e - s))
        if f1 > 0 and (best_key is None or key > best_key):
            best, best_key = k, key
    return (feats, best) if best >= 0 else None


def fit_ranker(
    module: ModuleType,
    train: list[dict],
    cfg: QAFitConfig,
    progress: Callable[[int, int, float], None] | None = None,
    validated: list[dict] | None = None,
) -> tuple[np.ndarray, int, list[bool]]:
    """Softmax-over-candidates (listwise) linear model fitted with Adam on the whole set each iteration.

    ``max_questions`` caps the seed rows (``train``) only; every row of ``validated`` is used when it has a
    usable target, and the validated rows together carry `mixing.validated_share` of the loss (§4.8).
    Returns (weights, questions used, per validated row whether it was used).
    """
    from server.modelbuild.mixing import validated_share

    rows = train[: cfg.max_questions] if cfg.max_questions else train
    data = _targets(module, rows)
    extra = [_target(module, r) for r in validated or []]
    used = [t is not None for t in extra]
    extra_data = [t for t in extra if t is not None]
    if not data and not extra_data:
        raise ValueError("no QA training example has a candidate span matching its answer")
    share = validated_share(len(data), len(extra_data))
    # Each question's weight in the loss: seed questions share (1 - share), validated ones share `share`.
    weights = [(1 - share) / len(data)] * len(data) if data else []
    weights += [share / len(extra_data)] * len(extra_data) if extra_data else []
    data += extra_data
    dim = data[0][0].shape[1]
    w = np.zeros(dim, dtype=np.float64)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    stacked = [(x.astype(np.float64), t, weight) for (x, t), weight in zip(data, weights, strict=True)]
    for it in range(1, cfg.iterations + 1):
        grad = cfg.l2 * w
        loss = 0.0
        for x, t, weight in stacked:
            s = x @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            loss -= weight * np.log(p[t] + 1e-12)
            p[t] -= 1.0
            grad += weight * (x.T @ p)
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= cfg.lr * (m / (1 - b1**it)) / (np.sqrt(v / (1 - b2**it)) + eps)
        if progress:
            progress(it, cfg.iterations, loss)
    return w.astype(np.float32), len(data), used


def save_ranker(module: ModuleType, weights: np.ndarray, path: Path, extra: dict | None = None) -> None:
    doc = {"features": list(module.FEATURE_NAMES), "weights": [round(float(x), 6) for x in weights]}
    doc.update(extra or {})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def evaluate(module: ModuleType, weights: np.ndarray, rows: list[dict]) -> dict[str, float] | None:
    if not rows:
        return None
    ranker = module.QARanker(weights)
    f1s, ems = [], []
    for r in rows:
        answer, _, _, _ = ranker.answer(r["context"], r["question"])
        f1s.append(squad_f1(answer, r["answer"]))
        ems.append(float(normalize_answer(answer) == normalize_answer(r["answer"])))
    return {"f1": 100.0 * sum(f1s) / len(f1s), "exact_match": 100.0 * sum(ems) / len(ems)}
