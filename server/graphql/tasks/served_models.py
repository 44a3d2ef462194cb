"""The `servedTargetModels` query: the target models a new task's first round (or a task's next round) can name,
with readiness and build metadata, plus a task's published submissions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.accounts.viewer import Viewer
from server.core.i18n import tr
from server.core.target_models import model_info, serving_client
from server.evaluation.records import ModelRow
from server.graphql.core.errors import PublicError
from server.graphql.core.guard import authorize
from server.graphql.tasks.types import TargetModelStatus, status_of
from server.graphql.tasks.visibility import visible_task
from server.tasks.served_models import published_submissions, served_target_models
from server.tasks.served_summary import KINDS, ServedModel
from server.tasks.shared_targets import shared_target_names


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


@strawberry.type
class ServedTargetModel:
    name: str
    versions: list[str] = strawberry.field(description="The versions loaded and ready now, newest first.")
    ready: bool = strawberry.field(description="A version is ready: a round can open with it now.")
    kind: str | None = strawberry.field(
        description="The task kind whose I/O contract its outputs follow: classification or extractive_qa."
    )
    task: str | None = strawberry.field(description="The task it was built for, when its config says so.")
    inputs: list[str] = strawberry.field(description="The inputs it reads (the task's model_inputs).")
    labels: list[str] = strawberry.field(description="The labels it answers (classification), when its config says so.")
    heldout_accuracy: float | None = strawberry.field(description="Accuracy on held-out data at build time.")
    heldout_f1: float | None = strawberry.field(description="SQuAD F1 (0–100) on held-out data at build time.")
    built_at: str | None
    profile: str | None
    builtin_task: str | None = strawberry.field(
        description="The built-in task that owns it: only that task's rounds (or an admin) may use it, unless shared."
    )
    shared: bool = strawberry.field(description="An admin shared it with every task owner (shareTargetModel).")
    usable: bool = strawberry.field(description="The viewer may name it as a target of the task (or of a new task).")
    unusable_reason: str | None = strawberry.field(
        description="Why the viewer cannot pick it now (it belongs to another task, or no version is ready); null when "
        "usable and ready."
    )

    @classmethod
    def of(cls, model: ServedModel, viewer: Viewer | None, task: Mapping[str, Any], shared: frozenset[str]) -> ServedTargetModel:
        p = model.parameters
        denied = permissions.use_target_models(viewer, task, [model.name], shared)
        reason = denied.message if denied else None
        if reason is None and not model.ready:
            reason = tr("No version is loaded and ready in the target Triton now.")
        return cls(
            name=model.name,
            versions=list(model.versions),
            ready=model.ready,
            kind=model.kind,
            task=model.task,
            inputs=list(model.inputs),
            labels=list(model.labels),
            heldout_accuracy=_float(p.get("heldout_accuracy")),
            heldout_f1=_float(p.get("heldout_f1")),
            built_at=p.get("built_at") or None,
            profile=p.get("profile") or None,
            builtin_task=permissions.owning_task_code(model.name),
            shared=model.name in shared,
            usable=denied is None,
            unusable_reason=reason,
        )


@strawberry.type
class SubmissionTarget:
    model_id: relay.GlobalID = strawberry.field(description="Give it as createRound's targetModels.modelId.")
    name: str
    status: str
    triton_name: strawberry.Private[str]
    triton_version: strawberry.Private[str]

    @classmethod
    def from_row(cls, row: ModelRow) -> SubmissionTarget:
        return cls(
            model_id=relay.GlobalID("Model", str(row["id"])),
            name=row["name"],
            status=row["status"],
            triton_name=row["triton_name"],
            triton_version=row["triton_version"] or "1",
        )

    @strawberry.field(description="Readiness in the sandboxed submissions Triton (an idle one is loaded again on use).")
    async def readiness(self, info: Info) -> TargetModelStatus:
        found = await model_info(serving_client(info.context.services, self.triton_name), self.triton_name, self.triton_version)
        return status_of(found)


@strawberry.type
class ServedTargetModels:
    targets: list[ServedTargetModel] = strawberry.field(description="The target Triton's models, ready ones first.")
    submissions: list[SubmissionTarget] = strawberry.field(
        description="The task's published, evaluated submissions (empty without a taskCode)."
    )


@strawberry.type
class ServedModelQueries:
    @strawberry.field(
        description="The target models a task's rounds can name: what the target Triton serves now (readiness, "
        "versions, build metadata), for one task kind if given, and a task's published submissions if a taskCode "
        "is given. For whoever may create a task."
    )
    async def served_target_models(self, info: Info, kind: str | None = None, task_code: str | None = None) -> ServedTargetModels:
        viewer = await authorize(info, permissions.list_served_models)
        if kind is not None and kind not in KINDS:
            raise PublicError(tr("`kind` must be one of {kinds}.", kinds=", ".join(KINDS)), "BAD_REQUEST")
        task: Mapping[str, Any] = {"code": ""}  # a new task: no built-in task's models unless an admin
        submissions: list[SubmissionTarget] = []
        if task_code is not None:
            row = await visible_task(info, task_code)
            task = row
            submissions = [SubmissionTarget.from_row(r) for r in await published_submissions(row["id"])]
        served = await served_target_models(info.context.services, kind)
        shared = await shared_target_names()
        return ServedTargetModels(
            targets=[ServedTargetModel.of(m, viewer, task, shared) for m in served], submissions=submissions
        )
