"""Which config edits an open round can take (server/tasks/config_changes.py): additive ones pass, breaking ones are
named by field."""

import copy

from server.tasks.builtin import BUILTIN_TASKS
from server.tasks.config import TaskConfig
from server.tasks.config_changes import breaking_changes

SENTIMENT = next(t for t in BUILTIN_TASKS if t["code"] == "sentiment")["config"]
QA = next(t for t in BUILTIN_TASKS if t["code"] == "qa")["config"]


def _changed(base: dict, change) -> dict:
    document = copy.deepcopy(base)
    change(document)
    return document


def _breaks(base: dict, change) -> dict[str, str]:
    old, new = TaskConfig.model_validate(base), TaskConfig.model_validate(_changed(base, change))
    errors: dict[str, str] = {}
    for e in breaking_changes(old, new):
        errors[e.field] = f"{errors[e.field]} | {e.message}" if e.field in errors else e.message
    return errors


def test_no_change_and_additive_changes_break_nothing():
    assert _breaks(SENTIMENT, lambda d: None) == {}
    assert _breaks(SENTIMENT, lambda d: d["labels"].append("mixed")) == {}
    assert _breaks(SENTIMENT, lambda d: d["input_fields"].append({"name": "rationale"})) == {}
    assert _breaks(SENTIMENT, lambda d: d["input_fields"][0].update(display_name="Your sentence", max_length=500)) == {}
    assert _breaks(SENTIMENT, lambda d: d.update(validation={"num_matching_validations": 5})) == {}
    assert _breaks(SENTIMENT, lambda d: d.update(fooling={"metric": "ask_user"}, performance_metric="macro_f1")) == {}
    assert _breaks(SENTIMENT, lambda d: d.update(target_selection="all", duplicates={"enabled": True})) == {}


def test_removing_or_renaming_a_label_names_it():
    errors = _breaks(SENTIMENT, lambda d: d.update(labels=["negative", "positive", "mixed"]))
    assert list(errors) == ["labels"]
    assert "'neutral'" in errors["labels"] and "cannot" not in errors["labels"].split(":")[0]


def test_removing_or_renaming_an_input_field_names_it():
    def rename(d):
        d["input_fields"][0]["name"] = "sentence"
        d["model_inputs"] = ["sentence"]

    errors = _breaks(SENTIMENT, rename)
    assert set(errors) == {"input_fields", "model_inputs"}
    assert "'statement'" in errors["input_fields"]


def test_context_fields_can_neither_go_nor_come():
    def add(d):
        d["context_fields"].append({"name": "topic"})

    assert "'topic'" in _breaks(SENTIMENT, add)["context_fields"]
    renamed = _breaks(
        QA,
        lambda d: (
            d["context_fields"][0].update(name="passage")
            or d.update(answer_context_field="passage", model_inputs=["passage", "question"])
        ),
    )
    assert set(renamed) == {"context_fields", "model_inputs", "answer_context_field"}
    assert "'context'" in renamed["context_fields"] and "'passage'" in renamed["context_fields"]


def test_changing_the_kind_is_one_clear_error():
    errors = _breaks(SENTIMENT, lambda d: d.clear() or d.update(copy.deepcopy(QA)))
    assert errors == {"kind": "cannot change from classification to extractive_qa while a round is open"}


def test_output_fields_may_grow_but_not_shrink():
    assert _breaks(SENTIMENT, lambda d: d["output_fields"].append("embedding")) == {}
    assert "'probs'" in _breaks(SENTIMENT, lambda d: d.update(output_fields=["label"]))["output_fields"]
