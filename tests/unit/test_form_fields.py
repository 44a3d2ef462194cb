"""Annotation form fields in a task config (server/tasks/form_fields.py, config.py): the shape, its defaults, how it is
stored, and the field-named errors of a wrong one."""

import copy
import json

import pytest

from server.tasks.builtin import BUILTIN_TASKS
from server.tasks.config import TaskConfig, parse_task_config

BASE = copy.deepcopy(BUILTIN_TASKS[0]["config"])  # sentiment: context "context", input "statement"

EVERY_COMPONENT = [
    {"name": "statement", "max_length": 500},
    {"name": "notes", "type": "multiline_text", "required": False, "help": "Anything else?"},
    {"name": "stance", "type": "single_label", "choices": ["pro", {"value": "con", "label": "Against"}]},
    {"name": "topics", "type": "multi_label", "choices": ["food", "travel", "work"], "min_selected": 1, "max_selected": 2},
    {"name": "confidence", "type": "number", "min": 0, "max": 10, "step": 0.5, "widget": "slider"},
    {"name": "country", "type": "dropdown", "choices": ["fr", "de", "it"]},
    {"name": "difficulty", "type": "rating", "scale": 7},
    {"name": "sarcastic", "type": "boolean"},
    {"name": "cue", "type": "span", "span_of": "context", "required": False},
    {"name": "why", "type": "multiline_text", "show_when": "fooled"},
    {"name": "hint", "type": "single_label", "choices": ["yes", "no"], "show_when": "not_fooled", "required": True},
]
VALIDATOR_FIELDS = [
    {
        "name": "corrected_label",
        "type": "single_label",
        "choices": ["positive", "negative", "neutral"],
        "show_when": "incorrect",
        "required": True,
    },
    {"name": "why_wrong", "type": "multiline_text", "show_when": "incorrect", "required": False},
    {"name": "quality", "type": "rating"},
]


def document(input_fields=None, validator_fields=None, **extra):
    doc = copy.deepcopy(BASE)
    if input_fields is not None:
        doc["input_fields"] = input_fields
    if validator_fields is not None:
        doc["validator_fields"] = validator_fields
    doc.update(extra)
    return doc


def errors_of(doc):
    config, errors = parse_task_config(doc)
    assert config is None, "expected errors"
    return {error.field: error.message for error in errors}


def parsed(doc) -> TaskConfig:
    config, errors = parse_task_config(doc)
    assert errors == []
    return config


def test_every_component_parses_with_defaults():
    config = parsed(document(EVERY_COMPONENT, VALIDATOR_FIELDS))
    by_name = {f.name: f for f in config.input_fields}
    assert by_name["statement"].type == "text" and by_name["statement"].is_required
    assert by_name["why"].show_when == "fooled" and not by_name["why"].is_required  # conditional: optional by default
    assert by_name["hint"].is_required  # unless it says otherwise
    assert [c.model_dump() for c in by_name["stance"].choices] == [
        {"value": "pro", "label": "Pro"},  # plain identifiers are normalized, labelled by humanizing
        {"value": "con", "label": "Against"},
    ]
    assert by_name["confidence"].number_step == 0.5 and by_name["confidence"].widget == "slider"
    assert by_name["difficulty"].rating_scale == 7
    assert parsed(document([{"name": "statement"}, {"name": "r", "type": "rating"}])).input_fields[1].rating_scale == 5
    assert [f.name for f in config.validator_fields] == ["corrected_label", "why_wrong", "quality"]


def test_existing_configs_store_exactly_as_before():
    for spec in BUILTIN_TASKS:
        stored = parsed(spec["config"]).model_dump(mode="json")
        assert "validator_fields" not in stored
        for field in stored["input_fields"] + stored["context_fields"]:
            assert set(field) == {"name", "display_name", "placeholder", "max_length"}


def test_stored_config_round_trips_with_the_given_keys_only():
    stored = parsed(document(EVERY_COMPONENT, VALIDATOR_FIELDS)).model_dump(mode="json")
    again = TaskConfig.model_validate_json(json.dumps(stored)).model_dump(mode="json")
    assert again == stored
    stance = next(f for f in stored["input_fields"] if f["name"] == "stance")
    assert stance["choices"] == [{"value": "pro", "label": "Pro"}, {"value": "con", "label": "Against"}]
    assert "required" not in stance and "show_when" not in stance  # defaults are not written out
    assert stored["validator_fields"][0]["show_when"] == "incorrect"


