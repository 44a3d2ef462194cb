"""GraphQL types of crowd campaigns: the owner's campaign (with its ledger), the public join page, a worker's state
and completion, and the campaign input shared by createCampaign and updateCampaign."""

from __future__ import annotations

from enum import Enum
from typing import Any

import strawberry
from strawberry import relay
from strawberry.types import Info

from server.campaigns import entry as crowd_entry
from server.campaigns import ledger as campaign_ledger
from server.campaigns import records
from server.campaigns import service as campaign_service
from server.campaigns.joining import Completion
from server.campaigns.text import to_safe_html
from server.campaigns.work import WorkerState


@strawberry.enum
class CrowdPlatform(Enum):
    PROLIFIC = crowd_entry.Platform.PROLIFIC.value
    MTURK = crowd_entry.Platform.MTURK.value
    OPEN = crowd_entry.Platform.OPEN.value


@strawberry.enum
class CampaignStatus(Enum):
    DRAFT = records.CampaignStatus.DRAFT.value
    OPEN = records.CampaignStatus.OPEN.value
    CLOSED = records.CampaignStatus.CLOSED.value


@strawberry.enum
class WorkerStage(Enum):
    CONSENT = records.WorkerStage.CONSENT.value
    QUIZ = records.WorkerStage.QUIZ.value
    WORK = records.WorkerStage.WORK.value
    DONE = records.WorkerStage.DONE.value
    SCREENED_OUT = records.WorkerStage.SCREENED_OUT.value


@strawberry.enum
class PayoutFormat(Enum):
    PROLIFIC = crowd_entry.Platform.PROLIFIC.value
    MTURK = crowd_entry.Platform.MTURK.value


@strawberry.input
class QuizQuestionInput:
    prompt: str
    choices: list[str] = strawberry.field(default_factory=list, description="Empty for a free-text answer.")
    answer: str = strawberry.field(description="The right answer (one of the choices when there are choices).")


@strawberry.input
class QuizInput:
    questions: list[QuizQuestionInput]
    pass_mark: int = strawberry.field(description="Right answers needed to pass.")
    attempts: int = 1


@strawberry.input
class QuotasInput:
    examples_per_day: int | None = None
    examples_per_campaign: int | None = None
    validations_per_day: int | None = None
    validations_per_campaign: int | None = None
    example_budget: int | None = strawberry.field(default=None, description="Examples by all workers together.")


@strawberry.input(description="Campaign settings; for updateCampaign, only the fields given change.")
class CampaignInput:
    round_number: int | None = strawberry.UNSET
    platform: CrowdPlatform | None = strawberry.UNSET
    title: str | None = strawberry.UNSET
    status: CampaignStatus | None = strawberry.UNSET
    consent: str | None = strawberry.field(default=strawberry.UNSET, description="Markdown.")
    instructions: str | None = strawberry.field(default=strawberry.UNSET, description="Markdown.")
    quiz: QuizInput | None = strawberry.UNSET
    quotas: QuotasInput | None = strawberry.UNSET
    currency: str | None = strawberry.UNSET
    base_cents: int | None = strawberry.UNSET
    fooling_bonus_cents: int | None = strawberry.UNSET
    agreement_bonus_cents: int | None = strawberry.UNSET
    bonus_cap_cents: int | None = strawberry.UNSET
    completion_code: str | None = strawberry.UNSET
    failure_code: str | None = strawberry.field(default=strawberry.UNSET, description="Given after a failed quiz.")
    completion_redirect: str | None = strawberry.UNSET

    def spec(self) -> dict[str, Any]:
        """The given fields, as the service names them."""
        out: dict[str, Any] = {}
        for name, key in _SPEC_NAMES.items():
            value = getattr(self, name)
            if value is strawberry.UNSET:
                continue
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, QuizInput):
                value = {
                    "questions": [{"prompt": q.prompt, "choices": q.choices, "answer": q.answer} for q in value.questions],
                    "pass_mark": value.pass_mark,
                    "attempts": value.attempts,
                }
            elif isinstance(value, QuotasInput):
                value = dict(vars(value))
            out[key] = value
        if out.get("bonus_cap_cents", 0) is None:
            out["bonus_cap_cents"] = None
        return out


