"""Contamination reports in GraphQL (docs/design.md §4.9): `Dataset.contamination`, `Round.contamination` and the
leaderboard's `datasetOverlap`. Counts are public wherever the dataset or round is; the example pairs (texts of
the rows and what they match) reach only the task's owners and admins (`permissions.can_view_overlap_texts`)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.evaluation.datasets import contamination


@strawberry.enum
class OverlapSource(Enum):
    COLLECTED = "collected"
    TRAINING = "training"
    DATASETS = "datasets"


@strawberry.enum
class OverlapKind(Enum):
    EXACT = contamination.EXACT
    NEAR_NGRAM = contamination.NEAR_NGRAM
    NEAR_EMBEDDING = contamination.NEAR_EMBEDDING


@strawberry.type(description="How many rows duplicate something in one set (each row counted once, by its first test).")
class OverlapCounts:
    compared: int = strawberry.field(description="Rows or examples in the set compared against.")
    exact: int = strawberry.field(description="Rows equal to one of them after normalization.")
    near_ngram: int = strawberry.field(
        description=f"Other rows with word {contamination.NGRAM}-gram Jaccard similarity >= "
        f"{contamination.JACCARD_THRESHOLD} to one of them (on every model input)."
    )
    near_embedding: int = strawberry.field(
        description=f"Other rows with encoder embedding cosine >= {contamination.COSINE_THRESHOLD} to one of them."
    )
    rows: int = strawberry.field(description="Rows matched by any test: exact + nearNgram + nearEmbedding.")
    embeddings: bool = strawberry.field(description="Whether the embedding test ran on this comparison.")

    @classmethod
    def from_section(cls, section: dict[str, Any] | None) -> OverlapCounts:
        section = section or {}
        return cls(
            compared=int(section.get("compared", 0)),
            exact=int(section.get(contamination.EXACT, 0)),
            near_ngram=int(section.get(contamination.NEAR_NGRAM, 0)),
            near_embedding=int(section.get(contamination.NEAR_EMBEDDING, 0)),
            rows=int(section.get("rows", 0)),
            embeddings=bool(section.get("embeddings", False)),
        )


@strawberry.type(description="One overlapping row and what it matches (at most 20 per comparison).")
class OverlapPair:
    against: OverlapSource
    kind: OverlapKind
    similarity: float = strawberry.field(description="1 for exact; else the lowest similarity over the model inputs.")
    dataset_name: str | None = strawberry.field(description="The dataset the row is in (round reports).")
    row_uid: str
    row_text: str = strawberry.field(description="The row's model inputs, joined by ' | ' (at most 300 characters).")
    match: str = strawberry.field(description='What it matches: "example 12", "sentiment seed row 40", "dataset \'x\' row 7".')
    match_text: str


def _pairs(raw: list[dict[str, Any]]) -> list[OverlapPair]:
    return [
        OverlapPair(
            against=OverlapSource(p["against"]),
            kind=OverlapKind(p["kind"]),
            similarity=float(p["similarity"]),
            dataset_name=p.get("dataset"),
            row_uid=str(p["row"]),
            row_text=p["row_text"],
            match=p["match"],
            match_text=p["match_text"],
        )
        for p in raw
    ]


@strawberry.type(
    description="A dataset's rows against the task's collected examples, its models' training data and its other datasets."
)
class DatasetContamination:
    computed_at: datetime
    rows: int = strawberry.field(description="Rows compared (as uploaded; perturbed copies are not).")
    method: str
    encoder: str | None = strawberry.field(description="The encoder whose embeddings were compared; null: n-grams only.")
    notes: list[str] = strawberry.field(description="What the training data is, and what could not be compared.")
    collected: OverlapCounts = strawberry.field(
        description="Against the examples collected on the platform (not retracted); these rows are flagged."
    )
    training_data: OverlapCounts = strawberry.field(
        description="Against what the task's models were trained on, as far as the platform can read it."
    )
    other_datasets: OverlapCounts = strawberry.field(description="Against the rows of the task's other datasets.")
    task_id: strawberry.Private[int]
    raw_pairs: strawberry.Private[list[dict[str, Any]]]

    @classmethod
    def from_stored(cls, stored: dict[str, Any], task_id: int) -> DatasetContamination:
        report, against = stored["report"], stored["report"].get("against", {})
        return cls(
            computed_at=stored["computed_at"],
            rows=int(report.get("rows", 0)),
            method=report.get("method", ""),
            encoder=report.get("encoder"),
            notes=list(report.get("notes", [])),
            collected=OverlapCounts.from_section(against.get("collected")),
            training_data=OverlapCounts.from_section(against.get("training")),
            other_datasets=OverlapCounts.from_section(against.get("datasets")),
            task_id=task_id,
            raw_pairs=list(report.get("pairs", [])),
        )

    @strawberry.field(description="Example overlapping rows with their texts. Task owners and admins only (null otherwise).")
    async def pairs(self, info: Info) -> list[OverlapPair] | None:
        if not permissions.can_view_overlap_texts(await info.context.viewer(), self.task_id):
            return None
        return _pairs(self.raw_pairs)


@strawberry.type
class RoundDatasetOverlap:
    dataset_id: relay.GlobalID
    dataset_name: str
    rows: int
    training_data: OverlapCounts = strawberry.field(description="Against the round's retrained target's training data.")
    collected: OverlapCounts = strawberry.field(description="Against the examples collected on the platform.")


@strawberry.type(description="The scoring datasets against the training data of a round's retrained target model.")
class RoundContamination:
    computed_at: datetime
    target_models: list[str] = strawberry.field(description='"name version" of each target the report covers.')
    training_rows: int = strawberry.field(description="Training rows the platform could read for the round's targets.")
    method: str
    encoder: str | None
    notes: list[str]
    datasets: list[RoundDatasetOverlap]
    task_id: strawberry.Private[int]
    raw_pairs: strawberry.Private[list[dict[str, Any]]]

    @classmethod
    def from_stored(cls, stored: dict[str, Any], task_id: int) -> RoundContamination:
        report = stored["report"]
        return cls(
            computed_at=stored["computed_at"],
            target_models=[f"{t['name']} {t['version']}".strip() for t in report.get("targets", [])],
            training_rows=int(report.get("training_rows", 0)),
            method=report.get("method", ""),
            encoder=report.get("encoder"),
            notes=list(report.get("notes", [])),
            datasets=[
                RoundDatasetOverlap(
                    dataset_id=relay.GlobalID("Dataset", str(d["dataset"])),
                    dataset_name=d["name"],
                    rows=int(d.get("rows", 0)),
                    training_data=OverlapCounts.from_section(d.get("training")),
                    collected=OverlapCounts.from_section(d.get("collected")),
                )
                for d in report.get("datasets", [])
            ],
            task_id=task_id,
            raw_pairs=list(report.get("pairs", [])),
        )

    @strawberry.field(description="Example overlapping rows with their texts. Task owners and admins only (null otherwise).")
    async def pairs(self, info: Info) -> list[OverlapPair] | None:
        if not permissions.can_view_overlap_texts(await info.context.viewer(), self.task_id):
            return None
        return _pairs(self.raw_pairs)


@strawberry.type(description="A scoring dataset's overlap, as the leaderboard shows it (null counts: not checked yet).")
class DatasetOverlap:
    dataset_id: relay.GlobalID
    dataset_name: str
    rows_overlapping_training_data: int | None = strawberry.field(
        description="Rows that duplicate (exactly or nearly) any model's training data known to the platform."
    )
    rows_duplicating_collected: int | None = strawberry.field(
        description="Rows that duplicate an example collected on the platform (flagged rows)."
    )
    computed_at: datetime | None

    @classmethod
    def of(cls, dataset_id: int, name: str, stored: dict[str, Any] | None) -> DatasetOverlap:
        against = stored["report"].get("against", {}) if stored else {}
        return cls(
            dataset_id=relay.GlobalID("Dataset", str(dataset_id)),
            dataset_name=name,
            rows_overlapping_training_data=int(against["training"]["rows"]) if "training" in against else None,
            rows_duplicating_collected=int(against["collected"]["rows"]) if "collected" in against else None,
            computed_at=stored["computed_at"] if stored else None,
        )


async def round_contamination(info: Info, round_id: int, task_id: int) -> RoundContamination | None:
    stored = await info.context.loaders.round_contamination.load(round_id)
    return RoundContamination.from_stored(stored, task_id) if stored else None
