"""Node types of notifications: one inbox entry, and the email preferences."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.core.i18n import localize
from server.graphql.core.relay import int_ids
from server.notifications import records, service
from server.notifications.messages import message


@strawberry.enum(description="What a notification is about.")
class NotificationKind(Enum):
    MODEL_DEPLOYED = records.NotificationKind.MODEL_DEPLOYED.value
    MODEL_SCORED = records.NotificationKind.MODEL_SCORED.value
    MODEL_FAILED = records.NotificationKind.MODEL_FAILED.value
    MODEL_TAKEN_DOWN = records.NotificationKind.MODEL_TAKEN_DOWN.value
    EXAMPLE_VALIDATED = records.NotificationKind.EXAMPLE_VALIDATED.value
    EXAMPLE_REJECTED = records.NotificationKind.EXAMPLE_REJECTED.value
    BADGE_EARNED = records.NotificationKind.BADGE_EARNED.value
    TASK_APPROVED = records.NotificationKind.TASK_APPROVED.value
    TASK_REJECTED = records.NotificationKind.TASK_REJECTED.value


@strawberry.type(name="Notification", description="An entry of the viewer's inbox.")
class NotificationNode(relay.Node):
    id: relay.NodeID[int]
    kind: NotificationKind
    title: str = strawberry.field(description="One line, in the reader's language (Accept-Language).")
    body: str = strawberry.field(description="Details: the model's status message, the example's start, the note.")
    link: str = strawberry.field(description="The PWA path to open, e.g. /models/12.")
    subject_id: relay.GlobalID | None = strawberry.field(description="The model or example it is about.")
    badge: str | None = strawberry.field(description="The badge earned (BADGE_EARNED).")
    created_at: datetime
    read_at: datetime | None

    @strawberry.field(description="Whether the viewer marked it read.")
    def read(self) -> bool:
        return self.read_at is not None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> NotificationNode:
        data = row["data"] or {}
        text = message(row["kind"], data)
        return cls(
            id=row["id"],
            kind=NotificationKind(row["kind"]),
            title=localize(text.title),
            body=localize(text.body),
            link=text.link,
            subject_id=_subject(data),
            badge=data.get("badge"),
            created_at=row["created_at"],
            read_at=row["read_at"],
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids, required: bool = False):
        viewer = await info.context.principal()
        ids = int_ids(node_ids)
        rows = await service.by_ids([i for i in ids if i is not None])
        visible = {r["id"]: cls.from_row(r) for r in rows if permissions.can_view_notification(viewer, r)}
        return [visible.get(i) for i in ids]


def _subject(data: Mapping[str, Any]) -> relay.GlobalID | None:
    for key, type_name in (("model_id", "Model"), ("example_id", "Example")):
        if data.get(key):
            return relay.GlobalID(type_name, str(data[key]))
    return None


@strawberry.type(description="Which notifications the viewer also receives by email.")
class NotificationPreferences:
    email_kinds: list[NotificationKind] = strawberry.field(description="Sent by email too, to your verified address only.")
    email_available: bool = strawberry.field(description="Whether this server sends email at all (SMTP configured).")