@pytest.mark.parametrize(
    "field, path, fragment",
    [
        ({"name": "x", "type": "slider"}, "input_fields.1.type", "Input should be"),
        ({"name": "x", "type": "text", "choices": ["a", "b"]}, "input_fields.1.choices", "only single_label"),
        ({"name": "x", "type": "single_label"}, "input_fields.1.choices", "at least 2 choices"),
        ({"name": "x", "type": "single_label", "choices": ["a"]}, "input_fields.1.choices", "at least 2 choices"),
        ({"name": "x", "type": "multi_label", "choices": []}, "input_fields.1.choices", "at least 1 choice"),
        ({"name": "x", "type": "dropdown", "choices": ["a", "a"]}, "input_fields.1.choices", "unique: a"),
        ({"name": "x", "type": "dropdown", "choices": ["Not An Id", "b"]}, "input_fields.1.choices.0.value", "identifier"),
        (
            {"name": "x", "type": "single_label", "choices": ["a", "b"], "min_selected": 1},
            "input_fields.1.min_selected",
            "only multi_label",
        ),
        (
            {"name": "x", "type": "multi_label", "choices": ["a", "b"], "max_selected": 3},
            "input_fields.1.max_selected",
            "cannot exceed",
        ),
        (
            {"name": "x", "type": "multi_label", "choices": ["a", "b"], "min_selected": 3},
            "input_fields.1.min_selected",
            "cannot exceed",
        ),
        (
            {"name": "x", "type": "multi_label", "choices": ["a", "b"], "min_selected": 2, "max_selected": 1},
            "input_fields.1.max_selected",
            "less than min_selected",
        ),
        ({"name": "x", "type": "number", "max": 3}, "input_fields.1.min", "needs a range"),
        ({"name": "x", "type": "number", "min": 3, "max": 3}, "input_fields.1.max", "greater than min"),
        ({"name": "x", "type": "number", "min": 0, "max": 3, "step": 0}, "input_fields.1.step", "positive"),
        ({"name": "x", "type": "number", "min": 0, "max": 3, "step": 4}, "input_fields.1.step", "at most max - min"),
        ({"name": "x", "type": "number", "min": 0, "max": 1e9, "step": 1}, "input_fields.1.step", "100000 steps"),
        ({"name": "x", "type": "number", "min": True, "max": 3}, "input_fields.1.min", "must be a number"),
        ({"name": "x", "type": "number", "min": "0", "max": 3}, "input_fields.1.min", "must be a number"),
        ({"name": "x", "type": "text", "min": 0}, "input_fields.1.min", "only number"),
        ({"name": "x", "type": "text", "widget": "slider"}, "input_fields.1.widget", "only number"),
        ({"name": "x", "type": "rating", "scale": 11}, "input_fields.1.scale", "less than or equal to 10"),
        ({"name": "x", "type": "rating", "scale": 1}, "input_fields.1.scale", "greater than or equal to 2"),
        ({"name": "x", "type": "boolean", "scale": 3}, "input_fields.1.scale", "only rating"),
        ({"name": "x", "type": "span"}, "input_fields.1.span_of", "names the context field"),
        ({"name": "x", "type": "span", "span_of": "nowhere"}, "input_fields.1.span_of", "context fields ['context']"),
        ({"name": "x", "type": "text", "span_of": "context"}, "input_fields.1.span_of", "only span"),
        ({"name": "x", "show_when": "incorrect"}, "input_fields.1.show_when", "always, fooled, not_fooled"),
        ({"name": "x", "show_when": "sometimes"}, "input_fields.1.show_when", "Input should be"),
        ({"name": "x", "help": "h" * 501}, "input_fields.1.help", "at most 500"),
        ({"name": "label"}, "input_fields.1.name", "kept for the example's label"),
        ({"name": "answer_start"}, "input_fields.1.name", "kept for the example's label"),
        ({"name": "x", "surprise": 1}, "input_fields.1.surprise", "Extra inputs"),
    ],
)
def test_each_bad_input_field_is_named(field, path, fragment):
    errors = errors_of(document([{"name": "statement"}, field]))
    assert path in errors, errors
    assert fragment in errors[path]


@pytest.mark.parametrize(
    "fields, path, fragment",
    [
        ([{"name": "c", "show_when": "fooled"}], "validator_fields.0.show_when", "always, correct, incorrect, flagged"),
        ([{"name": "c"}, {"name": "c", "type": "boolean"}], "validator_fields", "unique"),
        ([{"name": "c", "type": "span", "span_of": "statement"}], "validator_fields.0.span_of", "context fields"),
        ([{"name": "c", "type": "dropdown", "choices": ["a"]}], "validator_fields.0.choices", "at least 2"),
    ],
)
def test_each_bad_validator_field_is_named(fields, path, fragment):
    errors = errors_of(document(validator_fields=fields))
    assert fragment in errors[path], errors


def test_context_fields_stay_text():
    doc = document()
    doc["context_fields"][0]["type"] = "boolean"
    assert "text" in errors_of(doc)["context_fields.0"]
    doc["context_fields"][0]["type"] = "multiline_text"
    assert parsed(doc).context_fields[0].type == "multiline_text"


def test_some_input_field_is_asked_before_the_verdict():
    errors = errors_of(document([{"name": "statement", "show_when": "fooled"}], model_inputs=["context"]))
    assert "shown always" in errors["input_fields"]


@pytest.mark.parametrize(
    "field",
    [
        {"name": "statement", "type": "single_label", "choices": ["a", "b"]},  # not text
        {"name": "statement", "show_when": "fooled"},  # asked after the verdict
        {"name": "statement", "required": False},  # may be missing
    ],
)
def test_models_take_only_required_always_shown_text(field):
    errors = errors_of(document([{"name": "other"}, field]))
    assert "models take context fields" in errors["model_inputs.0"]


def test_multiline_text_may_be_a_model_input():
    parsed(document([{"name": "statement", "type": "multiline_text"}]))
