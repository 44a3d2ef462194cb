"""reinstateValidator: a task owner gives a validator the gold rule paused a fresh start in the task
(quality/reinstating.py): only later gold answers count toward the rule, and their undecided votes count again."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.annotation.quality import reinstating
from server.graphql.annotation.quality import ValidatorQuality
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.tasks.visibility import owned_task
from server.tasks.service import load_config


@strawberry.type
class ValidatorReinstated:
    validator: ValidatorQuality


ReinstateValidatorResult = Annotated[
    ValidatorReinstated | NotFoundError | PermissionError | AuthenticationError | InputError,
    strawberry.union("ReinstateValidatorResult"),
]


@mutation(
    description="Task owners: reinstate a validator the gold rule paused in the task; only gold answers given from "
    "now on count toward the rule, and their votes on undecided examples count again (harmless when not paused)."
)
async def reinstate_validator(info: Info, task_code: str, username: str) -> ReinstateValidatorResult:
    task = await owned_task(info, task_code)
    viewer = await info.context.viewer()
    found = await reinstating.reinstate_validator(info.context.services, viewer, task["id"], load_config(task), username)
    return ValidatorReinstated(validator=ValidatorQuality.of(found))
