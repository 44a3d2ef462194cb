"""Which changes to a task's form fields an open round can take (server/tasks/config_changes.py): widening is fine;
another type, a removed choice, a narrower range or a removed validator field is refused with the field named."""

import copy

import pytest

from server.tasks.config_changes import breaking_changes
from tests.unit.test_form_fields import EVERY_COMPONENT, VALIDATOR_FIELDS, document, parsed

OLD = parsed(document(EVERY_COMPONENT, VALIDATOR_FIELDS))


def changed(name, where="input_fields", drop=(), **keys):
    fields = copy.deepcopy(EVERY_COMPONENT if where == "input_fields" else VALIDATOR_FIELDS)
    for field in fields:
        if field["name"] == name:
            field.update(keys)
            for key in drop:
                field.pop(key, None)
    lists = {"input_fields": EVERY_COMPONENT, "validator_fields": VALIDATOR_FIELDS, where: fields}
    new = parsed(document(**lists))
    return {e.field: e.message for e in breaking_changes(OLD, new)}


def test_the_same_config_breaks_nothing():
    assert breaking_changes(OLD, OLD) == []


@pytest.mark.parametrize(
    "name, keys, drop",
    [
        ("stance", {"choices": ["pro", "con", "unsure"]}, ()),
        ("stance", {"choices": [{"value": "pro", "label": "For"}, "con"]}, ()),  # relabelled
        ("confidence", {"min": -10, "max": 20}, ()),
        ("confidence", {"step": 0.25}, ()),  # divides the old step
        ("difficulty", {"scale": 10}, ()),
        ("topics", {"max_selected": 3}, ()),
        ("topics", {}, ("max_selected",)),
        ("statement", {"max_length": 100, "help": "Be brief."}, ()),  # limits and texts apply from now on
        ("why", {"required": True}, ()),
    ],
)
def test_widening_is_accepted(name, keys, drop):
    assert changed(name, drop=drop, **keys) == {}


@pytest.mark.parametrize(
    "name, keys, path, fragment",
    [
        ("notes", {"type": "text"}, "input_fields.1.type", "its type cannot change"),
        ("stance", {"choices": ["pro", "unsure"]}, "input_fields.2.choices", "'con' is used"),
        ("confidence", {"min": 1}, "input_fields.4.min", "widened, not narrowed"),
        ("confidence", {"max": 9}, "input_fields.4.max", "widened, not narrowed"),
        ("confidence", {"step": 1}, "input_fields.4.step", "step grid"),
        ("confidence", {"min": -0.25, "max": 10, "step": 0.5}, "input_fields.4.step", "step grid"),
        ("difficulty", {"scale": 5}, "input_fields.6.scale", "grow, not shrink"),
        ("topics", {"max_selected": 1}, "input_fields.3.max_selected", "not narrowed"),
        ("topics", {"min_selected": 2}, "input_fields.3.max_selected", "not narrowed"),
    ],
)
def test_narrowing_is_refused_with_the_field(name, keys, path, fragment):
    errors = changed(name, **keys)
    assert fragment in errors[path], errors


def test_validator_fields_changes():
    assert (
        "cannot be removed"
        in {e.field: e.message for e in breaking_changes(OLD, parsed(document(EVERY_COMPONENT, VALIDATOR_FIELDS[1:])))}[
            "validator_fields"
        ]
    )
    errors = changed("corrected_label", where="validator_fields", choices=["positive", "negative"])
    assert "'neutral' is used" in errors["validator_fields.0.choices"]
    assert changed("quality", where="validator_fields", scale=9) == {}


def test_adding_form_fields_is_accepted():
    more = parsed(
        document([*EVERY_COMPONENT, {"name": "extra", "type": "boolean"}], [*VALIDATOR_FIELDS, {"name": "v2", "type": "boolean"}])
    )
    assert breaking_changes(OLD, more) == []
