"""Node types of retraining: a training run with its status log and what its build trained on."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.core.jsonutil import from_json
from server.graphql.core.relay import int_ids
from server.graphql.tasks.types import TaskNode
from server.training import records


@strawberry.enum
class TrainingProfile(Enum):
    FAST = records.TrainingProfile.FAST.value
    FULL = records.TrainingProfile.FULL.value


@strawberry.type
class TrainingLogEntry:
    at: datetime
    status: str
    message: str


@strawberry.type
class TrainedLabelCount:
    label: str
    count: int


@strawberry.type(description="What a run's build trained on, as the training code counted it (docs/design.md §4.8).")
class TrainingData:
    validated_examples: int = strawberry.field(
        description="Validated examples of the chosen rounds the new version was trained on (each drawn at least once)."
    )
    validated_available: int = strawberry.field(
        description="Validated examples of the chosen rounds the model can take (an input and a label it knows)."
    )
    validated_read: int = strawberry.field(
        description="Validated examples of the chosen rounds, with `agreedRead` (unless the run left those out)."
    )
    agreed_read: int = strawberry.field(
        description="Of `validatedRead`, the non-fooling examples the target model agreed with that the task does not "
        "send to validators (their label is the writer's, confirmed by the model alone); counted as validated in the "
        "other figures. 0 when the run left them out (`includeAgreed`)."
    )
    validated_held_out: int = strawberry.field(
        description="Of those, the retraining gate's held-out share (about 20%, chosen by a hash of the example id): "
        "never trained on, by this run or any later one."
    )
    validated_by_label: list[TrainedLabelCount] = strawberry.field(description="Trained-on examples per label.")
    validated_digest: str = strawberry.field(
        description="SHA-256 (hex) of the trained-on examples' database ids, ascending, one decimal id per line; "
        "the version's metadata.json lists the ids."
    )
    validated_share: float = strawberry.field(
        description="Share of the training draws taken from validated examples: their natural share, at least 0.3 "
        "(for a handful of examples: at most 20 draws each)."
    )
    min_draws: int = strawberry.field(description="The fewest times a trained-on validated example was drawn.")
    seed_examples: int = strawberry.field(description="Seed rows in the training pool (after the per-label cap).")
    steps: int = strawberry.field(description="Training steps (iterations for the QA ranker) run.")
    validated_dev: int = strawberry.field(
        description="Of the validated examples outside the gate's share, the development split (about 12%, chosen by "
        "a hash of the example id) that picked the kept checkpoint: not trained on by this run."
    )
    best_step: int | None = strawberry.field(
        description="The training step whose checkpoint was kept (best on the development split); null: no split, the last step."
    )
    started_from: str = strawberry.field(
        description='"version N": continued from the current version\'s weights; "base encoder": trained from the base.'
    )

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> TrainingData | None:
        if not doc:
            return None
        return cls(
            validated_examples=doc["validated"],
            validated_available=doc["available"],
            validated_read=doc["read"],
            agreed_read=doc.get("agreed", 0),
            validated_held_out=doc.get("held_out", 0),
            validated_by_label=[TrainedLabelCount(label=k, count=v) for k, v in doc["by_label"].items()],
            validated_digest=doc["digest"],
            validated_share=doc["share"],
            min_draws=doc["min_draws"],
            seed_examples=doc["seed"],
            steps=doc["steps"],
            validated_dev=doc.get("dev", 0),
            best_step=doc.get("best_step"),
            started_from=doc.get("started_from", "base encoder"),
        )


@strawberry.type(description="Current vs new version on the chosen rounds' held-out validated examples (errors 0 to 1).")
class HeldOutComparison:
    examples: int = strawberry.field(description="Gate examples both versions answered.")
    minimum: int = strawberry.field(description="The fewest gate examples the run needs (`minHeldOut`).")
    enough: bool
    current_error: float | None
    new_error: float | None
    difference: float | None = strawberry.field(description="New error minus current error (paired).")
    ci_low: float | None = strawberry.field(description="95% paired-bootstrap interval of the difference (it decides).")
    ci_high: float | None
    mcnemar_p: float | None = strawberry.field(description="Exact McNemar p-value (reported, not deciding).")
    only_current_wrong: int = strawberry.field(description="Gate examples the new version fixed.")
    only_new_wrong: int = strawberry.field(description="Gate examples the new version broke.")
    better: bool = strawberry.field(description="Enough examples and the whole interval below zero.")


@strawberry.type(description="Current vs new version's error (1 - performance) on one scoring dataset.")
class ScoringComparison:
    dataset: str
    current_error: float
    new_error: float
    difference: float
    tolerance: float
    passed: bool = strawberry.field(description="The difference is at most the tolerance.")


@strawberry.type(description="The retraining gate's decision (docs/design.md §4.8): both comparisons.")
class TrainingGate:
    passed: bool
    current_version: str = strawberry.field(description="The version the newest chosen round's targets pin.")
    new_version: str
    summary: str = strawberry.field(description="Both comparisons in words, as the status log says them.")
    held_out: HeldOutComparison
    scoring: list[ScoringComparison]

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> TrainingGate | None:
        if not doc:
            return None
        return cls(
            passed=doc["passed"],
            current_version=doc["current_version"],
            new_version=doc["new_version"],
            summary=doc["summary"],
            held_out=HeldOutComparison(**doc["held_out"]),
            scoring=[ScoringComparison(**row) for row in doc["scoring"]],
        )


def _model_id(pk: int | None) -> relay.GlobalID | None:
    return relay.GlobalID("Model", str(pk)) if pk is not None else None


@strawberry.type(name="TrainingRun")
class TrainingRunNode(relay.Node):
    id: relay.NodeID[int]
    status: str = strawberry.field(
        description="queued | training | evaluating | published (offered to openNextRound) | rejected (the gate said "
        "no: loaded, not offered) | failed | cancelled"
    )
    progress: float = strawberry.field(description="0 to 1")
    from_rounds: list[int]
    base_model: str
    profile: str
    model_name: str
    model_version: str = strawberry.field(
        description="The version this run built (empty until built): a Triton version of a built-in model, or "
        "`model-<id>` for the submission it built from an uploaded classifier (openNextRound takes either)."
    )
    source_model_id: relay.GlobalID | None = strawberry.field(
        description="The uploaded classifier this run retrains with its own train.py (null for a built-in model)."
    )
    new_model_id: relay.GlobalID | None = strawberry.field(
        description="The submission the run built from it: a new model of the same owner (null until built, and for "
        "a built-in model)."
    )
    n_validated: int = strawberry.field(
        description="Validated examples the new version was trained on, as the training code counted them (0 until built)."
    )
    metrics: JSON = strawberry.field(description="Held-out score of the build, and perf per scoring dataset.")
    training_data: TrainingData | None = strawberry.field(description="What the build trained on (null until built).")
    gate: TrainingGate | None = strawberry.field(description="The retraining gate's comparisons (null until judged).")
    scoring_tolerance: float = strawberry.field(description="How much worse (absolute error) a scoring dataset may get.")
    min_held_out: int = strawberry.field(description="The fewest held-out gate examples the run needs.")
    include_agreed: bool = strawberry.field(
        description="The run also trains on, and judges with, the non-fooling examples the target agreed with that "
        "the task does not validate (see `trainTargetModel`)."
    )
    cancel_requested: bool = strawberry.field(description="An owner asked the run to stop (cancelTrainingRun).")
    override_reason: str = strawberry.field(description="Why an owner offered a rejected version anyway (empty if not).")
    overridden_at: datetime | None
    wall_seconds: float = strawberry.field(description="The run's cost so far: wall-clock seconds.")
    cpu_seconds: float = strawberry.field(
        description="The run's cost so far: CPU seconds of the worker process (training threads, inference calls, "
        "evaluation; not the Triton server's own CPU)."
    )
    created_at: datetime
    task_id: strawberry.Private[int]
    overridden_by_id: strawberry.Private[int | None]
    log: strawberry.Private[list]

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TrainingRunNode:
        return cls(
            id=row["id"],
            status=row["status"],
            progress=row["progress"],
            from_rounds=from_json(row["from_rounds"]),
            base_model=row["base_model"],
            profile=row["profile"],
            model_name=row["model_name"],
            model_version=row["model_version"],
            source_model_id=_model_id(row.get("source_model")),
            new_model_id=_model_id(row.get("new_model")),
            n_validated=row["n_validated"],
            metrics=from_json(row["metrics"]),
            training_data=TrainingData.from_doc(from_json(row.get("trained_on")) or {}),
            gate=TrainingGate.from_doc(from_json(row.get("gate")) or {}),
            scoring_tolerance=row["scoring_tolerance"],
            min_held_out=row["min_held_out"],
            include_agreed=row["include_agreed"],
            cancel_requested=row["cancel_requested"],
            override_reason=row["override_reason"],
            overridden_at=row["overridden_at"],
            wall_seconds=row["wall_seconds"],
            cpu_seconds=row["cpu_seconds"],
            created_at=row["created_at"],
            task_id=row["task"],
            overridden_by_id=row["overridden_by"],
            log=from_json(row["status_log"]),
        )

    @strawberry.field
    def status_log(self) -> list[TrainingLogEntry]:
        return [
            TrainingLogEntry(at=datetime.fromtimestamp(e["at"], tz=UTC), status=e["status"], message=e["message"])
            for e in self.log
        ]

    @strawberry.field(description="Username of who overrode the gate (null if nobody did, or the account is gone).")
    async def overridden_by(self, info: Info) -> str | None:
        if self.overridden_by_id is None:
            return None
        user = await info.context.loaders.user.load(self.overridden_by_id)
        return user["username"] if user else None

    @strawberry.field
    async def task(self, info: Info) -> TaskNode:
        return TaskNode.from_row(await info.context.loaders.task.load(self.task_id))

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        viewer = await info.context.viewer()
        ids = int_ids(node_ids)
        rows = await info.context.loaders.training_run.load_many([i for i in ids if i is not None])
        visible = {r["id"]: cls.from_row(r) for r in rows if r and permissions.can_view_training_run(viewer, r)}
        return [visible.get(i) for i in ids]
