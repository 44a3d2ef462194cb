"""Scoring a model's predictions on a dataset (docs/design.md §4). Pure functions, no I/O.

Scales
------
Every *performance* metric here (``accuracy``, ``macro_f1``, ``squad_f1_corpus`` and so
``performance`` and ``per_tag``) is reported on a **0–100 scale** (percent), the way leaderboards
show them. ``token_f1`` (generative tasks) is ``squad_f1_corpus`` of each reply against its reference. ``consistency`` (robustness / fairness) is a **share in [0, 1]**. The Dynascore does not
care about either choice: dividing by the AMRS makes it invariant to rescaling any metric.

Errors
------
Scoring an empty list, or golds and predictions of different lengths, is a caller bug and raises
``ValueError`` rather than returning a number that would look like a real score.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from server.annotation.fooling import squad_f1, squad_normalize

PERFORMANCE_METRICS = ("accuracy", "macro_f1", "squad_f1", "token_f1")


def _check(golds: Sequence[Any], preds: Sequence[Any]) -> None:
    if len(golds) != len(preds):
        raise ValueError(f"{len(golds)} golds but {len(preds)} predictions")
    if not golds:
        raise ValueError("nothing to score: no examples")


def accuracy(golds: Sequence[Hashable], preds: Sequence[Hashable]) -> float:
    """Percentage (0–100) of predictions equal to the gold label."""
    _check(golds, preds)
    return 100.0 * sum(g == p for g, p in zip(golds, preds)) / len(golds)


def macro_f1(golds: Sequence[str], preds: Sequence[Any], labels: Sequence[str]) -> float:
    """Unweighted mean over ``labels`` of each label's F1, on a 0–100 scale.

    Per label l: F1 = 2·TP / (2·TP + FP + FN), counted one-vs-rest over the examples.
    A label with no gold example and no prediction (TP = FP = FN = 0) is **skipped**: its F1 is
    undefined (0/0), and counting it as 0 or 1 would move the average for a reason that has nothing
    to do with the model. A prediction outside ``labels`` (a malformed model answer) is simply
    wrong: it is a false negative for the gold's label and a false positive for no label.
    Every gold must be one of ``labels`` (else ``ValueError``): a gold outside them is a data bug.
    """
    _check(golds, preds)
    label_list = list(dict.fromkeys(labels))
    if not label_list:
        raise ValueError("macro_f1 needs at least one label")
    known = set(label_list)
    unknown = [g for g in golds if g not in known]
    if unknown:
        raise ValueError(f"gold label(s) {sorted(set(map(str, unknown)))} not among {label_list}")
    tp: dict[str, int] = defaultdict(int)
    fp: dict[str, int] = defaultdict(int)
    fn: dict[str, int] = defaultdict(int)
    for gold, pred in zip(golds, preds):
        if gold == pred:
            tp[gold] += 1
        else:
            fn[gold] += 1
            if pred in known:
                fp[pred] += 1
    scores = []
    for label in label_list:
        denominator = 2 * tp[label] + fp[label] + fn[label]
        if denominator == 0:
            continue  # no gold and no prediction for this label: skipped (see docstring)
        scores.append(2 * tp[label] / denominator)
    # Golds are non-empty and all in `labels`, so at least one label has a gold: scores is non-empty.
    return 100.0 * sum(scores) / len(scores)


def _answers(gold: Sequence[str] | str) -> list[str]:
    answers = [gold] if isinstance(gold, str) else [str(a) for a in gold]
    if not answers:
        raise ValueError("an example has no gold answer")
    return answers


def squad_f1_corpus(golds: Sequence[Sequence[str] | str], preds: Sequence[str | None]) -> float:
    """SQuAD F1 on a 0–100 scale: mean over examples of the best F1 against any gold answer.

    A gold is one answer (str) or a list of acceptable answers; a ``None`` prediction counts as
    the empty answer (F1 0 against any non-empty gold).
    """
    _check(golds, preds)
    total = 0.0
    for gold, pred in zip(golds, preds):
        prediction = "" if pred is None else str(pred)
        total += max(squad_f1(prediction, answer) for answer in _answers(gold))
    return 100.0 * total / len(golds)


def performance(metric_name: str, golds: Sequence[Any], preds: Sequence[Any], labels: Sequence[str] | None = None) -> float:
    """The task's performance metric (TaskConfig.performance_metric) on a 0–100 scale.

    ``labels`` matters for ``macro_f1`` only. When it is None the distinct golds (in first-seen
    order) are used. Then a label that the model predicts but no gold has does not get an F1 of 0 of
    its own in the average (its predictions still count as errors for the golds' labels). Pass the
    task's label set when you have it.
    """
    if metric_name == "accuracy":
        return accuracy(golds, preds)
    if metric_name == "macro_f1":
        return macro_f1(golds, preds, labels if labels is not None else list(dict.fromkeys(golds)))
    if metric_name in ("squad_f1", "token_f1"):
        # token_f1 (generative tasks): a reply against its reference reply, scored exactly as an extractive answer.
        return squad_f1_corpus(golds, preds)
    raise ValueError(f"unknown performance metric {metric_name!r}; known: {', '.join(PERFORMANCE_METRICS)}")


def per_tag(
    metric_name: str, rows: Iterable[tuple[Sequence[str], Any, Any]], labels: Sequence[str] | None = None
) -> dict[str, float]:
    """Performance on the subset of examples carrying each tag, as ``{tag: score}`` sorted by tag.

    ``rows`` are ``(tags, gold, pred)``. An example with several tags counts in each of them (a
    tag repeated on one example counts once); an example without tags counts in none.
    """
    golds: dict[str, list[Any]] = defaultdict(list)
    preds: dict[str, list[Any]] = defaultdict(list)
    for tags, gold, pred in rows:
        for tag in dict.fromkeys(str(t) for t in tags):
            golds[tag].append(gold)
            preds[tag].append(pred)
    return {tag: performance(metric_name, golds[tag], preds[tag], labels) for tag in sorted(golds)}


def _comparable(pred: Any, qa: bool) -> Any:
    """What two predictions are compared on.

    A model output dict compares on its ``answer`` (SQuAD-normalized) or else its ``label``; a plain
    string compares SQuAD-normalized when ``qa`` is true, exactly otherwise.
    """
    if isinstance(pred, Mapping):
        if "answer" in pred:
            return squad_normalize(str(pred["answer"] or ""))
        return pred.get("label")
    if qa:
        return squad_normalize("" if pred is None else str(pred))
    return pred


def consistency(
    original_preds: Mapping[Hashable, Any], perturbed: Iterable[tuple[Hashable, Any]], *, qa: bool = False
) -> float | None:
    """Robustness / fairness (docs/design.md §4) as a share in [0, 1], or None when nothing to measure.

    For each original example that has at least one perturbed copy, the share of its copies on
    which the model's prediction equals the model's own prediction on the original (consistency,
    not accuracy against gold); the result is the unweighted mean of those shares over examples.

    ``perturbed`` is ``(original_uid, prediction)`` per perturbed copy. A copy whose original has
    no prediction in ``original_preds`` is ignored (there is nothing to be consistent with).
    For extractive QA pass ``qa=True`` (or model output dicts with an ``answer`` key): answers are
    then compared after SQuAD normalization, so "The Eiffel Tower" equals "eiffel tower.".
    Returns None when no original has a perturbed copy (e.g. fairness on a dataset without names
    or gendered words), so that callers store "not measured" rather than a fake 0 or 1.
    """
    agree: dict[Hashable, int] = defaultdict(int)
    total: dict[Hashable, int] = defaultdict(int)
    for original_uid, pred in perturbed:
        if original_uid not in original_preds:
            continue
        total[original_uid] += 1
        if _comparable(pred, qa) == _comparable(original_preds[original_uid], qa):
            agree[original_uid] += 1
    if not total:
        return None
    return sum(agree[uid] / count for uid, count in total.items()) / len(total)
