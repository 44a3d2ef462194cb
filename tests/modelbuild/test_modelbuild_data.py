"""load_training_data on small files of each supported format, seed data integrity, pure helpers."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from server.modelbuild import TASKS, load_training_data
from server.modelbuild.data import DataFormatError, normalize_label
from server.modelbuild.seed import SEED_DIR, clean_tweet, seed_data
from tests.conftest import ROOT, SHARED_DATA


def _load_seed_generator():
    """scripts/generate_seed.py: a dev-time tool outside the installed package, loaded from its path."""
    spec = importlib.util.spec_from_file_location("generate_seed", ROOT / "scripts" / "generate_seed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_generator = _load_seed_generator()
GENERATORS, dumps, generate = _generator.GENERATORS, _generator.dumps, _generator.generate


def _write_csv(path: Path, header: list[str], rows: list[list]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_sst2_csv_numeric_labels(tmp_path: Path) -> None:
    path = _write_csv(
        tmp_path / "train.csv",
        ["label", "sentence"],
        [
            [1, "A stirring, funny and finally transporting film"],
            [0, "Apparently reassembled from the cutting-room floor"],
        ],
    )
    assert load_training_data("sentiment", path) == [
        {"statement": "A stirring, funny and finally transporting film", "label": "positive"},
        {"statement": "Apparently reassembled from the cutting-room floor", "label": "negative"},
    ]


def test_dynasent_jsonl_skips_mixed_and_missing(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "dynasent.jsonl",
        [
            {"sentence": "The staff was so crass and rude.", "gold_label": "negative", "text_id": "r2-1"},
            {"sentence": "It opens at noon.", "gold_label": "neutral"},
            {"sentence": "Good food, awful service.", "gold_label": "mixed"},
            {"sentence": "No label here."},
            {"sentence": "Lovely!", "gold_label": "positive", "label_distribution": {"positive": ["w1"]}},
        ],
    )
    rows = load_training_data("sentiment", path)
    assert [r["label"] for r in rows] == ["negative", "neutral", "positive"]
    assert rows[0] == {"statement": "The staff was so crass and rude.", "label": "negative"}


def test_snli_jsonl_and_hub_style_integer_labels(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "snli.jsonl",
        [
            {"premise": "Two women are embracing.", "hypothesis": "Two women are hugging.", "label": "entailment"},
            {"premise": "A man sleeps.", "hypothesis": "A man runs.", "label": 2},
            {"premise": "A dog barks.", "hypothesis": "The dog is hungry.", "label": 1},
            {"premise": "No gold.", "hypothesis": "Annotators disagreed.", "label": "-"},
            {"premise": "Skipped.", "hypothesis": "Unlabelled row.", "label": -1},
        ],
    )
    rows = load_training_data("nli", path)
    assert [r["label"] for r in rows] == ["entailment", "contradiction", "neutral"]
    assert rows[0] == {"context": "Two women are embracing.", "hypothesis": "Two women are hugging.", "label": "entailment"}


def test_anli_jsonl_letter_labels(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "dev.jsonl",
        [
            {
                "uid": "1",
                "context": "Zeffirelli was a senator.",
                "hypothesis": "He had a political career.",
                "label": "e",
                "model_label": "n",
                "reason": "senator",
                "genre": "wikipedia",
            },
            {"uid": "2", "context": "Born in 1923.", "hypothesis": "Born in 1925.", "label": "c"},
            {"uid": "3", "context": "A film.", "hypothesis": "A long film.", "label": "n"},
        ],
    )
    assert [r["label"] for r in load_training_data("nli", path)] == ["entailment", "contradiction", "neutral"]


def test_hatemoji_csv_label_gold(tmp_path: Path) -> None:
    path = _write_csv(
        tmp_path / "train.csv",
        [
            "entry_id",
            "text",
            "type",
            "target",
            "round.base",
            "round.set",
            "set",
            "split",
            "label_gold",
            "matched_text",
            "matched_id",
        ],
        [
            [0, "I would love to 🔪 some 👳🏾", "threat", "['arab']", 5, "5a", "original", "train", 1, "x", 1],
            [1, "I would love to 👏🏽 some 👳🏾", "none", "[]", 5, "5a", "perturbation", "train", 0, "y", 0],
        ],
    )
    assert load_training_data("hate_speech", path) == [
        {"statement": "I would love to 🔪 some 👳🏾", "label": "hateful"},
        {"statement": "I would love to 👏🏽 some 👳🏾", "label": "not_hateful"},
    ]


def test_hate_speech_string_labels_and_tsv(tmp_path: Path) -> None:
    path = tmp_path / "data.tsv"
    path.write_text("text\tlabel\nthey are vermin\thate\nnice weather\tnothate\nhmm\tnot hateful\n", encoding="utf-8")
    assert [r["label"] for r in load_training_data("hate_speech", path)] == ["hateful", "not_hateful", "not_hateful"]


def test_qa_formats(tmp_path: Path) -> None:
    ctx = "Penicillin was discovered by Alexander Fleming in 1928."
    hf = _write_jsonl(
        tmp_path / "hf.jsonl",
        [
            {
                "context": ctx,
                "question": "Who discovered penicillin?",
                "answers": {"text": ["Alexander Fleming"], "answer_start": [29]},
            },
            {"context": ctx, "question": "When?", "answer": "1928"},  # start found by search
            {"context": ctx, "question": "Unanswerable?", "answer": "nowhere in the text"},  # skipped
        ],
    )
    rows = load_training_data("qa", hf)
    assert rows == [
        {"context": ctx, "question": "Who discovered penicillin?", "answer": "Alexander Fleming", "answer_start": 29},
        {"context": ctx, "question": "When?", "answer": "1928", "answer_start": 50},
    ]
    squad = tmp_path / "squad.json"
    squad.write_text(
        json.dumps(
            {
                "version": "1.1",
                "data": [
                    {
                        "title": "t",
                        "paragraphs": [
                            {
                                "context": ctx,
                                "qas": [
                                    {
                                        "id": "a",
                                        "question": "Who discovered penicillin?",
                                        "answers": [{"text": "Alexander Fleming", "answer_start": 29}],
                                    },
                                ],
                            }
                        ],
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    assert load_training_data("qa", squad)[0]["answer_start"] == 29
    csv_path = _write_csv(tmp_path / "qa.csv", ["passage", "question", "answer"], [[ctx, "When?", "1928"]])
    assert load_training_data("qa", csv_path)[0]["answer_start"] == 50


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="missing columns for statement"):
        load_training_data("sentiment", _write_csv(tmp_path / "x.csv", ["foo", "label"], [["a", 1]]))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"sentence": "ok", "label": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"bad.jsonl:2"):
        load_training_data("sentiment", bad)
    with pytest.raises(DataFormatError, match="no such file"):
        load_training_data("nli", tmp_path / "missing.jsonl")
    with pytest.raises(ValueError, match="unknown task"):
        load_training_data("summarization", bad)


def test_normalize_label() -> None:
    assert normalize_label("sentiment", 2) == "neutral"
    assert normalize_label("sentiment", "1.0") == "positive"
    assert normalize_label("sentiment", "mixed") is None
    assert normalize_label("nli", "E") == "entailment"
    assert normalize_label("hate_speech", True) == "hateful"
    assert normalize_label("hate_speech", 3) is None


@pytest.mark.parametrize(
    ("task", "rel", "minimum"),
    [
        ("sentiment", "sst2/val.csv", 800),
        ("sentiment", "dynasent/dynasent-v1.1-round02-dynabench-dev.jsonl", 700),
        ("nli", "nli/mnli-matched-dev.jsonl", 9000),
        ("nli", "anli/R2/dev.jsonl", 1000),
        ("hate_speech", "hatemoji/validation.csv", 590),
    ],
)
def test_real_public_files(task: str, rel: str, minimum: int) -> None:
    rows = load_training_data(task, SHARED_DATA / rel)
    assert len(rows) >= minimum
    assert {r["label"] for r in rows} <= set(TASKS[task].labels)
    assert all(r[f] for r in rows for f in TASKS[task].inputs)


@pytest.mark.parametrize("task", list(GENERATORS))
def test_committed_generated_seed_is_reproducible(task: str) -> None:
    committed = (SEED_DIR / f"generated_{task}.jsonl").read_text(encoding="utf-8")
    assert dumps(generate(task)) == committed, "run: .venv/bin/python scripts/generate_seed.py"


@pytest.mark.parametrize("task", [name for name, spec in TASKS.items() if spec.kind != "generative"])
def test_seed_data_is_well_formed(task: str) -> None:
    spec = TASKS[task]
    data = seed_data(task)
    assert len(data.train) >= 200 and len(data.heldout) >= 50
    for row in data.train + data.heldout:
        assert all(isinstance(row[f], str) and row[f] for f in spec.inputs)
        if spec.kind == "classification":
            assert row["label"] in spec.labels
        else:
            start = row["answer_start"]
            assert row["context"][start : start + len(row["answer"])] == row["answer"]
    if spec.kind == "classification":
        assert {r["label"] for r in data.train} == set(spec.labels)
    train_keys = {json.dumps(r, sort_keys=True) for r in data.train}
    overlap = sum(json.dumps(r, sort_keys=True) in train_keys for r in data.heldout)
    assert overlap <= len(data.heldout) * 0.02  # held-out is (nearly) disjoint from training


def test_the_generative_demo_trains_on_generated_dialogues_in_the_plain_chat_format() -> None:
    from server.modelbuild.generative_data import dialogues

    train, heldout = dialogues(300, seed=1), dialogues(60, seed=1, split="heldout")
    assert len(train) == 300 and len(heldout) == 60
    for text in train + heldout:
        assert "User: " in text and "\nAssistant: " in text and not text.startswith("Assistant:")
    assert dialogues(300, seed=1) == train  # generated, not stored: the same seed writes the same dialogues
    assert len(set(heldout) & set(train)) <= len(heldout) * 0.1


def test_clean_tweet() -> None:
    assert (
        clean_tweet("RT @someone: Great explainer. #DeflateGate \u00e2\u20ac\u0153 http://t.co/M93")
        == "Great explainer. DeflateGate"
    )
    assert clean_tweet("@united you guys suck!") == "you guys suck!"
    assert clean_tweet("fish &amp; chips") == "fish & chips"


def test_cli_parser() -> None:
    import argparse

    from server.cli.modelbuild import configure_parser

    parser = argparse.ArgumentParser()
    configure_parser(parser)
    args = parser.parse_args(
        [
            "--output",
            "out",
            "--task",
            "nli",
            "--task",
            "qa",
            "--profile",
            "fast",
            "--data",
            "nli=train.jsonl",
            "--base-model",
            "/models/minilm",
            "--force",
        ]
    )
    assert args.tasks == ["nli", "qa"] and args.profile == "fast" and args.force
    assert dict(args.data) == {"nli": Path("train.jsonl")} and str(args.output) == "out"
    assert parser.parse_args([]).tasks is None and parser.parse_args([]).profile == "full"
    with pytest.raises(SystemExit):
        parser.parse_args(["--data", "nope"])
