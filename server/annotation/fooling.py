"""Deciding whether a model was fooled (docs/design.md §4). Pure functions, no I/O."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence
from typing import Any

from server.tasks.config import TaskConfig

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = set(string.punctuation)


def squad_normalize(text: str) -> str:
    """The official SQuAD normalization: lowercase, drop punctuation and articles, collapse spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def squad_f1(prediction: str, gold: str) -> float:
    """Token-overlap F1 between normalized answers (SQuAD v1.1 evaluation script)."""
    predicted_tokens = squad_normalize(prediction).split()
    gold_tokens = squad_normalize(gold).split()
    if not predicted_tokens or not gold_tokens:
        # Both empty: the answers agree; one empty: no overlap.
        return float(predicted_tokens == gold_tokens)
    common = Counter(predicted_tokens) & Counter(gold_tokens)
    overlap = sum(common.values())
    if overlap == 0:
        return 0.0
    precision = overlap / len(predicted_tokens)
    recall = overlap / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def annotator_decides(config: TaskConfig) -> bool:
    """fooling `ask_user`: no metric judges the output; the annotator claims it, validators confirm (§4.1)."""
    return config.fooling.metric == "ask_user"


def validators_decide(config: TaskConfig) -> bool:
    """fooling `validator_rating` (generative tasks): nobody claims; validators' ratings decide (§4.1)."""
    return config.fooling.metric == "validator_rating"


def rated_vote_label(config: TaskConfig, label: str, values: dict[str, Any]) -> str:
    """Under validator_rating a vote's rating is its answer: at least the threshold says the model failed (correct),
    below it says it did not (incorrect), whatever correct/incorrect was sent; a flag stays a flag."""
    rule = config.generative.rating if config.generative else None
    if not validators_decide(config) or rule is None or label == "flagged" or values.get(rule.field) is None:
        return label
    return "correct" if float(values[rule.field]) >= rule.threshold else "incorrect"


def model_is_wrong(config: TaskConfig, intended: str, model_output: dict[str, Any]) -> bool:
    """One model's verdict: label mismatch, or answer F1 below the task's threshold."""
    if annotator_decides(config) or validators_decide(config):
        raise ValueError("the task leaves the verdict to people (fooling ask_user or validator_rating)")
    if config.fooling.metric == "exact_match":
        return model_output.get("label") != intended
    return squad_f1(str(model_output.get("answer", "")), intended) < config.fooling.threshold


def fooled(config: TaskConfig, intended: str, model_outputs: Sequence[dict[str, Any]]) -> bool | None:
    """With several target models judging one example, it fooled them when the majority is wrong. None when the
    task leaves it to the annotator (`ask_user`): the example then awaits their claim."""
    if not model_outputs:
        raise ValueError("no model output to judge")
    if annotator_decides(config) or validators_decide(config):
        return None
    wrong = sum(model_is_wrong(config, intended, output) for output in model_outputs)
    return wrong * 2 > len(model_outputs)
