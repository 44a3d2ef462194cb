"""The contamination checks' job bodies (docs/design.md §4.9): a dataset's rows, or the scoring datasets of a
round opened from a retrained model, compared with the task's collected examples, its models' training data
and its other datasets; the report is stored (replacing any earlier one) and a dataset's rows that duplicate a
collected example are flagged.

A job recomputes everything from rows and files, so a retry or a second run stores the same report. The
comparisons (server/evaluation/datasets/contamination.py) and the embeddings (server/evaluation/datasets/encoder.py) run in a
thread: the worker's event loop keeps its heartbeat.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from server.core import db
from server.core.jsonutil import from_json
from server.core.services import Services
from server.evaluation import queries
from server.evaluation.datasets import contamination, contamination_queries
from server.evaluation.datasets.contamination import Row
from server.evaluation.datasets.encoder import Encoder, embed, find_encoder
from server.tasks import reads as task_reads
from server.tasks.config import TaskConfig
from server.tasks.service import load_config
from server.training import reads as training_reads
from server.training.records import TrainingStatus

# Unique texts per field embedded in one check: 120-150 texts/s for the 2-layer MiniLM on the busy two-core test
# machine, so about a minute (the encoder caches vectors: checks queued together pay once). Past it the remaining
# corpus rows (the seed data last) are compared by n-grams only, and the report says so.
EMBED_LIMIT = 10_000
PAIRS_CAP = 20  # example pairs kept per comparison (shown to the task's owners only)
TEXT_CAP = 300  # characters of each text in a pair
COLLECTED, TRAINING, DATASETS = "collected", "training", "datasets"


@dataclass
class Corpus:
    name: str  # collected | training | datasets
    rows: list[Row] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)  # what each row is, for the pairs ("example 12", "seed row 4")
    ids: list[int | None] = field(default_factory=list)  # examples' ids (collected, validated training rows)
    notes: list[str] = field(default_factory=list)

    def add(self, row: Row | None, ref: str, row_id: int | None = None) -> None:
        if row is not None:
            self.rows.append(row)
            self.refs.append(ref)
            self.ids.append(row_id)


def key_field(config: TaskConfig) -> int:
    """The first model input the annotator writes (the hypothesis, the question): the n-gram join's key."""
    written = {f.name for f in config.input_fields}
    return next((i for i, name in enumerate(config.model_inputs) if name in written), 0)


def row_of(values: Mapping[str, Any], names: Sequence[str]) -> Row | None:
    texts = [values.get(name) for name in names]
    return tuple(texts) if all(isinstance(t, str) for t in texts) else None  # type: ignore[return-value]


def _text(row: Row) -> str:
    joined = " | ".join(row)
    return joined if len(joined) <= TEXT_CAP else joined[: TEXT_CAP - 1] + "…"


def collected_corpus(config: TaskConfig, examples: list[dict[str, Any]]) -> Corpus:
    corpus = Corpus(COLLECTED)
    for e in examples:
        corpus.add(row_of({**(e["context"] or {}), **(e["input"] or {})}, config.model_inputs), f"example {e['id']}", e["id"])
    return corpus


