import copy

import pytest

from server.tasks.builtin import BUILTIN_TASKS
from server.tasks.config import parse_task_config

VALID = copy.deepcopy(BUILTIN_TASKS[0]["config"])


def errors_of(document):
    config, errors = parse_task_config(document)
    assert config is None
    return {error.field: error.message for error in errors}


@pytest.mark.parametrize("spec", BUILTIN_TASKS, ids=lambda s: s["code"])
def test_builtin_configs_are_valid(spec):
    config, errors = parse_task_config(spec["config"])
    assert errors == []
    assert config.dynascore.weights["perf"] == 4.0


def test_defaults_fill_validation_and_threshold():
    config, _ = parse_task_config(VALID)
    assert config.validation.num_matching_validations == 3
    assert config.fooling.threshold == 0.4


def test_not_an_object():
    assert errors_of(["a"]) == {"config": "must be a JSON object"}


def test_each_offending_field_is_named():
    document = copy.deepcopy(VALID)
    document["labels"] = ["only_one"]
    document["fooling"]["threshold"] = 3
    document["input_fields"][0]["name"] = "Bad Name"
    errors = errors_of(document)
    assert set(errors) == {"fooling.threshold", "input_fields.0.name"}  # shape errors come first
    document["fooling"]["threshold"] = 0.5
    document["input_fields"][0]["name"] = "statement"
    assert errors_of(document) == {"labels": "a classification task needs at least two labels"}


def test_unknown_keys_and_missing_keys():
    document = copy.deepcopy(VALID)
    document["colour"] = "blue"
    del document["performance_metric"]
    errors = errors_of(document)
    assert "colour" in errors and "performance_metric" in errors


def test_model_inputs_must_name_fields():
    document = copy.deepcopy(VALID)
    document["model_inputs"] = ["statement", "nope"]
    assert errors_of(document) == {"model_inputs.1": "'nope' is not a context or input field"}


def test_qa_rules():
    document = copy.deepcopy(next(s for s in BUILTIN_TASKS if s["code"] == "qa")["config"])
    document["fooling"]["metric"] = "exact_match"
    document["answer_context_field"] = "passage"
    errors = errors_of(document)
    assert set(errors) == {"fooling.metric", "answer_context_field"}


def test_dynascore_weights_must_be_known_metrics():
    document = copy.deepcopy(VALID)
    document["dynascore"] = {"weights": {"perf": 1, "speed": 2}}
    errors = errors_of(document)
    assert "speed" in errors["dynascore.weights"]


def test_duplicate_labels_and_field_names():
    document = copy.deepcopy(VALID)
    document["labels"] = ["a", "a"]
    assert errors_of(document) == {"labels": "labels must be unique"}
    document["labels"] = ["a", "b"]
    document["input_fields"].append({"name": "context"})
    assert "unique" in next(iter(errors_of(document).values()))


def test_a_deleted_accounts_work_is_kept_unless_the_task_says_remove():
    config, _ = parse_task_config(VALID)
    assert config.personal_data.on_account_deletion == "keep" and not config.personal_data.removes_work
    assert "personal_data" not in config.model_dump(mode="json")  # stored configs without it read as before
    document = copy.deepcopy(VALID)
    document["personal_data"] = {"on_account_deletion": "remove"}
    config, errors = parse_task_config(document)
    assert errors == [] and config.personal_data.removes_work
    assert config.model_dump(mode="json")["personal_data"] == {"on_account_deletion": "remove"}
    document["personal_data"] = {"on_account_deletion": "forget"}
    assert errors_of(document) == {"personal_data.on_account_deletion": "Input should be 'keep' or 'remove'"}
    document["personal_data"] = {"on_deletion": "remove"}
    assert "personal_data.on_deletion" in errors_of(document)
