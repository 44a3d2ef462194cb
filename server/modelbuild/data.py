"""Reading training data for the built-in tasks from JSONL / JSON / CSV / TSV files.

``load_training_data(task, path)`` normalizes common public formats to records keyed by the
task's model input fields plus the gold output:

- classification tasks: ``{<input fields>: str, "label": <one of the task's labels>}``
- extractive QA: ``{"context": str, "question": str, "answer": str, "answer_start": int}``
  (``answer_start`` is a character offset into ``context``; ``context[answer_start:
  answer_start + len(answer)] == answer``)

Numeric labels are read as an index into the task's label order, which matches the usual
encodings: SST-2 (0 negative, 1 positive), SNLI/MNLI on the HF hub (0 entailment, 1 neutral,
2 contradiction), Hatemoji ``label_gold`` (0 not hateful, 1 hateful). Rows without a usable
label (SNLI "-", DynaSent "mixed", -1, empty) are skipped.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from server.modelbuild.tasks import get_task

# Column names tried in order for each model input field (first one present wins).
_FIELD_ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "sentiment": {"statement": ("statement", "sentence", "text", "review", "tweet", "content")},
    "hate_speech": {"statement": ("statement", "text", "sentence", "tweet", "comment", "post", "content")},
    "nli": {
        "context": ("context", "premise", "sentence1", "passage"),
        "hypothesis": ("hypothesis", "sentence2", "claim"),
    },
    "qa": {"context": ("context", "passage", "paragraph"), "question": ("question", "query")},
}
_LABEL_COLUMNS: dict[str, tuple[str, ...]] = {
    "sentiment": ("label", "gold_label", "sentiment", "label_gold", "polarity", "category"),
    "hate_speech": ("label", "label_gold", "gold_label", "hateful", "is_hateful", "class"),
    "nli": ("label", "gold_label"),
}
_LABEL_SYNONYMS: dict[str, dict[str, str]] = {
    "sentiment": {
        "negative": "negative",
        "neg": "negative",
        "rotten": "negative",
        "positive": "positive",
        "pos": "positive",
        "fresh": "positive",
        "neutral": "neutral",
        "neu": "neutral",
        "objective": "neutral",
        "plot": "neutral",
    },
    "nli": {
        "entailment": "entailment",
        "e": "entailment",
        "entails": "entailment",
        "neutral": "neutral",
        "n": "neutral",
        "contradiction": "contradiction",
        "c": "contradiction",
        "contradicts": "contradiction",
    },
    "hate_speech": {
        "hateful": "hateful",
        "hate": "hateful",
        "true": "hateful",
        "yes": "hateful",
        "offensive_hate": "hateful",
        "not_hateful": "not_hateful",
        "not hateful": "not_hateful",
        "nothate": "not_hateful",
        "not-hateful": "not_hateful",
        "non-hateful": "not_hateful",
        "non_hateful": "not_hateful",
        "nonhateful": "not_hateful",
        "none": "not_hateful",
        "false": "not_hateful",
        "no": "not_hateful",
    },
}


class DataFormatError(ValueError):
    """The file could not be read as training data for the task."""


def _read_rows(path: Path) -> Iterator[dict[str, Any]]:
    suffixes = [s.lower() for s in path.suffixes]
    if not path.is_file():
        raise DataFormatError(f"{path}: no such file")
    if suffixes[-1:] in ([".csv"], [".tsv"]):
        delimiter = "\t" if suffixes[-1] == ".tsv" else ","
        with path.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh, delimiter=delimiter)
            if not reader.fieldnames:
                raise DataFormatError(f"{path}: empty CSV (no header row)")
            yield from reader
        return
    text = path.read_text(encoding="utf-8-sig")
    stripped = text.lstrip()
    if suffixes[-1:] == [".json"] or stripped.startswith("["):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            doc = None  # fall through: maybe JSON Lines named .json
        if doc is not None:
            yield from _rows_from_json(doc, path)
            return
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataFormatError(f"{path}:{lineno}: not valid JSON Lines ({exc.msg})") from None
        if not isinstance(row, dict):
            raise DataFormatError(f"{path}:{lineno}: expected a JSON object per line")
        yield row


def _rows_from_json(doc: Any, path: Path) -> Iterator[dict[str, Any]]:
    if isinstance(doc, list):
        yield from (r for r in doc if isinstance(r, dict))
    elif isinstance(doc, dict) and isinstance(doc.get("data"), list):
        # SQuAD v1/v2 layout: data[].paragraphs[].{context, qas[].{question, answers[]}}
        for article in doc["data"]:
            for para in article.get("paragraphs", []):
                for qa in para.get("qas", []):
                    if qa.get("is_impossible"):
                        continue
                    yield {
                        "context": para.get("context", ""),
                        "question": qa.get("question", ""),
                        "answers": qa.get("answers", []),
                    }
    else:
        raise DataFormatError(f"{path}: expected a JSON array of objects, SQuAD JSON, or JSON Lines")


def _pick(row: dict[str, Any], names: Iterable[str]) -> tuple[str | None, Any]:
    lowered = {str(k).strip().lower(): k for k in row}
    for name in names:
        key = lowered.get(name)
        if key is not None and row[key] is not None and str(row[key]).strip() != "":
            return key, row[key]
    return None, None


def normalize_label(task: str, value: Any) -> str | None:
    """Map a raw label (string, bool or integer index) to the task's label, or None if unusable."""
    spec = get_task(task)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return spec.labels[value] if 0 <= value < spec.num_labels else None
    text = str(value).strip()
    if re.fullmatch(r"-?\d+(\.0+)?", text):
        return normalize_label(task, int(float(text)))
    key = text.lower().replace("-", "_") if task == "hate_speech" else text.lower()
    mapped = _LABEL_SYNONYMS[task].get(key) or _LABEL_SYNONYMS[task].get(text.lower())
    return mapped


