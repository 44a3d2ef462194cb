"""The served-model summary the task creation form lists: ready versions from Triton's repository index, the kind
from the outputs, inputs and labels from the build parameters."""

from server.tasks.served_summary import kind_of, of_kind, ready_versions, summarize


def _config(outputs, **parameters):
    return {
        "input": [{"name": "statement"}],
        "output": [{"name": o} for o in outputs],
        "parameters": {k: {"string_value": v} for k, v in parameters.items()},
    }


def test_ready_versions_groups_the_index_by_model_newest_first():
    index = [
        {"name": "a", "version": "1", "state": "READY"},
        {"name": "a", "version": "10", "state": "READY"},
        {"name": "a", "version": "2", "state": "UNAVAILABLE", "reason": "unloaded"},
        {"name": "b", "state": "UNAVAILABLE"},
        {"name": "c"},
        {"version": "1", "state": "READY"},
    ]
    assert ready_versions(index) == {"a": ["10", "1"], "b": [], "c": []}


def test_the_kind_follows_the_io_contract():
    assert kind_of(["label", "probs", "embedding"]) == "classification"
    assert kind_of(["answer", "start", "end", "confidence"]) == "extractive_qa"
    assert kind_of(["label"]) is None
    assert kind_of([]) is None


def test_summarize_reads_the_build_parameters():
    config = _config(
        ["label", "probs"],
        task="sentiment",
        inputs='["statement"]',
        labels='["negative", "positive"]',
        heldout_accuracy="0.75",
    )
    model = summarize("community", ["3", "1"], config)
    assert (model.ready, model.latest_version, model.kind, model.task) == (True, "3", "classification", "sentiment")
    assert (model.inputs, model.labels, model.outputs) == (("statement",), ("negative", "positive"), ("label", "probs"))
    assert model.parameters["heldout_accuracy"] == "0.75"


def test_summarize_tolerates_missing_or_broken_metadata():
    model = summarize("bare", [], None)
    assert (model.ready, model.latest_version, model.kind, model.task, model.labels) == (False, None, None, None, ())
    broken = summarize("odd", ["1"], _config(["answer", "start", "end", "confidence"], labels="not json", inputs="{}"))
    assert broken.kind == "extractive_qa"
    assert broken.labels == ()
    assert broken.inputs == ("statement",)  # the tensors' names when the parameter says nothing usable


def test_of_kind_filters_and_puts_ready_models_first():
    models = [
        summarize("z_ready", ["1"], _config(["label", "probs"])),
        summarize("a_away", [], None),
        summarize("qa", ["1"], _config(["answer", "start", "end", "confidence"])),
    ]
    assert [m.name for m in of_kind(models, None)] == ["qa", "z_ready", "a_away"]
    assert [m.name for m in of_kind(models, "classification")] == ["z_ready", "a_away"]  # away: kind unknown
    assert [m.name for m in of_kind(models, "extractive_qa")] == ["qa", "a_away"]
