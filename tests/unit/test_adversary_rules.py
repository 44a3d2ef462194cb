"""The pure rules of adversary runs (docs/design.md §4.1f)."""

from __future__ import annotations

import uuid

from server.annotation.adversary import rules

LABELS = ["negative", "positive", "neutral"]


def test_the_label_claimed_is_the_generators_else_the_targets_runner_up():
    output = {"label": "positive", "probs": {"negative": 0.1, "positive": 0.6, "neutral": 0.3}}
    assert rules.intended_label(LABELS, "negative", output) == "negative"  # the generator's own label
    assert rules.intended_label(LABELS, None, output) == "neutral"  # the runner-up, never the target's label
    assert rules.intended_label(LABELS, "not a label", output) == "neutral"
    assert rules.intended_label(LABELS, None, {"label": "positive"}) == "negative"  # no probabilities: first other
    tied = {"label": "neutral", "probs": {"negative": 0.2, "positive": 0.2, "neutral": 0.6}}
    assert rules.intended_label(LABELS, None, tied) == "negative"  # ties: the task's order


def test_client_uuids_are_fixed_per_run_and_index():
    run = uuid.uuid4()
    assert rules.example_client_id(run, 0) == rules.example_client_id(run, 0)
    assert len({rules.example_client_id(run, i) for i in range(200)}) == 200
    conversation, message = rules.conversation_client_ids(rules.example_client_id(run, 3))
    assert conversation != message and rules.conversation_client_ids(rules.example_client_id(run, 3)) == (conversation, message)


def test_the_generator_calls_a_run_may_make():
    assert rules.calls_allowed(200, 5) == 82
    assert rules.calls_allowed(1, 3) == 4
    assert rules.calls_allowed(0, 3) == 2
    assert rules.MACHINE_USERNAME.startswith("~")  # sign-up cannot take it (server/accounts/service.py USERNAME)


def test_a_run_may_name_another_generator():
    import pytest

    from server.tasks.config import TaskConfig

    config = TaskConfig.model_validate(
        {
            "kind": "classification",
            "context_fields": [{"name": "context", "max_length": 500}],
            "input_fields": [{"name": "statement", "max_length": 300}],
            "model_inputs": ["statement"],
            "labels": LABELS,
            "output_fields": ["label", "probs"],
            "fooling": {"metric": "exact_match"},
            "performance_metric": "accuracy",
            "suggestions": {"generator": {"model": "own_model", "count": 2, "temperature": 0.0}},
        }
    )
    assert rules.with_generator(config, None) is config and rules.with_generator(config, "own_model") is config
    other = rules.with_generator(config, "endpoint:chat").suggestions.generator
    assert other is not None and (other.endpoint, other.model, other.count, other.temperature) == ("chat", None, 2, 0.0)
    assert config.suggestions.generator is not None and config.suggestions.generator.model == "own_model"  # unchanged
    with pytest.raises(ValueError):
        rules.with_generator(config, "not a name!")
