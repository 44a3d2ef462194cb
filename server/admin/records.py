"""Rows of the admin domain as typed records, and the actions its audit log names."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TypedDict


class AuditAction(StrEnum):
    """What an admin (or, for ACCOUNT_DELETED, the account's owner) did (admin_audit.action)."""

    ROLE_CHANGED = "role_changed"
    USER_DISABLED = "user_disabled"
    USER_ENABLED = "user_enabled"
    SESSIONS_RESET = "sessions_reset"
    PASSWORD_RESET_ISSUED = "password_reset_issued"
    TASK_APPROVED = "task_approved"
    TASK_REJECTED = "task_rejected"
    TASK_VISIBILITY = "task_visibility"
    MODEL_TAKEN_DOWN = "model_taken_down"
    TARGET_SHARED = "target_shared"
    TARGET_UNSHARED = "target_unshared"
    LLM_ENDPOINT_REGISTERED = "llm_endpoint_registered"
    LLM_ENDPOINT_UPDATED = "llm_endpoint_updated"
    LLM_ENDPOINT_REMOVED = "llm_endpoint_removed"
    TRAINING_GATE_OVERRIDDEN = "training_gate_overridden"  # a task owner or admin; the label is the version
    ACCOUNT_DELETED = "account_deleted"  # by the person themselves (deleteMyAccount); the label is the pseudonym


class AuditTarget(StrEnum):
    USER = "user"
    TASK = "task"
    MODEL = "model"
    TARGET_MODEL = "target_model"  # by name (target_label); target_id 0
    LLM_ENDPOINT = "llm_endpoint"  # target_id: llm_endpoints.id; target_label: its name
    TRAINING_RUN = "training_run"  # target_id: training_runs.id; target_label: the version it built


class UserRole(StrEnum):
    USER = "USER"
    ADMIN = "ADMIN"


class AuditRow(TypedDict):
    id: int
    actor: int | None
    actor_username: str
    action: str
    target_type: str
    target_id: int
    target_label: str
    reason: str
    created_at: datetime


class AdminUserRow(TypedDict):
    id: int
    username: str
    email: str | None
    email_verified_at: datetime | None
    is_admin: bool
    disabled_at: datetime | None
    disabled_reason: str
    created_at: datetime
    last_seen_at: datetime | None  # the last use of one of its API tokens (sessions leave no trace)


class AdminModelRow(TypedDict):
    id: int
    name: str
    task_code: str
    owner_username: str
    status: str
    published: bool
    taken_down_at: datetime | None
    taken_down_reason: str
    created_at: datetime
