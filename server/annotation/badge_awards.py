"""Badges earned: after an aggregation recounted some users' numbers, the badges (server/annotation/badges.py) each
holds on the task now are announced, each one once (BadgeEarned's once key). Run by the idempotent `check_badges` job
that the aggregation's listener queues (server/annotation/listeners.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from server.annotation import badges as badge_rules
from server.annotation.domain_events import BadgeEarned
from server.annotation.validation import stats
from server.core import db
from server.core.errors import ServiceError
from server.core.services import Services
from server.domain_events import dispatcher as domain_events
from server.tasks.service import get_task

# A streak that new activity completes ends in the last STREAK_WINDOW days: only those are read.
STREAK_WINDOW = timedelta(days=max(badge_rules.STREAK_THRESHOLDS) + 1)


async def check_badges(services: Services, task_id: int, user_ids: Iterable[int]) -> int:
    """Returns how many badges were new."""
    try:
        task = await get_task(task_id)
    except ServiceError:  # the task is gone
        return 0
    earned: list[BadgeEarned | None] = []
    async with db.transaction():
        for user_id in sorted(set(user_ids)):
            found = await stats.user_stats(task["id"], None, user_id)
            if found is None:
                continue
            days = await stats.recent_active_days(task["id"], user_id, datetime.now(UTC) - STREAK_WINDOW)
            for badge in badge_rules.badges(task["name"], found.submitted, found.validations_done, days):
                event = BadgeEarned(
                    user_id=user_id,
                    task_id=task["id"],
                    task_code=task["code"],
                    task_name=task["name"],
                    badge=str(badge.name),
                    description=str(badge.description),
                    rule=badge.rule,
                    count=badge.count,
                )
                earned.append(await domain_events.record(event))
    await domain_events.announce(services, *earned)
    return sum(1 for event in earned if event)
