"""Submitted form values checked against the field specs (server/tasks/form_values.py), and the three places they
come from: an example's fields, the follow-up after the verdict, a validator's vote (server/annotation/validation_input.py)."""

import pytest

from server.annotation.validation_input import check_follow_up, check_submission, check_vote_fields
from server.core.errors import ServiceError
from server.tasks.form_values import check_values
from tests.unit.test_form_fields import EVERY_COMPONENT, VALIDATOR_FIELDS, document, parsed

CONFIG = parsed(document(EVERY_COMPONENT, VALIDATOR_FIELDS))
CONTEXT = {"context": "Write something sarcastic about trains."}
GOOD = {
    "statement": "Trains are never late, said nobody.",
    "notes": "line one\nline two",
    "stance": "con",
    "topics": ["travel"],
    "confidence": 7.5,
    "country": "de",
    "difficulty": 7,
    "sarcastic": False,
    "cue": {"start": 16, "end": 25},
}


def always(values):
    return check_values(CONFIG.input_fields, values, asked=("always",), contexts=CONTEXT)


def problems_of(values):
    return {p.field: p.message for p in always(values)[1]}


def test_good_values_are_stored_with_span_text():
    stored, problems = always(GOOD)
    assert problems == []
    assert stored == {**GOOD, "cue": {"start": 16, "end": 25, "text": "sarcastic"}}


def test_optional_fields_may_be_left_out_or_null():
    values = {k: v for k, v in GOOD.items() if k not in ("notes", "cue")}
    stored, problems = always({**values, "notes": "   "})
    assert problems == [] and "notes" not in stored and "cue" not in stored
    assert always({**values, "cue": None})[1] == []


@pytest.mark.parametrize("name", ["statement", "stance", "topics", "confidence", "country", "difficulty", "sarcastic"])
def test_a_missing_required_field_is_named(name):
    values = {k: v for k, v in GOOD.items() if k != name}
    assert problems_of(values) == {f"fields.{name}": "must be non-empty text" if name == "statement" else "is required"}


@pytest.mark.parametrize(
    "name, value, fragment",
    [
        ("statement", "x" * 501, "longer than 500 characters"),
        ("statement", 12, "non-empty text"),
        ("statement", "nul\x00", "NUL"),
        ("notes", ["a"], "non-empty text"),
        ("stance", "maybe", "must be one of pro, con"),
        ("stance", ["pro"], "must be one of"),
        ("country", "us", "must be one of fr, de, it"),
        ("topics", "travel", "list of choice values"),
        ("topics", ["travel", 3], "list of choice values"),
        ("topics", ["space"], "'space' is not a choice"),
        ("topics", ["food", "food"], "twice"),
        ("topics", [], "at least 1"),
        ("topics", ["food", "travel", "work"], "at most 2"),
        ("confidence", "7", "must be a number"),
        ("confidence", True, "must be a number"),
        ("confidence", float("nan"), "must be a number"),
        ("confidence", -0.5, "between 0 and 10"),
        ("confidence", 10.5, "between 0 and 10"),
        ("confidence", 7.25, "multiple of 0.5"),
        ("difficulty", 0, "from 1 to 7"),
        ("difficulty", 8, "from 1 to 7"),
        ("difficulty", 3.0, "from 1 to 7"),
        ("difficulty", True, "from 1 to 7"),
        ("sarcastic", "yes", "true or false"),
        ("sarcastic", 1, "true or false"),
        ("cue", "sarcastic", '{"start": int, "end": int}'),
        ("cue", {"start": 1}, '{"start": int, "end": int}'),
        ("cue", {"start": 1, "end": 2, "extra": 1}, '{"start": int, "end": int}'),
        ("cue", {"start": 5, "end": 5}, "non-empty span"),
        ("cue", {"start": -1, "end": 5}, "non-empty span"),
        ("cue", {"start": 0, "end": 999}, "non-empty span inside the 39 characters of 'context'"),
    ],
)
def test_each_bad_value_is_refused_with_its_field(name, value, fragment):
    problems = problems_of({**GOOD, name: value})
    assert list(problems) == [f"fields.{name}"]
    assert fragment in problems[f"fields.{name}"]


def test_unknown_fields_and_non_objects():
    assert problems_of({**GOOD, "mystery": 1}) == {"fields.mystery": "is not a field of this task"}
    assert [p.field for p in always(["a"])[1]] == ["fields"]


