"""What the friendly client answers: a model's results, a leaderboard, battle ratings, a round's export; each converts
to a pandas DataFrame (`to_dataframe()`) when pandas is installed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .frames import dataframe

METRICS = ("perf", "throughput", "memory", "robustness", "fairness")
SCORE_COLUMNS = ["dataset", "dataset_id", "weight", "perf", "throughput", "memory_gb", "robustness", "fairness"]


@dataclass(frozen=True)
class DatasetScore:
    """A model's numbers on one scoring dataset (perf in the task's performance metric, memory in GB)."""

    dataset: str
    dataset_id: str
    weight: float
    perf: float
    throughput: float | None
    memory_gb: float | None
    robustness: float | None
    fairness: float | None
    perf_by_tag: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, row: Any) -> DatasetScore:
        return cls(
            dataset=row.dataset.name,
            dataset_id=row.dataset.id,
            weight=row.dataset.weight,
            perf=row.perf,
            throughput=row.throughput,
            memory_gb=row.memory_gb,
            robustness=row.robustness,
            fairness=row.fairness,
            perf_by_tag=dict(row.perf_by_tag or {}),
        )

    def as_record(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SCORE_COLUMNS}


@dataclass(frozen=True)
class ModelResults:
    """A submitted model's scores: per dataset, and (when it is ranked) its Dynascore, rank and per-metric values
    (dataset-weighted averages) with the task's default weights."""

    model_id: str
    name: str
    task: str | None
    status: str
    per_dataset: list[DatasetScore]
    dynascore: float | None = None
    rank: int | None = None
    metrics: dict[str, float | None] = field(default_factory=dict)

    def to_dataframe(self) -> Any:
        """One row per scoring dataset."""
        return dataframe((score.as_record() for score in self.per_dataset), SCORE_COLUMNS)


@dataclass(frozen=True)
class LeaderboardEntry:
    rank: int
    model_id: str
    model: str
    owner: str | None
    dynascore: float
    metrics: dict[str, float | None]
    per_dataset: list[DatasetScore]


@dataclass(frozen=True)
class Leaderboard:
    """Every ranked model of a task (all pages), with the weights the Dynascores were computed with."""

    task: str
    entries: list[LeaderboardEntry]
    metric_weights: dict[str, float]
    total_count: int

    def __iter__(self) -> Iterator[LeaderboardEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def to_dataframe(self) -> Any:
        """One row per model: rank, model, owner, dynascore, then each metric."""
        columns = ["rank", "model_id", "model", "owner", "dynascore", *METRICS]
        return dataframe(
            ({**{k: getattr(e, k) for k in columns[:5]}, **{m: e.metrics.get(m) for m in METRICS}} for e in self.entries),
            columns,
        )


def leaderboard_entry(row: Any) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank=row.rank,
        model_id=row.model.id,
        model=row.model.name,
        owner=row.model.owner.username if row.model.owner else None,
        dynascore=row.dynascore,
        metrics={name: getattr(row.metrics, name) for name in METRICS},
        per_dataset=[DatasetScore.of(score) for score in row.per_dataset],
    )


@dataclass(frozen=True)
class BattleRatings:
    """Bradley–Terry ratings of a generative task's targets from its battles, with 95% bootstrap intervals
    (`lower`, `upper`), ranks and the win-rate matrix (in the order of `models`)."""

    models: list[dict[str, Any]]
    win_rate: list[list[float | None]]
    votes: int
    counted_ballots: int
    flagged_voters: int
    raw: Any = None

    def to_dataframe(self) -> Any:
        columns = ["rank", "name", "rating", "lower", "upper", "battles", "wins", "losses", "ties", "both_bad"]
        return dataframe(self.models, columns)


@dataclass(frozen=True)
class RoundExport:
    """A downloaded export: a JSONL file, or an HF-datasets directory (`datasets.load_from_disk`)."""

    path: Path
    format: str

    def rows(self) -> Iterator[dict[str, Any]]:
        """The JSONL rows, one dict each (JSONL exports only)."""
        if self.format != "jsonl":
            raise ValueError(f"rows() reads JSONL exports; this one is {self.format}: use to_dataset()")
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)

    def to_dataset(self) -> Any:
        """The export as a `datasets.Dataset` (needs the `datasets` package)."""
        try:
            import datasets
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError('to_dataset() needs the datasets package: pip install "dynabench-client[datasets]"') from exc
        if self.format == "hf_dataset":
            return datasets.load_from_disk(str(self.path))
        rows = list(self.rows())
        return datasets.Dataset.from_list(rows)
