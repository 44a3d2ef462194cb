"""The admin pages in GraphQL: accounts, task approvals, submissions and the audit log (admins only)."""

from __future__ import annotations

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.admin import audit, records
from server.admin import service as admin
from server.graphql.admin.mutations.reset_user_sessions import reset_user_sessions
from server.graphql.admin.mutations.set_user_disabled import set_user_disabled
from server.graphql.admin.mutations.set_user_role import set_user_role
from server.graphql.admin.mutations.share_target_model import share_target_model
from server.graphql.admin.mutations.take_down_model import take_down_model
from server.graphql.admin.types import AdminModelType, AdminUserType, AuditAction, AuditEntryType, UserRole
from server.graphql.core.guard import authorize
from server.graphql.core.relay import build_connection, check_page_size, decode_cursor
from server.graphql.tasks.types import TaskNode
from server.tasks.service import get_task_by_code


@strawberry.type
class AdminMutations:
    set_user_role = set_user_role
    set_user_disabled = set_user_disabled
    reset_user_sessions = reset_user_sessions
    take_down_model = take_down_model
    share_target_model = share_target_model


@strawberry.type
class AdminQueries:
    @strawberry.field(
        description="Admins: accounts, newest first; `search` matches a username or email (any case), `role` and "
        "`disabled` filter."
    )
    async def admin_users(
        self,
        info: Info,
        search: str | None = None,
        role: UserRole | None = None,
        disabled: bool | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> relay.Connection[AdminUserType]:
        await authorize(info, permissions.administer)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        wanted = records.UserRole(role.value) if role is not None else None
        rows = await admin.users_page(after_id, first + 1, search, wanted, disabled)
        return build_connection([dict(row) for row in rows], first, after_id, AdminUserType.from_row)

    @strawberry.field(description="Admins: the proposed tasks waiting for approveTask or rejectTask, oldest first.")
    async def pending_tasks(self, info: Info) -> list[TaskNode]:
        await authorize(info, permissions.administer)
        return [TaskNode.from_row(row) for row in await admin.pending_tasks()]

    @strawberry.field(description="Admins: submissions (of one task, or all), newest first, with owner and status.")
    async def admin_models(
        self, info: Info, task_code: str | None = None, first: int = 20, after: str | None = None
    ) -> relay.Connection[AdminModelType]:
        await authorize(info, permissions.administer)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        task_id = (await get_task_by_code(task_code))["id"] if task_code else None
        rows = await admin.models_page(after_id, first + 1, task_id)
        return build_connection([dict(row) for row in rows], first, after_id, AdminModelType.from_row)

    @strawberry.field(description="Admins: every admin action, newest first; filter by action or by the admin's username.")
    async def audit_log(
        self,
        info: Info,
        action: AuditAction | None = None,
        actor: str | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> relay.Connection[AuditEntryType]:
        await authorize(info, permissions.administer)
        first = check_page_size(first, info.context.services.settings.page_size_max)
        after_id = decode_cursor(after)
        wanted = records.AuditAction(action.value) if action is not None else None
        rows = await audit.page(after_id, first + 1, wanted, actor)
        return build_connection([dict(row) for row in rows], first, after_id, AuditEntryType.from_row)
