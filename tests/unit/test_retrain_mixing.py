"""What a retrained version trains on (server/modelbuild/mixing.py, docs/design.md §4.8): every validated example
is drawn, at a fixed share of the batches, deterministically; without validated examples the batches are the
recipe's of `build-models`."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from server.modelbuild.mixing import (
    MAX_DRAWS,
    VALIDATED_SHARE,
    BatchMixer,
    ids_digest,
    steps_to_cover,
    validated_share,
    validated_slots,
    validated_summary,
)
from server.modelbuild.qa import QAFitConfig, fit_ranker, load_ranker_module
from server.modelbuild.retrain import training_rows
from server.modelbuild.tasks import TASKS

REPO = Path(__file__).resolve().parents[2]


def test_validated_share_is_their_natural_share_but_at_least_the_floor():
    assert validated_share(4500, 0) == 0.0
    assert validated_share(4500, 287) == VALIDATED_SHARE == 0.3
    assert validated_share(1000, 3000) == 0.75
    assert validated_share(0, 12) == 1.0
    # A handful of examples: at most MAX_DRAWS draws each of the planned draws, but never below their natural share.
    assert validated_share(4500, 287, 100 * 16) == validated_share(4500, 287, 300 * 32) == 0.3
    assert validated_share(4500, 4, 100 * 16) == MAX_DRAWS * 4 / 1600 == 0.05
    assert validated_share(10, 4, 100 * 16) == 4 / 14


@pytest.mark.parametrize("share,batch", [(0.3, 16), (0.3, 32), (0.75, 16), (1.0, 8), (0.3333, 7)])
def test_steps_to_cover_is_the_fewest_steps_holding_every_validated_example(share, batch):
    for n in (1, 5, 287, 1600, 4001):
        steps = steps_to_cover(n, share, batch)
        assert validated_slots(share, batch, steps) >= n > validated_slots(share, batch, steps - 1)
    assert steps_to_cover(0, share, batch) == 0


def _run(mixer: BatchMixer) -> list[tuple[list[int], list[int]]]:
    return [mixer.next_batch() for _ in range(mixer.steps)]


def test_every_validated_example_is_drawn_even_beyond_the_planned_steps():
    mixer = BatchMixer(4500, 1600, 16, 100, random.Random(13), 13)
    assert mixer.share == 0.3 and mixer.steps == steps_to_cover(1600, 0.3, 16) == 334
    batches = _run(mixer)
    assert mixer.covered and min(mixer.draws) == 1 and sum(mixer.draws) == validated_slots(0.3, 16, 334)
    assert all(len(seed) + len(validated) == 16 for seed, validated in batches)
    assert all(0 <= i < 4500 for seed, _ in batches for i in seed)
    # The share holds over every prefix of the run (cumulative rounding), not only on average.
    drawn = 0
    for step, (_, validated) in enumerate(batches, 1):
        drawn += len(validated)
        assert abs(drawn - 0.3 * 16 * step) < 1
    # Deterministic: the same inputs give the same batches.
    assert _run(BatchMixer(4500, 1600, 16, 100, random.Random(13), 13)) == batches


def test_few_validated_examples_keep_the_planned_steps_and_are_drawn_repeatedly():
    mixer = BatchMixer(10500, 287, 32, 300, random.Random(13), 13)
    _run(mixer)
    assert mixer.steps == 300 and mixer.covered
    assert min(mixer.draws) >= 9 and max(mixer.draws) - min(mixer.draws) <= 1  # passes over all of them, in turn


def test_a_handful_of_validated_examples_is_not_repeated_hundreds_of_times():
    mixer = BatchMixer(10500, 4, 32, 300, random.Random(13), 13)
    _run(mixer)
    assert mixer.steps == 300 and mixer.covered and mixer.draws == [MAX_DRAWS] * 4


def test_validated_only_and_seed_only():
    only = BatchMixer(0, 40, 16, 10, random.Random(1), 1)
    assert all(seed == [] and len(validated) == 16 for seed, validated in _run(only)) and only.covered
    none = BatchMixer(100, 0, 16, 10, random.Random(1), 1)
    assert all(validated == [] for _, validated in _run(none)) and none.covered and none.draws == []


def test_without_validated_examples_the_batches_are_build_models_batches():
    """The loop train.py ran before validated examples were mixed in (v1 builds stay reproducible)."""
    rng = random.Random(13)
    order: list[int] = []
    expected = []
    for _ in range(100):
        if len(order) < 16:
            fresh = list(range(4500))
            rng.shuffle(fresh)
            order.extend(fresh)
        expected.append(order[:16])
        order = order[16:]
    assert [seed for seed, _ in _run(BatchMixer(4500, 0, 16, 100, random.Random(13), 13))] == expected


def test_validated_summary_counts_only_what_was_drawn():
    rows = [
        {"statement": "a", "label": "positive", "example_id": 30},
        {"statement": "b", "label": "negative", "example_id": 4},
        {"statement": "c", "label": "positive", "example_id": 17},
    ]
    summary = validated_summary(rows, [2, 0, 1], 0.3)
    assert summary["trained"] == 2 and summary["available"] == 3 and summary["example_ids"] == [17, 30]
    assert summary["by_label"] == {"positive": 2} and (summary["min_draws"], summary["max_draws"]) == (1, 2)
    assert summary["digest"] == hashlib.sha256(b"17\n30").hexdigest() == ids_digest([30, 17])


def test_training_rows_keep_the_example_ids_and_leave_out_what_the_model_cannot_take():
    examples = [
        {"id": 1, "fields": {"statement": "Lovely staff."}, "label": "positive"},
        {"id": 2, "fields": {"statement": ""}, "label": "positive"},
        {"id": 3, "fields": {"statement": "Cold soup."}, "label": "mixed"},
        {"id": 4, "fields": {"statement": "Cold soup.", "other": "x"}, "label": "negative"},
    ]
    assert training_rows(TASKS["sentiment"], examples) == [
        {"statement": "Lovely staff.", "label": "positive", "example_id": 1},
        {"statement": "Cold soup.", "label": "negative", "example_id": 4},
    ]


def test_qa_ranker_caps_the_seed_questions_only():
    module = load_ranker_module(REPO / "triton_models" / "qa_overlap_baseline" / "1" / "model.py")
    context = "The bridge was finished in 1932 by engineers from Lyon, and it spans the river Rhone."

    def row(question, answer, **extra):
        return {"context": context, "question": question, "answer": answer, "answer_start": context.find(answer), **extra}

    seed = [row("When was the bridge finished?", "1932"), row("Which river does it span?", "the river Rhone")] * 3
    validated = [row("Who built the bridge?", "engineers from Lyon", example_id=i) for i in range(5)]
    validated.append(row("What colour is it?", "purple", example_id=99))  # no candidate span: cannot be used
    weights, n_used, used = fit_ranker(module, seed, QAFitConfig(iterations=5, max_questions=2), validated=validated)
    assert n_used == 2 + 5 and used == [True] * 5 + [False] and weights.shape == (len(module.FEATURE_NAMES),)
