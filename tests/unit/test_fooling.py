import pytest

from server.annotation.fooling import fooled, model_is_wrong, squad_f1, squad_normalize
from server.tasks.builtin import BUILTIN_TASKS
from server.tasks.config import TaskConfig

SENTIMENT = TaskConfig.model_validate(BUILTIN_TASKS[0]["config"])
QA = TaskConfig.model_validate(next(t for t in BUILTIN_TASKS if t["code"] == "qa")["config"])


@pytest.mark.parametrize(
    "raw, normalized",
    [
        ("The Eiffel Tower!", "eiffel tower"),
        ("  an   apple,  a pear ", "apple pear"),
        ("Theatre", "theatre"),  # 'the' only as a whole word
        ("U.S.A.", "usa"),
        ("", ""),
    ],
)
def test_squad_normalize(raw, normalized):
    assert squad_normalize(raw) == normalized


@pytest.mark.parametrize(
    "prediction, gold, f1",
    [
        ("Paris", "paris.", 1.0),
        ("the city of Paris", "Paris", 2 * (1 / 3) * 1 / (1 / 3 + 1)),  # 3 tokens vs 1 after dropping 'the'
        ("in 1542", "1542", 2 * 0.5 * 1 / 1.5),
        ("London", "Paris", 0.0),
        ("", "", 1.0),
        ("", "Paris", 0.0),
        ("the", "a", 1.0),  # both normalize to empty
    ],
)
def test_squad_f1(prediction, gold, f1):
    assert squad_f1(prediction, gold) == pytest.approx(f1)


def test_label_tasks_use_exact_match():
    assert model_is_wrong(SENTIMENT, "positive", {"label": "negative"})
    assert not model_is_wrong(SENTIMENT, "positive", {"label": "positive"})


def test_qa_threshold_is_strictly_below_point_four():
    # "Francisco de Orellana" vs "Orellana": P=1/3, R=1 -> F1 0.5: not fooled.
    assert not model_is_wrong(QA, "Orellana", {"answer": "Francisco de Orellana"})
    # F1 = 2*(1/4)*1/(1/4+1) = 0.4 exactly: not below the threshold, so not fooled.
    assert squad_f1("one two three Orellana", "Orellana") == pytest.approx(0.4)
    assert not model_is_wrong(QA, "Orellana", {"answer": "one two three Orellana"})
    assert model_is_wrong(QA, "Orellana", {"answer": "one two three four Orellana"})
    assert model_is_wrong(QA, "in 1542", {"answer": ""})


def test_majority_of_several_models():
    outputs = [{"label": "negative"}, {"label": "negative"}, {"label": "positive"}]
    assert fooled(SENTIMENT, "positive", outputs)
    assert not fooled(SENTIMENT, "positive", outputs[1:])  # a tie is not a majority
    with pytest.raises(ValueError):
        fooled(SENTIMENT, "positive", [])
