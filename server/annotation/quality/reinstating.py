"""Reinstating a paused validator (docs/design.md §4.2): a task's owner gives a validator whom the gold rule paused a
fresh start in that task. From then on only the gold answers given after the (latest) reinstatement count toward the
pause rule, so they get queue items and may vote again; their votes on examples still undecided count again, and
those examples are re-aggregated (the same job pausing triggers, quality/gold.py). Reinstating a validator who is not
paused changes nothing (so reinstating twice is harmless)."""

from __future__ import annotations

from server import permissions
from server.accounts.viewer import Viewer
from server.annotation.quality import queries, view
from server.annotation.validation import jobs as validation_jobs
from server.core import jobs
from server.core.errors import ServiceError, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks.config import TaskConfig

USERNAME_MAX = 64  # users.username


async def reinstate_validator(
    services: Services, viewer: Viewer | None, task_id: int, config: TaskConfig, username: str
) -> view.ValidatorQuality:
    denied = permissions.reinstate_validator(viewer, task_id)
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    assert viewer is not None
    found = None
    if len(username) <= USERNAME_MAX and text_problem(username) is None:  # else no account can have that name
        found = await view.validator_quality(task_id, config, username)
    if found is None:
        raise not_found(tr("A validator of that name in this task"))
    if not found.paused:
        return found
    await queries.reinstate(task_id, found.user_id, viewer.user_id)
    for example_id in await queries.open_voted_examples(task_id, found.user_id):
        await jobs.enqueue(services.arq, validation_jobs.aggregate_example, example_id)
    reinstated = await view.validator_quality(task_id, config, username)
    assert reinstated is not None
    return reinstated
