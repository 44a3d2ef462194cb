"""uploadGold: a task owner uploads JSONL rows that become hidden gold examples of a round (quality/gold_upload.py)."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import relay
from strawberry.file_uploads import Upload
from strawberry.types import Info

from server import permissions
from server.annotation.quality import gold_upload
from server.annotation.validation import lookup
from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr
from server.graphql.annotation.types import ExampleNode
from server.graphql.core.errors import (
    AuthenticationError,
    InputError,
    NotFoundError,
    PermissionError,
    mutation,
)
from server.graphql.core.guard import authorize
from server.graphql.core.relay import node_pk
from server.graphql.tasks.visibility import visible_round
from server.tasks.service import get_task, load_config

MAX_BYTES = 5_000_000


@strawberry.type
class GoldUploaded:
    count: int
    examples: list[ExampleNode] = strawberry.field(description="The hidden gold examples, in file order.")


UploadGoldResult = Annotated[
    GoldUploaded | InputError | NotFoundError | PermissionError | AuthenticationError, strawberry.union("UploadGoldResult")
]


@mutation(
    description="Task owners: upload gold rows (JSONL: fields, label or answer, gold = CORRECT/INCORRECT/FLAGGED, "
    "optional contextId) as hidden gold examples of a round; all rows or none."
)
async def upload_gold(info: Info, round_id: relay.GlobalID, file: Upload) -> UploadGoldResult:
    viewer = await authorize(info, permissions.validate, True)  # an owner operation: tokens need the admin scope
    round_row = await visible_round(info, node_pk(round_id, "Round", "roundId"))
    stream = getattr(file, "file", file)
    if not callable(getattr(stream, "read", None)):  # over JSON (or an empty form part) it is no file
        raise invalid(tr("Send the gold rows as a file (a multipart upload)."), FieldProblem("file", tr("not a file")))
    data = stream.read(MAX_BYTES + 1)
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_BYTES:
        raise invalid(tr("The file is larger than 5 MB."), FieldProblem("file", tr("at most 5 MB")))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise invalid(tr("The file is not UTF-8 text (JSONL)."), FieldProblem("file", tr("not UTF-8 text"))) from None
    config = load_config(await get_task(round_row["task"]))
    ids = await gold_upload.upload_gold(info.context.services, viewer, dict(round_row), config, text)
    examples = await lookup.examples_in_order(ids)
    return GoldUploaded(count=len(ids), examples=[ExampleNode.from_row(row) for row in examples])
