"""Suggestions' pure parts (docs/design.md §4.1e): the generator's prompt and the parsing of its output, the
perturbation search against a pure fake classifier, and the `suggestions` block of a task config."""

from __future__ import annotations

import asyncio

import pytest

from server.annotation.suggestions import prompt, search
from server.tasks.config import parse_task_config

LABELS = ("negative", "positive", "neutral")


def test_the_prompt_carries_goal_context_labels_and_draft():
    brief = prompt.Brief("classification", "Fool it", "statement", LABELS, {"topic_hint": "cheap phones"}, "My draft", 2)
    system, user = prompt.messages(brief)
    assert system.role == "system" and user.role == "user"
    assert "Goal: Fool it" in user.content and "Topic hint: cheap phones" in user.content
    assert "Labels: negative, positive, neutral" in user.content and "My draft" in user.content
    assert "Write 2 different statements" in user.content
    chat = prompt.messages(prompt.Brief("generative", "Make it lie", "message", count=3))[1].content
    assert "opening messages" in chat and "Labels" not in chat


def test_long_parts_are_cut():
    user = prompt.messages(prompt.Brief("classification", "g" * 5000, "statement", context={"p": "x " * 5000}))[1]
    assert len(user.content) < prompt.MAX_GOAL_CHARS + prompt.MAX_CONTEXT_CHARS + 400


def test_parsing_drops_chatter_numbering_quotes_and_reads_labels():
    text = (
        "Sure! Here are three examples:\n"
        '1. positive: "I loved nothing about it"\n'
        "2) [negative] What a treat.\n"
        "- neutral | It is a phone.\n"
        "4. It is a phone.\n"
        "Let me know if you need more."
    )
    found = prompt.parse(text, 5, 100, LABELS)
    assert found == [
        prompt.Candidate("I loved nothing about it", "positive"),
        prompt.Candidate("What a treat.", "negative"),
        prompt.Candidate("It is a phone.", "neutral"),
    ]


def test_parsing_caps_count_and_length_and_splits_one_paragraph():
    assert len(prompt.parse("a one.\nb two.\nc three.\nd four.", 2, 100)) == 2
    long = prompt.parse("word " * 100, 1, 30)[0].text
    assert len(long) <= 30 and not long.endswith(" ")
    assert [c.text for c in prompt.parse("The cat sat. The dog ran! Fine?", 3, 100)] == ["The cat sat.", "The dog ran!", "Fine?"]
    assert prompt.parse("User: Assistant: ok", 3, 100) == []  # nothing worth suggesting
    assert prompt.parse("maybe: not a label here", 1, 100, LABELS)[0].label is None


POSITIVE = {"great", "fun", "good", "loved"}
NEGATIVE = {"not", "bad", "terrible", "boring", "barely"}


class FakeClassifier:
    """Sentiment by counting words: a pure stand-in for the target, counting the rows it is asked."""

    def __init__(self) -> None:
        self.rows = 0

    async def __call__(self, texts):
        self.rows += len(texts)
        out = []
        for text in texts:
            tokens = [t.strip(".,!").lower() for t in text.split()]
            score = sum(t in POSITIVE for t in tokens) - 1.5 * sum(t in NEGATIVE for t in tokens)
            p = min(0.95, max(0.05, 0.5 + 0.2 * score))
            out.append(search.Judged("positive" if p > 0.5 else "negative", {"positive": p, "negative": 1 - p}))
        return out


def test_the_search_flips_the_label_within_its_budget():
    target = FakeClassifier()
    result = asyncio.run(search.search("The film was great and good fun.", target, budget=40, want=2))
    assert result.draft.label == "positive"
    assert result.queries == target.rows <= 40
    assert result.found and all(f.flipped for f in result.found)
    assert all(f.label == "negative" and f.confidence < 0.5 and f.edits for f in result.found)
    # The words the target leaned on were ranked by their attribution: deleting "great" lowers its confidence.
    assert result.attributions["great"] > result.attributions["the"]


