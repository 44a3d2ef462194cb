"""submitQuiz: one attempt at the campaign's onboarding quiz; a final failure ends the campaign for the worker."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.campaigns import joining
from server.campaigns.records import WorkerStage
from server.graphql.campaigns.types import CampaignWorkerState, CompletionInfo
from server.graphql.core.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.input
class QuizAnswer:
    question_id: str
    answer: str


@strawberry.type
class QuizGraded:
    passed: bool
    score: int
    total: int
    attempts_left: int
    state: CampaignWorkerState
    completion: CompletionInfo | None = strawberry.field(description="After a final failure: the screened-out code.")


SubmitQuizResult = Annotated[
    QuizGraded | InputError | NotFoundError | ConflictError | AuthenticationError | PermissionError,
    strawberry.union("SubmitQuizResult"),
]


@mutation(description="Campaign workers: answer the onboarding quiz (the score is shown, never the right answers).")
async def submit_quiz(info: Info, campaign_id: relay.GlobalID, answers: list[QuizAnswer]) -> SubmitQuizResult:
    principal = await authorize_principal(info, permissions.work_in_campaign)
    pk = node_pk(campaign_id, "Campaign", "campaignId")
    result, state = await joining.submit_quiz(principal.user_id, pk, {a.question_id: a.answer for a in answers})
    completion = None
    if state.stage is WorkerStage.SCREENED_OUT:
        completion = CompletionInfo.of(joining.completion(state.campaign, state.worker, screened_out=True))
    return QuizGraded(
        passed=result.passed,
        score=result.score,
        total=result.total,
        attempts_left=result.attempts_left,
        state=CampaignWorkerState.of(state),
        completion=completion,
    )
