"""The public GraphQL schema: queries, mutations, subscriptions and their guard rails."""

from __future__ import annotations

from functools import lru_cache

import strawberry
from strawberry import relay
from strawberry.extensions import (
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    ValidationCache,
)

from server.core.settings import Settings
from server.graphql.accounts.schema import AccountMutations, AccountQueries
from server.graphql.admin.schema import AdminMutations, AdminQueries
from server.graphql.annotation.adversary import AdversaryRunMutations, AdversaryRunQueries
from server.graphql.annotation.battles import BattleMutations, BattleQueries
from server.graphql.annotation.browse import BrowseMutations, BrowseQueries
from server.graphql.annotation.conversations import ConversationMutations, ConversationQueries, ConversationSubscriptions
from server.graphql.annotation.explain import ExplainQueries
from server.graphql.annotation.schema import (
    AnnotationMutations,
    AnnotationQueries,
    ValidationMutations,
    ValidationQueries,
    ValidationSubscriptions,
)
from server.graphql.campaigns.schema import CampaignMutations, CampaignQueries
from server.graphql.core.errors import (
    ArchiveRejectedError,
    AuthenticationError,
    ConflictError,
    Error,
    InputError,
    ModelUnavailableError,
    NotFoundError,
    PermissionError,
    RateLimitedError,
    RoundClosedError,
    should_mask_error,
)
from server.graphql.core.guard import ReadScope
from server.graphql.core.locale import ReaderLocale
from server.graphql.core.operation_rules import OperationRules
from server.graphql.core.shared_events import SharingExecutionContext
from server.graphql.evaluation.schema import EvaluationMutations, EvaluationQueries, EvaluationSubscriptions
from server.graphql.generation.endpoint_schema import LlmEndpointMutations, LlmEndpointQueries
from server.graphql.notifications.schema import NotificationMutations, NotificationQueries, NotificationSubscriptions
from server.graphql.tasks.schema import TaskMutations, TaskQueries, TaskSubscriptions
from server.graphql.tasks.served_models import ServedModelQueries
from server.graphql.training.schema import TrainingMutations, TrainingQueries, TrainingSubscriptions
from server.graphql.webhooks.schema import WebhookMutations, WebhookQueries


@strawberry.type
class Query(
    AccountQueries,
    TaskQueries,
    ServedModelQueries,
    AnnotationQueries,
    ConversationQueries,
    BattleQueries,
    AdversaryRunQueries,
    ValidationQueries,
    BrowseQueries,
    ExplainQueries,
    EvaluationQueries,
    TrainingQueries,
    CampaignQueries,
    NotificationQueries,
    WebhookQueries,
    AdminQueries,
    LlmEndpointQueries,
):
    node: relay.Node | None = relay.node(description="Fetch any object by its global id.", extensions=[ReadScope()])


@strawberry.type
class Mutation(
    AccountMutations,
    TaskMutations,
    AnnotationMutations,
    ConversationMutations,
    BattleMutations,
    AdversaryRunMutations,
    ValidationMutations,
    BrowseMutations,
    EvaluationMutations,
    TrainingMutations,
    CampaignMutations,
    NotificationMutations,
    WebhookMutations,
    AdminMutations,
    LlmEndpointMutations,
):
    pass


@strawberry.type
class Subscription(
    TaskSubscriptions,
    ValidationSubscriptions,
    ConversationSubscriptions,
    EvaluationSubscriptions,
    TrainingSubscriptions,
    NotificationSubscriptions,
):
    pass


def build_schema(settings: Settings | None = None) -> strawberry.Schema:
    return _build_schema(settings or Settings())


@lru_cache(maxsize=4)
def _build_schema(settings: Settings) -> strawberry.Schema:
    # Cached: Strawberry's relay `node` field can be bound to one schema per process.
    return strawberry.Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        types=[
            Error,
            InputError,
            AuthenticationError,
            PermissionError,
            NotFoundError,
            ConflictError,
            ModelUnavailableError,
            RoundClosedError,
            ArchiveRejectedError,
            RateLimitedError,
        ],
        extensions=[
            ReaderLocale,
            QueryDepthLimiter(max_depth=settings.query_depth_max),
            MaxTokensLimiter(max_token_count=settings.query_tokens_max),
            MaxAliasesLimiter(max_alias_count=settings.query_aliases_max),
            ParserCache(maxsize=512),
            ValidationCache(maxsize=512),
            OperationRules,  # after the validation cache: no mutations over WebSocket, no unstorable text in queries
            MaskErrors(should_mask_error=should_mask_error),
        ],
        execution_context_class=SharingExecutionContext,
    )


def export_sdl() -> str:
    return build_schema().as_str() + "\n"
