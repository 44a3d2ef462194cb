import pytest

from server.evaluation.metrics.measures import (
    accuracy,
    consistency,
    macro_f1,
    per_tag,
    performance,
    squad_f1_corpus,
)

LABELS = ["pos", "neg", "neu"]


def test_accuracy_is_a_percentage():
    assert accuracy(["a", "b", "c"], ["a", "b", "x"]) == pytest.approx(200 / 3)
    assert accuracy(["a"], ["a"]) == 100.0
    assert accuracy(["a"], ["b"]) == 0.0


@pytest.mark.parametrize("golds, preds", [([], []), (["a"], []), (["a", "b"], ["a"])])
def test_empty_or_mismatched_inputs_raise(golds, preds):
    for metric in ("accuracy", "macro_f1", "squad_f1"):
        with pytest.raises(ValueError):
            performance(metric, golds, preds, ["a", "b"])


def test_macro_f1_by_hand():
    # pos: TP 1 (ex 1), FN 1 (ex 2 predicted neg), FP 1 (ex 4 predicted pos) -> 2/(2+1+1) = 1/2
    # neg: TP 1 (ex 3), FP 1 (ex 2) -> 2/(2+1) = 2/3
    # neu: FN 1 (ex 4) -> 0
    golds = ["pos", "pos", "neg", "neu"]
    preds = ["pos", "neg", "neg", "pos"]
    assert macro_f1(golds, preds, LABELS) == pytest.approx(100 * (1 / 2 + 2 / 3 + 0) / 3)


def test_macro_f1_skips_labels_with_no_gold_and_no_prediction():
    golds = ["pos", "pos", "neg", "neu"]
    preds = ["pos", "neg", "neg", "pos"]
    assert macro_f1(golds, preds, [*LABELS, "other"]) == macro_f1(golds, preds, LABELS)
    # A label predicted but never gold is NOT skipped: F1 0 for it.
    assert macro_f1(["pos"], ["neg"], ["pos", "neg"]) == 0.0
    assert macro_f1(["pos", "neg"], ["pos", "neg"], ["pos", "neg", "neu"]) == 100.0


def test_macro_f1_prediction_outside_labels_is_just_wrong():
    # pos: TP 1 -> 1; neg: FN 1 -> 0; "garbage" is no label of its own.
    assert macro_f1(["pos", "neg"], ["pos", "garbage"], ["pos", "neg"]) == pytest.approx(50.0)


def test_macro_f1_rejects_gold_outside_labels():
    with pytest.raises(ValueError, match="not among"):
        macro_f1(["pos", "weird"], ["pos", "pos"], ["pos", "neg"])
    with pytest.raises(ValueError):
        macro_f1(["pos"], ["pos"], [])


def test_squad_f1_corpus_takes_the_best_gold_and_reports_percent():
    golds = [["Paris", "the city of Paris"], "1542", ["London"]]
    preds = ["city of Paris", "in 1542", None]
    # ex 1: max(F1 vs "Paris" = 1/2, F1 vs "city of paris" = 1) = 1
    # ex 2: 1 common token, P 1/2, R 1 -> 2/3;  ex 3: None is the empty answer -> 0
    assert squad_f1_corpus(golds, preds) == pytest.approx(100 * (1 + 2 / 3 + 0) / 3)
    with pytest.raises(ValueError):
        squad_f1_corpus([[]], ["x"])


def test_performance_dispatches():
    assert performance("accuracy", ["a", "b"], ["a", "a"], None) == 50.0
    assert performance("macro_f1", ["pos", "neg"], ["pos", "pos"], ["pos", "neg"]) == pytest.approx(100 * (2 / 3 + 0) / 2)
    # Without labels, macro_f1 uses the distinct golds.
    assert performance("macro_f1", ["pos", "neg"], ["pos", "pos"]) == pytest.approx(100 * (2 / 3 + 0) / 2)
    assert performance("squad_f1", [["Paris"]], ["paris!"]) == 100.0
    with pytest.raises(ValueError, match="unknown performance metric"):
        performance("bleu", ["a"], ["a"], None)


def test_per_tag_groups_rows_by_each_of_their_tags():
    rows = [
        (["negation", "long"], "pos", "pos"),
        (["negation"], "neg", "pos"),
        (["long", "long"], "neg", "neg"),  # a repeated tag counts once
        ([], "pos", "neg"),  # untagged: in no group
    ]
    assert per_tag("accuracy", rows, LABELS) == {"long": 100.0, "negation": 50.0}
    assert list(per_tag("accuracy", rows, LABELS)) == ["long", "negation"]
    assert per_tag("accuracy", [], LABELS) == {}


def test_consistency_averages_shares_over_originals_with_copies():
    originals = {"1": "pos", "2": "neg", "3": "pos"}
    perturbed = [("1", "pos"), ("1", "neg"), ("2", "neg"), ("9", "pos")]
    # "1": 1 of 2 copies agree -> 1/2; "2": 1/1; "3": no copy (not counted); "9": no original (ignored)
    assert consistency(originals, perturbed) == pytest.approx((0.5 + 1.0) / 2)


def test_consistency_compares_with_the_models_own_prediction_not_gold():
    # The model was wrong on the original and stays wrong the same way: perfectly consistent.
    assert consistency({"1": "neg"}, [("1", "neg"), ("1", "neg")]) == 1.0


def test_consistency_is_none_without_perturbed_copies():
    assert consistency({"1": "pos"}, []) is None
    assert consistency({}, [("1", "pos")]) is None


def test_consistency_for_qa_compares_normalized_answers():
    originals = {"q1": "The Eiffel Tower", "q2": "1889"}
    perturbed = [("q1", "eiffel tower."), ("q2", "in 1889")]
    assert consistency(originals, perturbed, qa=True) == pytest.approx(0.5)
    assert consistency(originals, perturbed) == 0.0  # exact comparison without qa
    # Model output dicts are understood without the flag.
    assert consistency({"q1": {"answer": "The Eiffel Tower"}}, [("q1", {"answer": "eiffel  tower"})]) == 1.0
    assert consistency({"1": {"label": "pos"}}, [("1", {"label": "pos"}), ("1", {"label": "neg"})]) == 0.5
