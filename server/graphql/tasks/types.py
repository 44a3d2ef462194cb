"""Node types of tasks: Task, Round, Context, and the target models a round asks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.markdown import to_safe_html
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor, load_nodes
from server.graphql.tasks.assistance import AssistanceStatsRow, assistance_rows
from server.tasks import queries
from server.tasks.records import TaskStatus
from server.tasks.translations import translated_instructions

if TYPE_CHECKING:
    from server.graphql.annotation.adversary_types import AdversaryRun
    from server.graphql.evaluation.contamination import RoundContamination
    from server.graphql.offline.types import OfflineModel


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


@strawberry.type
class TargetModelStatus:
    ready: bool
    profile: str | None
    base_model: str | None
    training_data: str | None
    n_train: int | None
    n_heldout: int | None
    heldout_accuracy: float | None = strawberry.field(description="Accuracy on held-out data at build time (classification).")
    heldout_f1: float | None = strawberry.field(description="SQuAD F1 (0–100) on held-out data at build time (QA).")
    built_at: str | None


@strawberry.type
class TargetModel:
    name: str
    version: str = strawberry.field(description="Empty: the newest version Triton has loaded.")
    model_id: relay.GlobalID | None = strawberry.field(
        default=None, description="The submission (a Model) when a researcher's model judges the round; null for built-ins."
    )
    endpoint: strawberry.Private[str] = ""  # an LLM endpoint's name (its `name` here is `endpoint:<name>`)

    @classmethod
    def from_ref(cls, ref: Mapping[str, Any]) -> TargetModel:
        model_id = ref.get("model_id")
        return cls(
            name=ref["name"],
            version=ref.get("version", ""),
            model_id=relay.GlobalID("Model", str(model_id)) if model_id is not None else None,
            endpoint=str(ref.get("endpoint") or ""),
        )

    @strawberry.field(
        description="Readiness in the Triton that serves it (a target that is not ready leaves new examples pending) and "
        "the build metadata (held-out accuracy) from its config."
    )
    async def status(self, info: Info) -> TargetModelStatus:
        from server.core.target_models import model_info, serving_client

        if self.endpoint:  # registered and switched on (whether it answers shows with each reply)
            from server.generation.endpoints.service import endpoint_usable

            return status_of({"ready": await endpoint_usable(self.endpoint), "parameters": {}})
        found = await model_info(serving_client(info.context.services, self.name), self.name, self.version)
        return status_of(found)


def status_of(found: Mapping[str, Any]) -> TargetModelStatus:
    """A model's readiness and build metadata as `server.core.target_models.model_info` reports them."""
    p = found["parameters"]
    n_train, n_heldout = _float(p.get("n_train")), _float(p.get("n_heldout"))
    return TargetModelStatus(
        ready=found["ready"],
        profile=p.get("profile"),
        base_model=p.get("base_model"),
        training_data=p.get("training_data"),
        n_train=int(n_train) if n_train is not None else None,
        n_heldout=int(n_heldout) if n_heldout is not None else None,
        heldout_accuracy=_float(p.get("heldout_accuracy")),
        heldout_f1=_float(p.get("heldout_f1")),
        built_at=p.get("built_at"),
    )


strawberry.enum(TaskStatus, description="Where a task is in its life (see Task.status).")


@strawberry.type
class TaskConfigVersion:
    version: int
    config: JSON
    created_at: datetime


@strawberry.type(name="Context")
class ContextNode(relay.Node):
    id: relay.NodeID[int]
    fields: JSON
    tag: str | None
    total_used: int
    total_fooled: int
    last_used_at: datetime | None
    round_id: strawberry.Private[int]

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ContextNode:
        return cls(
            id=row["id"],
            fields=from_json(row["fields"]),
            tag=row["tag"],
            total_used=row["total_used"],
            total_fooled=row["total_fooled"],
            last_used_at=row["last_used_at"],
            round_id=row["round"],
        )

    @strawberry.field
    async def round(self, info: Info) -> RoundNode:
        return RoundNode.from_row(await info.context.loaders.round.load(self.round_id))

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        from server.graphql.tasks.visibility import visible_rows

        nodes = await load_nodes(info.context.loaders.context, node_ids, cls.from_row)
        rounds = await info.context.loaders.round.load_many([n.round_id for n in nodes if n])
        visible = {r["id"] for r in await visible_rows(info, rounds) if r}
        return [n if n and n.round_id in visible else None for n in nodes]


@strawberry.type(description="A generative round's attack success for one target model or one attack category.")
class AttackSuccessRow:
    grouping: str = strawberry.field(description="target | category")
    key: str = strawberry.field(description="The target model's name, or the category.")
    collected: int
    fooled: int
    validated_fooled: int
    asr: float | None = strawberry.field(description="fooled / collected (null before the first example).")
    validated_asr: float | None = strawberry.field(description="validated fooled / collected.")


