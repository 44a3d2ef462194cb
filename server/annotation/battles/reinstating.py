"""Reinstating a battle voter the check rule paused (docs/design.md §4.1d): a task's owner gives them a fresh start in
the task; from then on only their check answers after the (latest) reinstatement count toward the rule, so they may
start battles again and their votes count again. Reinstating a voter who is not paused changes nothing."""

from __future__ import annotations

from server import permissions
from server.accounts.viewer import Viewer
from server.annotation.battles import leaderboard, queries
from server.core.errors import ServiceError, not_found
from server.core.i18n import tr
from server.core.storable import text_problem
from server.tasks.config import TaskConfig

USERNAME_MAX = 64  # users.username


async def reinstate_voter(viewer: Viewer | None, task_id: int, config: TaskConfig, username: str) -> leaderboard.VoterQuality:
    denied = permissions.reinstate_validator(viewer, task_id)  # the task's owners, as for validators
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    assert viewer is not None
    battle_rules = config.generative.battle if config.generative is not None else None
    found = None
    if len(username) <= USERNAME_MAX and text_problem(username) is None:  # else no account can have that name
        found = await _voter(task_id, battle_rules, username)
    if found is None:
        raise not_found(tr("A battle voter of that name in this task"))
    if not found.paused:
        return found
    await queries.REINSTATE_VOTER.execute(task=task_id, user=found.positions.voter, by=viewer.user_id)
    reinstated = await _voter(task_id, battle_rules, username)
    assert reinstated is not None
    return reinstated


async def _voter(task_id: int, battle_rules, username: str) -> leaderboard.VoterQuality | None:
    return next((q for q in await leaderboard.voter_quality(task_id, battle_rules) if q.username == username), None)
