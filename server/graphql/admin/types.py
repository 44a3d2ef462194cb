"""GraphQL types of the admin pages: accounts as admins see them, submissions, and the audit log."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry import relay

from server.admin import records


@strawberry.enum(name="UserRole", description="USER or ADMIN (admins have every owner right on every task).")
class UserRole(Enum):
    USER = records.UserRole.USER.value
    ADMIN = records.UserRole.ADMIN.value


@strawberry.enum(name="AuditAction", description="What an admin did.")
class AuditAction(Enum):
    ROLE_CHANGED = records.AuditAction.ROLE_CHANGED.value
    USER_DISABLED = records.AuditAction.USER_DISABLED.value
    USER_ENABLED = records.AuditAction.USER_ENABLED.value
    SESSIONS_RESET = records.AuditAction.SESSIONS_RESET.value
    PASSWORD_RESET_ISSUED = records.AuditAction.PASSWORD_RESET_ISSUED.value
    TASK_APPROVED = records.AuditAction.TASK_APPROVED.value
    TASK_REJECTED = records.AuditAction.TASK_REJECTED.value
    TASK_VISIBILITY = records.AuditAction.TASK_VISIBILITY.value
    MODEL_TAKEN_DOWN = records.AuditAction.MODEL_TAKEN_DOWN.value
    TARGET_SHARED = records.AuditAction.TARGET_SHARED.value
    TARGET_UNSHARED = records.AuditAction.TARGET_UNSHARED.value
    LLM_ENDPOINT_REGISTERED = records.AuditAction.LLM_ENDPOINT_REGISTERED.value
    LLM_ENDPOINT_UPDATED = records.AuditAction.LLM_ENDPOINT_UPDATED.value
    LLM_ENDPOINT_REMOVED = records.AuditAction.LLM_ENDPOINT_REMOVED.value
    TRAINING_GATE_OVERRIDDEN = records.AuditAction.TRAINING_GATE_OVERRIDDEN.value
    ACCOUNT_DELETED = records.AuditAction.ACCOUNT_DELETED.value


@strawberry.type(name="AdminUser", description="An account as admins see it (the id is the User's global id).")
class AdminUserType:
    id: relay.GlobalID
    username: str
    email: str | None
    email_verified: bool
    role: UserRole
    disabled: bool
    disabled_reason: str | None
    disabled_at: datetime | None
    created_at: datetime
    last_seen_at: datetime | None = strawberry.field(
        description="The last use of one of its API tokens (sessions leave no trace); null when none was used."
    )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AdminUserType:
        disabled = row.get("disabled_at") is not None
        return cls(
            id=relay.GlobalID("User", str(row["id"])),
            username=row["username"],
            email=row["email"],
            email_verified=row["email_verified_at"] is not None,
            role=UserRole.ADMIN if row["is_admin"] else UserRole.USER,
            disabled=disabled,
            disabled_reason=row["disabled_reason"] if disabled else None,
            disabled_at=row.get("disabled_at"),
            created_at=row["created_at"],
            last_seen_at=row.get("last_seen_at"),
        )


@strawberry.type(name="AdminModel", description="A submission as admins see it (the id is the Model's global id).")
class AdminModelType:
    id: relay.GlobalID
    name: str
    task_code: str
    owner: str = strawberry.field(description="The owner's username (admins see it even for an anonymous model).")
    status: str
    published: bool
    taken_down: bool
    taken_down_reason: str | None
    taken_down_at: datetime | None
    created_at: datetime

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AdminModelType:
        down = row["taken_down_at"] is not None
        return cls(
            id=relay.GlobalID("Model", str(row["id"])),
            name=row["name"],
            task_code=row["task_code"],
            owner=row["owner_username"],
            status=row["status"],
            published=row["published"],
            taken_down=down,
            taken_down_reason=row["taken_down_reason"] if down else None,
            taken_down_at=row["taken_down_at"],
            created_at=row["created_at"],
        )


@strawberry.type(name="AuditEntry", description="One admin action, as the audit log recorded it.")
class AuditEntryType:
    id: relay.GlobalID
    actor: str = strawberry.field(description="The admin's username when they acted.")
    action: AuditAction
    target_type: str = strawberry.field(description="user, task, model, target_model, llm_endpoint or training_run")
    target_id: relay.GlobalID | None = strawberry.field(
        description="The global id of the User, Task, Model or TrainingRun acted on; null for a target model (named by "
        "targetLabel)."
    )
    target_label: str = strawberry.field(description="Its username, code or name when the action happened.")
    reason: str = strawberry.field(description="The reason or note given (for a role change: the new role).")
    created_at: datetime

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AuditEntryType:
        type_name = {"user": "User", "task": "Task", "model": "Model", "training_run": "TrainingRun"}.get(row["target_type"])
        return cls(
            id=relay.GlobalID("AuditEntry", str(row["id"])),
            actor=row["actor_username"],
            action=AuditAction(row["action"]),
            target_type=row["target_type"],
            target_id=relay.GlobalID(type_name, str(row["target_id"])) if type_name else None,
            target_label=row["target_label"],
            reason=row["reason"],
            created_at=row["created_at"],
        )