@strawberry.type(name="Round")
class RoundNode(relay.Node):
    id: relay.NodeID[int]
    number: int
    start_at: datetime
    end_at: datetime | None
    total_collected: int
    total_fooled: int
    total_validated: int
    total_validated_fooled: int
    target_models: list[TargetModel]
    config_version: int = strawberry.field(
        description="The task config version this round runs with: its examples are judged and exported with it."
    )
    task_id: strawberry.Private[int]

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RoundNode:
        return cls(
            id=row["id"],
            number=row["number"],
            start_at=row["start_at"],
            end_at=row["end_at"],
            total_collected=row["total_collected"],
            total_fooled=row["total_fooled"],
            total_validated=row["total_validated"],
            total_validated_fooled=row["total_validated_fooled"],
            target_models=[TargetModel.from_ref(t) for t in from_json(row["target_models"])],
            config_version=row.get("config_version") or 1,
            task_id=row["task"],
        )

    @strawberry.field(description="Model error rate: fooled / collected (null before the first example).")
    def mer(self) -> float | None:
        return self.total_fooled / self.total_collected if self.total_collected else None

    @strawberry.field(description="Validated model error rate: validated fooled / collected.")
    def vmer(self) -> float | None:
        return self.total_validated_fooled / self.total_collected if self.total_collected else None

    @strawberry.field
    async def task(self, info: Info) -> TaskNode:
        return TaskNode.from_row(await info.context.loaders.task.load(self.task_id))

    @strawberry.field(
        description="Generative rounds: attack success rate (ASR = fooled / collected) and validated ASR per target "
        "model and per attack category (docs/design.md §4.3); empty for other rounds."
    )
    async def attack_success(self) -> list[AttackSuccessRow]:
        from server.annotation.conversations.attack_success import attack_success

        return [
            AttackSuccessRow(
                grouping=row.grouping,
                key=row.key,
                collected=row.collected,
                fooled=row.fooled,
                validated_fooled=row.validated_fooled,
                asr=row.asr,
                validated_asr=row.validated_asr,
            )
            for row in await attack_success(self.id)
        ]

    @strawberry.field(
        description="Fooling rate, validated fooling rate and median time to a fooling example, for examples written "
        "without and with a suggestion (two rows: unassisted, then assisted; docs/design.md §4.1e)."
    )
    async def assistance(self) -> list[AssistanceStatsRow]:
        return await assistance_rows(self.id)

    @strawberry.field(
        description="Task owners: the round's adversary runs, newest first (20), with their figures; empty for others."
    )
    async def adversary_runs(
        self, info: Info
    ) -> list[Annotated[AdversaryRun, strawberry.lazy("server.graphql.annotation.adversary_types")]]:
        from server.annotation.adversary.service import round_runs
        from server.graphql.annotation.adversary_types import AdversaryRun

        if not permissions.is_task_owner(await info.context.viewer(), self.task_id):
            return []
        return [AdversaryRun.from_row(row) for row in await round_runs(self.id)]

    @strawberry.field(description="Krippendorff's alpha (nominal) over validators' labels in this round; null until defined.")
    async def agreement(self) -> float | None:
        from server.annotation.validation.stats import round_agreement

        return await round_agreement(self.id)

    @strawberry.field(
        description="For a round opened from a retrained model: the scoring datasets' overlap with its training data and "
        "the collected examples (docs/design.md §4.9); null otherwise, and until the check has run."
    )
    async def contamination(
        self, info: Info
    ) -> Annotated[RoundContamination, strawberry.lazy("server.graphql.evaluation.contamination")] | None:
        from server.graphql.evaluation.contamination import round_contamination

        return await round_contamination(info, self.id, self.task_id)

    @strawberry.field(
        description='The round\'s target as the PWA can run it offline for provisional verdicts (docs/design.md, "A verdict even offline"); '
        "null when the target has no offline export."
    )
    def offline_model(self, info: Info) -> Annotated[OfflineModel, strawberry.lazy("server.graphql.offline.types")] | None:
        from server.graphql.offline.types import round_offline_model

        return round_offline_model(info, self.target_models)

    @strawberry.field
    async def contexts(self, info: Info, first: int = 20, after: str | None = None) -> relay.Connection[ContextNode]:
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        rows = await queries.round_contexts_page(self.id, after_id or 0, first + 1)
        return build_connection(rows, first, after_id, ContextNode.from_row)

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        from server.graphql.tasks.visibility import visible_rows

        async def visible(ids: list[int]) -> list[Any]:
            return await visible_rows(info, await info.context.loaders.round.load_many(ids))

        return await load_nodes(_Batch(visible), node_ids, cls.from_row)


