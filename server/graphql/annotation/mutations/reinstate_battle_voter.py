"""reinstateBattleVoter: a task owner gives a battle voter the check rule paused a fresh start in the task
(battles/reinstating.py): only later check answers count toward the rule, and their votes count again."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.types import Info

from server.annotation.battles import reinstating
from server.graphql.annotation.quality import BattleVoterQuality
from server.graphql.core.errors import AuthenticationError, InputError, NotFoundError, PermissionError, mutation
from server.graphql.tasks.visibility import owned_task
from server.tasks.service import load_config


@strawberry.type
class BattleVoterReinstated:
    voter: BattleVoterQuality


ReinstateBattleVoterResult = Annotated[
    BattleVoterReinstated | NotFoundError | PermissionError | AuthenticationError | InputError,
    strawberry.union("ReinstateBattleVoterResult"),
]


@mutation(
    description="Task owners: reinstate a battle voter the check rule paused in the task; only check answers given "
    "from now on count toward the rule, and their votes count again (harmless when not paused)."
)
async def reinstate_battle_voter(info: Info, task_code: str, username: str) -> ReinstateBattleVoterResult:
    task = await owned_task(info, task_code)
    viewer = await info.context.viewer()
    found = await reinstating.reinstate_voter(viewer, task["id"], load_config(task), username)
    return BattleVoterReinstated(voter=BattleVoterQuality.of(found))