def test_conditional_fields_are_refused_before_the_verdict():
    problems = problems_of({**GOOD, "why": "because", "hint": "yes"})
    assert problems == {
        "fields.why": "is asked only after the model was fooled",
        "fields.hint": "is asked only after the model was not fooled",
    }


def test_number_grid_is_measured_from_min():
    spec = parsed(document([{"name": "statement"}, {"name": "n", "type": "number", "min": 0.1, "max": 1, "step": 0.3}]))
    fields = spec.input_fields
    assert check_values(fields, {"statement": "s", "n": 0.7}, asked=("always",), contexts={})[1] == []
    assert check_values(fields, {"statement": "s", "n": 0.6}, asked=("always",), contexts={})[1] != []


def test_multi_label_min_selected_when_optional():
    spec = parsed(
        document([{"name": "statement"}, {"name": "t", "type": "multi_label", "choices": ["a", "b", "c"], "required": False}])
    )
    stored, problems = check_values(spec.input_fields, {"statement": "s", "t": []}, asked=("always",), contexts={})
    assert problems == [] and stored["t"] == []


def test_spans_count_code_points():
    spec = parsed(document([{"name": "statement"}, {"name": "s", "type": "span", "span_of": "context"}]))
    stored, problems = check_values(
        spec.input_fields, {"statement": "x", "s": {"start": 2, "end": 4}}, asked=("always",), contexts={"context": "😀 ab"}
    )
    assert problems == [] and stored["s"]["text"] == "ab"


# --- the three entry points ---------------------------------------------------------------------


def test_submission_keeps_label_and_legacy_messages():
    stored = check_submission(CONFIG, CONTEXT, GOOD, "positive", None, "", None)
    assert stored["label"] == "positive" and stored["difficulty"] == 7
    with pytest.raises(ServiceError) as refused:
        check_submission(CONFIG, CONTEXT, {**GOOD, "statement": ""}, "nope", None, "", None)
    assert {p.field for p in refused.value.fields} == {"fields.statement", "label"}


def test_follow_up_takes_only_the_verdicts_fields():
    assert check_follow_up(CONFIG, CONTEXT, True, {"why": "It missed the sarcasm."}) == {"why": "It missed the sarcasm."}
    assert check_follow_up(CONFIG, CONTEXT, True, {}) == {}  # optional
    assert check_follow_up(CONFIG, CONTEXT, False, {"hint": "no"}) == {"hint": "no"}
    for fooled, values, field, fragment in [
        (False, {"why": "x"}, "fields.why", "only after the model was fooled"),
        (False, {}, "fields.hint", "is required"),
        (True, {"statement": "again"}, "fields.statement", "with the example, not afterwards"),
        (True, {"nope": 1}, "fields.nope", "not an input field"),
    ]:
        with pytest.raises(ServiceError) as refused:
            check_follow_up(CONFIG, CONTEXT, fooled, values)
        assert {p.field: p.message for p in refused.value.fields}[field].find(fragment) >= 0


def test_follow_up_on_a_task_without_such_fields():
    plain = parsed(document())
    with pytest.raises(ServiceError) as refused:
        check_follow_up(plain, CONTEXT, True, {"why": "x"})
    assert refused.value.code == "INVALID_INPUT" and refused.value.fields[0].field == "fields"


def test_vote_fields_by_vote():
    assert check_vote_fields(CONFIG, CONTEXT, "incorrect", {"corrected_label": "negative", "quality": 2}) == {
        "corrected_label": "negative",
        "quality": 2,
    }
    assert check_vote_fields(CONFIG, CONTEXT, "correct", {"quality": 5}) == {"quality": 5}
    for label, values, field, fragment in [
        ("correct", {"quality": 5, "corrected_label": "negative"}, "fields.corrected_label", "only with an INCORRECT vote"),
        ("incorrect", {"quality": 5}, "fields.corrected_label", "is required"),
        ("incorrect", {"quality": 5, "corrected_label": "angry"}, "fields.corrected_label", "must be one of"),
        ("flagged", None, "fields.quality", "is required"),
    ]:
        with pytest.raises(ServiceError) as refused:
            check_vote_fields(CONFIG, CONTEXT, label, values)
        assert fragment in {p.field: p.message for p in refused.value.fields}[field]