_SPEC_NAMES = {
    "round_number": "round_number", "platform": "platform", "title": "title", "status": "status",
    "consent": "consent", "instructions": "instructions", "quiz": "quiz", "quotas": "quotas", "currency": "currency",
    "base_cents": "base_cents", "fooling_bonus_cents": "fooling_bonus_cents",
    "agreement_bonus_cents": "agree_bonus_cents", "bonus_cap_cents": "bonus_cap_cents",
    "completion_code": "completion_code", "failure_code": "failure_code", "completion_redirect": "completion_redirect",
}  # fmt: skip


@strawberry.type
class QuizQuestion:
    id: str
    prompt: str
    choices: list[str]


@strawberry.type
class OwnerQuizQuestion(QuizQuestion):
    answer: str


@strawberry.type
class Quotas:
    examples_per_day: int | None
    examples_per_campaign: int | None
    validations_per_day: int | None
    validations_per_campaign: int | None
    example_budget: int | None


@strawberry.type(description="Owner-visible totals of the payments ledger (cents of the campaign's currency).")
class CampaignLedger:
    total_cents: int
    pending_cents: int
    exported_cents: int
    workers: int = strawberry.field(description="Workers with at least one line.")
    unmatched: list[str] = strawberry.field(description="Accounts with no approved submission in the last import.")


@strawberry.type(description="Owner-visible counts of a campaign, computed from the stored rows.")
class CampaignProgress:
    joined: int = strawberry.field(description="Workers who joined (one per external worker id).")
    consented: int
    quiz_passed: int
    quiz_failed: int = strawberry.field(description="Failed the quiz for good (given the screened-out code).")
    finished: int = strawberry.field(description="Given the completion code.")
    examples: int = strawberry.field(description="Examples (not retracted) the workers wrote in the campaign's round.")
    fooling: int = strawberry.field(description="Of those, the ones that fooled the model.")
    validated_fooling: int = strawberry.field(description="Of those, the ones validators confirmed.")
    validations: int = strawberry.field(description="Votes the workers cast in the round.")


@strawberry.type(name="Campaign", description="A crowd campaign, as its task's owners see it.")
class CampaignType:
    id: relay.GlobalID
    title: str
    platform: CrowdPlatform
    status: CampaignStatus
    code: str = strawberry.field(description="The join code: /#/join/<code>?<the platform's parameters>.")
    round_id: relay.GlobalID
    consent: str
    instructions: str
    quiz: list[OwnerQuizQuestion]
    quiz_pass_mark: int | None
    quiz_attempts: int | None
    quotas: Quotas
    currency: str
    base_cents: int
    fooling_bonus_cents: int
    agreement_bonus_cents: int
    bonus_cap_cents: int | None
    completion_code: str
    failure_code: str
    completion_redirect: str | None

    @strawberry.field
    def consent_html(self) -> str:
        return to_safe_html(self.consent)

    @strawberry.field
    def instructions_html(self) -> str:
        return to_safe_html(self.instructions)

    @strawberry.field
    async def ledger(self, info: Info) -> CampaignLedger:
        summary = await campaign_ledger.summary(int(self.id.node_id))
        return CampaignLedger(
            total_cents=summary.total_cents,
            pending_cents=summary.pending_cents,
            exported_cents=summary.exported_cents,
            workers=summary.workers,
            unmatched=summary.unmatched,
        )

    @strawberry.field
    async def progress(self, info: Info) -> CampaignProgress:
        return CampaignProgress(**await campaign_service.progress(int(self.id.node_id)))

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> CampaignType:
        quiz = row["quiz"] or {}
        return cls(
            id=relay.GlobalID("Campaign", str(row["id"])),
            title=row["title"],
            platform=CrowdPlatform(row["platform"]),
            status=CampaignStatus(row["status"]),
            code=row["code"],
            round_id=relay.GlobalID("Round", str(row["round"])),
            consent=row["consent_md"],
            instructions=row["instructions_md"],
            quiz=[
                OwnerQuizQuestion(id=q["id"], prompt=q["prompt"], choices=q["choices"], answer=q["answer"])
                for q in quiz.get("questions", [])
            ],
            quiz_pass_mark=quiz.get("pass_mark"),
            quiz_attempts=quiz.get("attempts"),
            quotas=Quotas(**{k: row["quotas"].get(k) for k in Quotas.__annotations__}),
            currency=row["currency"],
            base_cents=row["base_cents"],
            fooling_bonus_cents=row["fooling_bonus_cents"],
            agreement_bonus_cents=row["agree_bonus_cents"],
            bonus_cap_cents=row["bonus_cap_cents"],
            completion_code=row["completion_code"],
            failure_code=row["failure_code"],
            completion_redirect=row["completion_redirect"],
        )


