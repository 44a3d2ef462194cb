"""Target models an admin shares with every task owner (docs/design.md §3, "Choosing target models").

A built-in target model belongs to its own task's rounds (server/permissions/target_models.py). An admin may share
one: then every task owner can open a round with it (retraining it stays with admins and its own task's owners). Each
change is one transaction with its admin-audit row."""

from __future__ import annotations

from server.accounts.viewer import Viewer
from server.admin import audit
from server.admin.records import AuditAction, AuditTarget
from server.core import db
from server.core.errors import FieldProblem, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks import queries
from server.tasks.served_models import served_target_models

MAX_NAME = 200


async def shared_target_names() -> frozenset[str]:
    return frozenset(await queries.shared_target_names())


async def set_shared(services: Services, actor: Viewer, name: str, shared: bool) -> bool:
    """Share (or stop sharing) the target Triton's model `name`; returns the new state. Sharing needs the model to be
    served now (the admin picks it from servedTargetModels); unsharing never does. Idempotent."""
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME or text_problem(name):
        raise invalid(tr("Bad model name."), FieldProblem("name", tr("1–{n} characters of text", n=MAX_NAME)))
    if shared and name not in {model.name for model in await served_target_models(services, None)}:
        raise not_found(tr("A target model named {name!r} that the target Triton serves", name=name))
    async with db.transaction():
        if await queries.set_target_shared(name, shared, actor.user_id):
            action = AuditAction.TARGET_SHARED if shared else AuditAction.TARGET_UNSHARED
            await audit.record(actor.user_id, action, AuditTarget.TARGET_MODEL, 0, name)
    return shared
