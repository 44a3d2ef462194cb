"""uploadModel: a researcher uploads a Triton model repository; accepted archives are queued for deployment."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.file_uploads import Upload
from strawberry.types import Info

from server import permissions
from server.core.rate_limits import Action
from server.evaluation.models import service as models_service
from server.graphql.core.errors import (
    ArchiveRejectedError,
    AuthenticationError,
    InputError,
    NotFoundError,
    PermissionError,
    RateLimitedError,
    ServiceUnavailableError,
    mutation,
)
from server.graphql.core.guard import authorize, throttle
from server.graphql.evaluation.types import ModelNode


@strawberry.input
class ModelCardInput:
    description: str | None = None
    parameters: str | None = None
    languages: str | None = None
    license: str | None = None
    source_url: str | None = None
    paper: str | None = None


@strawberry.type
class ModelUploaded:
    model: ModelNode


UploadModelResult = Annotated[
    ModelUploaded
    | ArchiveRejectedError
    | InputError
    | RateLimitedError
    | NotFoundError
    | AuthenticationError
    | PermissionError
    | ServiceUnavailableError,
    strawberry.union("UploadModelResult"),
]


@mutation(description="Upload a Triton model repository (tar.gz or zip) as a multipart GraphQL request.")
async def upload_model(
    info: Info,
    task_code: str,
    name: str,
    archive: Upload,
    card: ModelCardInput | None = None,
    anonymous: bool = False,
) -> UploadModelResult:
    viewer = await authorize(info, permissions.submit_models)
    await throttle(info, Action.UPLOAD_MODEL, viewer.user_id)  # attempts: refused archives and failed deploys count
    card_values = {k: getattr(card, k) for k in models_service.CARD_FIELDS} if card else {}
    stream = getattr(archive, "file", archive)
    row = await models_service.upload_model(info.context.services, viewer, task_code, name, card_values, anonymous, stream)
    return ModelUploaded(model=ModelNode.from_row(row))