def _metadata(repository: str, name: str, version: str) -> dict[str, Any] | None:
    if not repository or not version or "/" in name or "/" in version or name.startswith("."):
        return None
    try:
        return json.loads((Path(repository) / name / version / "metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _seed_rows(spec_name: str) -> list[dict[str, Any]]:
    from server.modelbuild.seed import seed_data

    return seed_data(spec_name).train


async def training_corpus(
    services: Services, task_id: int, config: TaskConfig, examples: list[dict[str, Any]], targets: list[tuple[str, str]]
) -> Corpus:
    """What these models (name, version) were trained on, as far as the platform can read it: the seed data a
    built-in recipe draws from (version 1 when its metadata says so, every retrained version), and the validated
    examples each retrained version lists in its metadata (else those of its run's rounds)."""
    from server.modelbuild.retrain import spec_for_model

    repository = services.settings.target_model_repository
    runs = {
        (r["model_name"], r["model_version"]): r
        for r in await training_reads.runs_of_task(task_id, 100)
        if r["status"] == TrainingStatus.PUBLISHED
    }
    corpus = Corpus(TRAINING)
    seeds: list[str] = []
    trained_ids: set[int] = set()
    for name, version in sorted(set(targets)):
        spec = spec_for_model(name)
        label = f"{name} version {version or '(newest)'}"
        if spec is None:
            corpus.notes.append(f"{label}: not a built-in model; its training data is not known to the platform.")
            continue
        if spec.kind == "generative":  # dialogues generated at build time (generative_data.py), not seed rows
            corpus.notes.append(f"{label}: a generative model; its generated training dialogues are not compared.")
            continue
        meta = await asyncio.to_thread(_metadata, repository, name, version)
        run = runs.get((name, version))
        validated = (meta or {}).get("validated")
        if run is not None or isinstance(validated, dict):
            seeds.append(spec.name)
            ids = validated.get("example_ids") if isinstance(validated, dict) else None
            if isinstance(ids, list):
                trained_ids.update(int(i) for i in ids)
            elif run is not None:
                rounds = set(from_json(run["from_rounds"]) or [])
                trained_ids.update(e["id"] for e in examples if e["status"] == "validated" and e["round_number"] in rounds)
        elif meta is not None and "project seed" in str(meta.get("training_data", "")):
            seeds.append(spec.name)
        elif meta is not None:
            corpus.notes.append(
                f"{label}: trained on {meta.get('training_data', 'unrecorded data')}, which the server cannot read."
            )
        else:
            corpus.notes.append(f"{label}: no build metadata in the target model repository.")
    for spec_name in sorted(set(seeds)):
        for i, record in enumerate(await asyncio.to_thread(_seed_rows, spec_name)):
            corpus.add(row_of(record, config.model_inputs), f"{spec_name} seed row {i + 1}")
    for e in examples:
        if e["id"] in trained_ids:
            corpus.add(row_of({**(e["context"] or {}), **(e["input"] or {})}, config.model_inputs), f"example {e['id']}", e["id"])
    corpus.notes.insert(
        0,
        f"Training data: {'the seed data of ' + ', '.join(sorted(set(seeds))) if seeds else 'no seed data'} and "
        f"{len(trained_ids)} validated example(s) retrained on.",
    )
    return corpus


def method_note(encoder: Encoder | None) -> str:
    text = (
        "Exact: the same text in every model input after normalization (lowercase, accents and punctuation removed, "
        f"spaces collapsed). Near: word {contamination.NGRAM}-gram Jaccard similarity at least "
        f"{contamination.JACCARD_THRESHOLD} on every model input"
    )
    if encoder is None:
        return text + ". No embedding check: the task's target model has no local encoder, so n-gram overlap only."
    return text + (
        f", or cosine similarity at least {contamination.COSINE_THRESHOLD} of embeddings from {encoder.label}'s encoder "
        "(mean-pooled last hidden state) on every model input."
    )


def _embeddings(encoder: Encoder, row_sets: list[list[Row]], corpora: list[Corpus], width: int):
    """Vectors per field of every row set's rows and of as many corpus rows as fit in EMBED_LIMIT unique texts per
    field: examples first (collected, retrained on), then other datasets' rows, then seed rows. Returns
    (vectors_of(rows), the embedded row indices of each corpus by name, notes)."""
    wanted: list[set[str]] = [set() for _ in range(width)]
    for rows in row_sets:
        for row in rows:
            for f, text in enumerate(row):
                wanted[f].add(text)
    order = sorted(
        ((corpus, j) for corpus in corpora for j in range(len(corpus.rows))),
        key=lambda item: (item[0].ids[item[1]] is None, item[0].name != DATASETS),
    )
    embedded: dict[str, list[int]] = {corpus.name: [] for corpus in corpora}
    full = False
    for corpus, j in order:
        row = corpus.rows[j]
        new = [f for f in range(width) if row[f] not in wanted[f]]
        if full or any(len(wanted[f]) + 1 > EMBED_LIMIT for f in new):
            full = True
            continue
        for f in new:
            wanted[f].add(row[f])
        embedded[corpus.name].append(j)
    notes = [
        f"{corpus.name}: {len(corpus.rows) - len(embedded[corpus.name]):,} of {len(corpus.rows):,} rows compared by "
        f"n-grams only (at most {EMBED_LIMIT:,} texts are embedded per check)."
        for corpus in corpora
        if len(embedded[corpus.name]) < len(corpus.rows)
    ]
    table = []
    for f in range(width):
        texts = list(wanted[f])
        vectors = embed(encoder, texts)
        table.append({text: vectors[k] for k, text in enumerate(texts)})

    def vectors_of(rows: list[Row]) -> list[np.ndarray]:
        return [np.stack([table[f][row[f]] for row in rows]) for f in range(width)]

    return vectors_of, {name: sorted(rows) for name, rows in embedded.items()}, notes


def compare_all(
    row_sets: list[list[Row]], corpora: list[Corpus], config: TaskConfig, encoder: Encoder | None
) -> tuple[list[dict[str, contamination.OverlapReport]], list[str]]:
    """For each row set, its report against each corpus (blocking: run it in a thread)."""
    vectors_of, embedded, notes = None, {}, []
    if encoder is not None and any(row_sets):
        vectors_of, embedded, notes = _embeddings(encoder, row_sets, corpora, len(config.model_inputs))
    reports = []
    for rows in row_sets:
        by_corpus = {}
        for corpus in corpora:
            subset = embedded.get(corpus.name) or []
            with_vectors = vectors_of is not None and rows and subset
            by_corpus[corpus.name] = contamination.compare(
                rows,
                corpus.rows,
                key_field=key_field(config),
                row_vectors=vectors_of(rows) if with_vectors else None,
                corpus_vectors=vectors_of([corpus.rows[j] for j in subset]) if with_vectors else None,
                vector_rows=subset,
            )
        reports.append(by_corpus)
    return reports, notes


def section(report: contamination.OverlapReport) -> dict[str, Any]:
    return {**report.counts(), "embeddings": report.embeddings}


def pairs(report: contamination.OverlapReport, rows: list[Row], uids: list[str], corpus: Corpus, **extra: Any) -> list[dict]:
    return [
        {
            "against": corpus.name,
            **extra,
            "kind": m.kind,
            "similarity": m.similarity,
            "row": uids[m.row],
            "row_text": _text(rows[m.row]),
            "match": corpus.refs[m.match],
            "match_text": _text(corpus.rows[m.match]),
        }
        for m in report.examples(PAIRS_CAP)
    ]


async def _current_targets(task: Mapping[str, Any]) -> list[tuple[str, str]]:
    current = await task_reads.round_by_number(task["id"], task["current_round"])
    return [(t["name"], t.get("version") or "") for t in from_json(current["target_models"])] if current else []


async def check_dataset(services: Services, dataset_id: int) -> str:
    """The dataset's rows against the task's collected examples, every model's training data and the other datasets."""
    [dataset] = await queries.datasets_by_id([dataset_id]) or [None]
    if dataset is None:
        return "gone"
    task = await task_reads.task_by_id(dataset["task"])
    config = load_config(task)
    stored = [(r, row_of(r["fields"], config.model_inputs)) for r in await contamination_queries.original_rows(dataset_id)]
    stored = [(r, row) for r, row in stored if row is not None]
    rows = [row for _, row in stored]
    examples = await contamination_queries.collected_examples(task["id"])
    collected = collected_corpus(config, examples)
    training = await training_corpus(
        services, task["id"], config, examples, await contamination_queries.targets_of_task(task["id"])
    )
    others = Corpus(DATASETS)
    for r in await contamination_queries.task_dataset_rows(task["id"]):
        if r["dataset"] != dataset_id:
            others.add(row_of(r["fields"], config.model_inputs), f"dataset {r['name']!r} row {r['uid']}")
    encoder = find_encoder(services.settings.target_model_repository, await _current_targets(task))
    corpora = [collected, training, others]
    [reports], notes = await asyncio.to_thread(compare_all, [rows], corpora, config, encoder)
    uids = [r["uid"] for r, _ in stored]
    report = {
        "rows": len(rows),
        "method": method_note(encoder),
        "encoder": encoder.label if encoder else None,
        "notes": training.notes + notes,
        "against": {c.name: section(reports[c.name]) for c in corpora},
        "pairs": [p for c in corpora for p in pairs(reports[c.name], rows, uids, c)],
    }
    flags = {
        stored[m.row][0]["id"]: {"example": collected.ids[m.match], "kind": m.kind, "similarity": m.similarity}
        for m in reports[COLLECTED].matches.values()
    }
    async with db.transaction():
        if not await contamination_queries.save_dataset_report(dataset, report, flags):
            return "gone"
    return f"{len(flags)} of {len(rows)} rows duplicate collected examples"


async def check_round(services: Services, round_id: int) -> str:
    """The task's scoring datasets against the training data of the round's retrained target(s) and the collected examples."""
    round_row = await task_reads.round_by_id(round_id)
    if round_row is None:
        return "gone"
    task = await task_reads.task_by_id(round_row["task"])
    config = load_config(task)
    targets = [(t["name"], t.get("version") or "") for t in from_json(round_row["target_models"])]
    examples = await contamination_queries.collected_examples(task["id"])
    training = await training_corpus(services, task["id"], config, examples, targets)
    collected = collected_corpus(config, examples)
    datasets: dict[int, dict[str, Any]] = {
        d["id"]: {"name": d["name"], "rows": [], "uids": []} for d in await queries.scoring_datasets(task["id"])
    }
    for r in await contamination_queries.task_dataset_rows(task["id"]):
        row = row_of(r["fields"], config.model_inputs)
        if r["dataset"] in datasets and row is not None:
            datasets[r["dataset"]]["rows"].append(row)
            datasets[r["dataset"]]["uids"].append(r["uid"])
    encoder = find_encoder(services.settings.target_model_repository, targets)
    corpora = [training, collected]
    row_sets = [d["rows"] for d in datasets.values()]
    reports, notes = await asyncio.to_thread(compare_all, row_sets, corpora, config, encoder)
    report = {
        "targets": [{"name": n, "version": v} for n, v in targets],
        "training_rows": len(training.rows),
        "method": method_note(encoder),
        "encoder": encoder.label if encoder else None,
        "notes": training.notes + notes,
        "datasets": [
            {"dataset": d_id, "name": d["name"], "rows": len(d["rows"]), **{c.name: section(r[c.name]) for c in corpora}}
            for (d_id, d), r in zip(datasets.items(), reports, strict=True)
        ],
        "pairs": [
            p
            for (d_id, d), r in zip(datasets.items(), reports, strict=True)
            for c in corpora
            for p in pairs(r[c.name], d["rows"], d["uids"], c, dataset=d["name"])
        ],
    }
    if not await contamination_queries.save_round_report(round_id, round_row["start_at"], report):
        return "gone"
    return f"{len(datasets)} scoring dataset(s) against {len(training.rows)} training rows"