def test_without_a_flip_the_best_candidates_come_by_falling_confidence():
    target = FakeClassifier()
    result = asyncio.run(search.search("great fun good", target, budget=4, want=3))  # the draft and 3 deletions
    assert target.rows == 4 and len(result.found) == 3
    assert not any(f.flipped for f in result.found)
    confidences = [f.confidence for f in result.found]
    assert confidences == sorted(confidences) and confidences[0] < result.draft.probs["positive"]


def test_edits_of_a_word():
    text = "It isn't very good"
    made = dict(search.edits(text, (3, 8), ()))  # isn't
    assert "It is very good" in made and "It very good" in made
    assert "It isn't barely good" in dict(search.edits(text, (9, 13), ()))
    assert "It isn't very bad" in dict(search.edits(text, (14, 18), ()))
    assert "It isn't very fine" in dict(search.edits(text, (14, 18), ("fine",)))
    assert search.edits("a", (0, 1), ()) == []  # nothing left to suggest


def _config(**suggestions):
    return {
        "kind": "classification",
        "context_fields": [{"name": "context", "max_length": 500}],
        "input_fields": [{"name": "statement", "max_length": 500}],
        "model_inputs": ["statement"],
        "labels": list(LABELS),
        "output_fields": ["label", "probs"],
        "fooling": {"metric": "exact_match"},
        "performance_metric": "accuracy",
        "suggestions": suggestions,
    }


def test_the_config_block():
    config, errors = parse_task_config(_config(generator={"model": "chat_demo"}, perturbation=True))
    assert errors == [] and config is not None
    assert config.suggestions.generator is not None and config.suggestions.generator.source == "chat_demo"
    assert config.model_dump(mode="json")["suggestions"]["perturbation"] is True
    plain, _ = parse_task_config({k: v for k, v in _config().items() if k != "suggestions"})
    assert plain is not None and "suggestions" not in plain.model_dump(mode="json")  # stored as before
    endpoint, _ = parse_task_config(_config(generator={"endpoint": "my-llm"}))
    assert endpoint is not None and endpoint.suggestions.generator.source == "endpoint:my-llm"


@pytest.mark.parametrize(
    ("block", "field"),
    [
        ({"generator": {}}, "suggestions.generator"),
        ({"generator": {"model": "a", "endpoint": "b"}}, "suggestions.generator"),
        ({"generator": {"model": "bad name!"}}, "suggestions.generator.model"),
        ({"generator": {"model": "m", "count": 9}}, "suggestions.generator.count"),
        ({"query_budget": 1}, "suggestions.query_budget"),
        ({"unknown": 1}, "suggestions.unknown"),
    ],
)
def test_bad_blocks_name_their_field(block, field):
    _, errors = parse_task_config(_config(**block))
    assert field in [e.field for e in errors], errors


def test_perturbation_is_for_classifiers_only():
    document = _config(perturbation=True)
    document.update(kind="extractive_qa", labels=None, answer_context_field="context", output_fields=["answer"])
    document.update(fooling={"metric": "string_f1"}, performance_metric="squad_f1")
    _, errors = parse_task_config(document)
    assert [e.field for e in errors] == ["suggestions.perturbation"]


def test_the_numbers_with_and_without_suggestions():
    from server.annotation.exports.service import assistance_text
    from server.annotation.suggestions.stats import AssistanceStats

    empty, assisted = AssistanceStats(False), AssistanceStats(True, 4, 3, 1, 12_340.0, 2)
    assert empty.fooling_rate is None and empty.validated_fooling_rate is None
    assert assisted.fooling_rate == 0.75 and assisted.validated_fooling_rate == 0.25
    text = assistance_text([empty, assisted]).decode()
    assert "unassisted: collected 0, fooling rate n/a" in text
    assert "assisted: collected 4, fooling rate 0.7500, validated fooling rate 0.2500" in text and "12.3 s" in text