@strawberry.type(description="What the join page shows: never the quiz's answers, the pay rules or the codes.")
class CampaignPage:
    id: relay.GlobalID
    code: str
    title: str
    platform: CrowdPlatform
    consent_html: str
    instructions_html: str
    quiz: list[QuizQuestion]
    quiz_pass_mark: int | None
    round_id: relay.GlobalID = strawberry.field(description="The round the campaign's work goes to.")
    task_id: strawberry.Private[int]

    @strawberry.field(description="The code of the campaign's task (its annotate page: /#/tasks/<code>).")
    async def task_code(self, info: Info) -> str:
        return str((await info.context.loaders.task.load(self.task_id))["code"])

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> CampaignPage:
        quiz = row["quiz"] or {}
        return cls(
            round_id=relay.GlobalID("Round", str(row["round"])),
            task_id=int(row["task"]),
            id=relay.GlobalID("Campaign", str(row["id"])),
            code=row["code"],
            title=row["title"],
            platform=CrowdPlatform(row["platform"]),
            consent_html=to_safe_html(row["consent_md"]),
            instructions_html=to_safe_html(row["instructions_md"]),
            quiz=[QuizQuestion(id=q["id"], prompt=q["prompt"], choices=q["choices"]) for q in quiz.get("questions", [])],
            quiz_pass_mark=quiz.get("pass_mark"),
        )


@strawberry.type
class FormField:
    name: str
    value: str


@strawberry.type(description="Where the worker takes their code: GET `url`, or POST `fields` to `url` (MTurk).")
class CompletionInfo:
    code: str
    screened_out: bool
    method: str | None
    url: str | None
    fields: list[FormField]

    @classmethod
    def of(cls, completion: Completion) -> CompletionInfo:
        target = completion.target
        return cls(
            code=completion.code,
            screened_out=completion.screened_out,
            method=target.method if target else None,
            url=target.url if target else None,
            fields=[FormField(name=n, value=v) for n, v in (target.fields if target else ())],
        )


@strawberry.type(description="A worker's place in a campaign: the stage, the quota left, the money.")
class CampaignWorkerState:
    campaign: CampaignPage
    stage: WorkerStage
    quiz_attempts_left: int
    examples_left: int | None = strawberry.field(description="null: no limit")
    validations_left: int | None
    examples_left_today: int | None
    validations_left_today: int | None
    quota_done: bool = strawberry.field(description="Nothing left to do: show the completion (Finish).")
    earned_cents: int
    pending_cents: int = strawberry.field(description="Earned, not yet paid out.")
    currency: str

    @classmethod
    def of(cls, state: WorkerState) -> CampaignWorkerState:
        left = state.remaining
        return cls(
            campaign=CampaignPage.from_row(state.campaign),
            stage=WorkerStage(state.stage.value),
            quiz_attempts_left=state.quiz_attempts_left,
            examples_left=left.examples,
            validations_left=left.validations,
            examples_left_today=left.examples_today,
            validations_left_today=left.validations_today,
            quota_done=left.done,
            earned_cents=state.earned_cents,
            pending_cents=state.pending_cents,
            currency=state.campaign["currency"],
        )