def _qa_answer(row: dict[str, Any], context: str) -> tuple[str, int] | None:
    answers = None
    for name in ("answers", "answer", "answer_text"):
        if name in row and row[name] not in (None, ""):
            answers = row[name]
            break
    if answers is None:
        return None
    starts: list[Any] = []
    if isinstance(answers, str):
        stripped = answers.strip()
        if stripped.startswith(("{", "[")):
            try:
                answers = json.loads(stripped)
            except json.JSONDecodeError:
                pass
    if isinstance(answers, dict):  # HF datasets: {"text": [...], "answer_start": [...]}
        texts = answers.get("text") or []
        starts = list(answers.get("answer_start") or [])
        texts = [texts] if isinstance(texts, str) else list(texts)
        starts = [starts] if isinstance(starts, int) else starts
    elif isinstance(answers, list):  # SQuAD JSON: [{"text", "answer_start"}]
        texts = [a.get("text", "") if isinstance(a, dict) else str(a) for a in answers]
        starts = [a.get("answer_start") if isinstance(a, dict) else None for a in answers]
    else:
        texts = [str(answers)]
        _, start = _pick(row, ("answer_start", "start"))
        starts = [start]
    for i, text in enumerate(texts):
        if not text:
            continue
        start = starts[i] if i < len(starts) else None
        try:
            start = int(start) if start is not None and str(start).strip() != "" else None
        except ValueError:
            start = None
        if start is None or context[start : start + len(text)] != text:
            start = context.find(text)
        if start >= 0:
            return text, start
    return None


def load_training_data(task: str, path: Path) -> list[dict]:
    """Read ``path`` (JSONL, JSON, CSV or TSV) as training data for ``task``.

    Raises DataFormatError when the file has none of the expected columns or no usable row.
    """
    spec = get_task(task)
    path = Path(path)
    records: list[dict] = []
    missing_cols: set[str] = set()
    for row in _read_rows(path):
        record: dict[str, Any] = {}
        for field in spec.inputs:
            key, value = _pick(row, _FIELD_ALIASES[task][field])
            if key is None:
                missing_cols.add(field)
                break
            record[field] = str(value).strip()
        if len(record) != len(spec.inputs):
            continue
        if spec.kind == "extractive_qa":
            answer = _qa_answer(row, record["context"])
            if answer is None:
                continue
            record["answer"], record["answer_start"] = answer
        else:
            _, raw = _pick(row, _LABEL_COLUMNS[task])
            label = normalize_label(task, raw) if raw is not None else None
            if label is None:
                continue
            record["label"] = label
        records.append(record)
    if not records:
        hint = f" (missing columns for {', '.join(sorted(missing_cols))})" if missing_cols else ""
        raise DataFormatError(f"{path}: no usable {task} examples{hint}")
    return records