@strawberry.type(name="Task")
class TaskNode(relay.Node):
    id: relay.NodeID[int]
    code: str
    name: str
    description: str
    config: JSON
    active: bool
    created_at: datetime
    status: TaskStatus = strawberry.field(
        description="PROPOSED (seen only by its owners and admins until an admin approves it), REJECTED, PUBLIC, "
        "HIDDEN (not listed; only its owners and admins reach it) or ARCHIVED (read-only)."
    )
    instructions: str = strawberry.field(description="The instructions for workers, as markdown (see instructionsHtml).")
    config_version: int = strawberry.field(description="The version of `config`; new rounds open with it.")
    review_note_text: strawberry.Private[str]

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TaskNode:
        return cls(
            id=row["id"],
            code=row["code"],
            name=row["name"],
            description=row["description"],
            config=from_json(row["config"]),
            active=row["active"],
            created_at=row["created_at"],
            status=TaskStatus(row.get("status") or TaskStatus.PUBLIC),
            instructions=row.get("instructions") or "",
            config_version=row.get("config_version") or 1,
            review_note_text=row.get("review_note") or "",
        )

    @strawberry.field(description="The instructions rendered as sanitized HTML (no scripts, styles, images or event handlers).")
    def instructions_html(
        self,
        locale: Annotated[
            str | None,
            strawberry.argument(
                description="A UI locale (a language tag such as es or pt-BR): the config's translated instructions "
                'for it when it has them (docs/task-config.md, "Translations"), else the task\'s own.'
            ),
        ] = None,
    ) -> str:
        translated = translated_instructions(self.config, locale[:35]) if locale else None
        text = translated or self.instructions
        return to_safe_html(text) if text else ""

    @strawberry.field(description="To the task's owners (and admins): the note of the admin who approved or rejected it.")
    async def review_note(self, info: Info) -> str | None:
        return self.review_note_text if permissions.is_task_owner(await info.context.viewer(), self.id) else None

    @strawberry.field(description="To the task's owners (and admins): who owns it; empty for others.")
    async def owners(self, info: Info) -> list[str]:
        from server.tasks import lifecycle

        if not permissions.is_task_owner(await info.context.viewer(), self.id):
            return []
        return [o["username"] for o in await lifecycle.owners(self.id)]

    @strawberry.field(description="To the task's owners (and admins): every config the task has had, newest first.")
    async def config_versions(self, info: Info) -> list[TaskConfigVersion]:
        if not permissions.is_task_owner(await info.context.viewer(), self.id):
            return []
        return [
            TaskConfigVersion(version=r["version"], config=r["config"], created_at=r["created_at"])
            for r in await queries.config_versions(self.id)
        ]

    @strawberry.field
    async def current_round(self, info: Info) -> RoundNode | None:
        row = await info.context.loaders.current_round.load(self.id)
        return RoundNode.from_row(row) if row else None

    @strawberry.field
    async def rounds(self, info: Info, first: int = 20, after: str | None = None) -> relay.Connection[RoundNode]:
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        rows = await queries.rounds_page(self.id, after_id, first + 1)
        return build_connection(rows, first, after_id, RoundNode.from_row)

    @strawberry.field(description="Model error rate over all rounds: fooled / collected.")
    async def mer(self) -> float | None:
        totals = await queries.task_totals(self.id)
        return totals["fooled"] / totals["collected"] if totals["collected"] else None

    @strawberry.field(description="Validated model error rate over all rounds: validated fooled / collected.")
    async def vmer(self) -> float | None:
        totals = await queries.task_totals(self.id)
        return totals["validated_fooled"] / totals["collected"] if totals["collected"] else None

    @strawberry.field(description="Whether the viewer owns this task (or is an admin).")
    async def viewer_is_owner(self, info: Info) -> bool:
        return permissions.is_task_owner(await info.context.viewer(), self.id)

    @strawberry.field(description="Whether the task has a scoring dataset; without one, submissions are not ranked.")
    async def has_scoring_dataset(self, info: Info) -> bool:
        return await info.context.loaders.task_has_scoring_dataset.load(self.id)

    @strawberry.field(
        description="To the task's owners (and admins) while the task has no scoring dataset: why its submissions "
        "cannot be ranked and how to fix it. Null otherwise."
    )
    async def scoring_notice(self, info: Info) -> str | None:
        if not permissions.is_task_owner(await info.context.viewer(), self.id):
            return None
        if await info.context.loaders.task_has_scoring_dataset.load(self.id):
            return None
        return tr(
            "This task has no scoring dataset yet: submissions cannot be ranked until you add one (on the task's owner "
            "page, under Datasets, upload one with access “Scoring”)."
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False):
        from server.graphql.tasks.visibility import visible_rows

        async def visible(ids: list[int]) -> list[Any]:
            return await visible_rows(info, await info.context.loaders.task.load_many(ids), task_of="id")

        return await load_nodes(_Batch(visible), node_ids, cls.from_row)


class _Batch:
    """A `load_many` over a function (for `load_nodes`): the rows the viewer may see, None for the others."""

    def __init__(self, load: Callable[[list[int]], Awaitable[list[Any]]]) -> None:
        self.load_many = load
