"""Python client for the Dynabench GraphQL API (sdk/README.md): `Client` for plain code, `AsyncClient` for asyncio.

`dynabench_client.generated` is the typed client generated from the schema and sdk/queries (every operation, pydantic
models); the clients here add uploads, live waiting, paging, retries and exceptions on top."""

from .client_async import AsyncClient
from .client_sync import Client
from .errors import (
    ApiError,
    ArchiveRejectedError,
    AuthenticationError,
    ConflictError,
    DuplicateExampleError,
    DynabenchError,
    GraphQLError,
    InputError,
    ModelFailedError,
    ModelUnavailableError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    RoundClosedError,
    ServiceUnavailableError,
    TransportError,
)
from .results import BattleRatings, DatasetScore, Leaderboard, LeaderboardEntry, ModelResults, RoundExport
from .transport import RetryPolicy
from .writing import ExampleOutcome, ReplyPiece

__all__ = [
    "ApiError",
    "ArchiveRejectedError",
    "AsyncClient",
    "AuthenticationError",
    "BattleRatings",
    "Client",
    "ConflictError",
    "DatasetScore",
    "DuplicateExampleError",
    "DynabenchError",
    "ExampleOutcome",
    "GraphQLError",
    "InputError",
    "Leaderboard",
    "LeaderboardEntry",
    "ModelFailedError",
    "ModelResults",
    "ModelUnavailableError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitedError",
    "ReplyPiece",
    "RetryPolicy",
    "RoundClosedError",
    "RoundExport",
    "ServiceUnavailableError",
    "TransportError",
]
