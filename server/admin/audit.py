"""Writing and reading the admins' audit log. `record` runs inside the action's own transaction: the row exists
exactly when the action happened (docs/design.md §14)."""

from __future__ import annotations

from server.admin import queries
from server.admin.records import AuditAction, AuditRow, AuditTarget
from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr
from server.core.storable import text_problem

REASON_MAX = 500


def check_reason(reason: str, field_name: str = "reason", required: bool = False) -> str:
    """The reason (or note) an admin gives, stripped: at most REASON_MAX characters of storable text."""
    reason = reason.strip()
    if required and not reason:
        raise invalid(tr("Give a reason."), FieldProblem(field_name, tr("is required")))
    if len(reason) > REASON_MAX:
        raise invalid(tr("The reason is too long."), FieldProblem(field_name, tr("at most {max} characters", max=REASON_MAX)))
    if problem := text_problem(reason):
        raise invalid(tr("The reason cannot be stored."), FieldProblem(field_name, problem))
    return reason


async def record(
    actor: int, action: AuditAction, target_type: AuditTarget, target_id: int, label: str = "", reason: str = ""
) -> int:
    """One audit row; call it inside the action's transaction."""
    return await queries.insert_audit(actor, action, target_type, target_id, label, reason)


async def page(after: int | None, limit: int, action: AuditAction | None, actor: str | None) -> list[AuditRow]:
    """Newest first."""
    return await queries.audit_page(after, limit, action.value if action else None, actor.strip() if actor else None)
