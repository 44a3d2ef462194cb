"""The SQL form of task visibility (`tasks.can_view_task`), for query rooms whose single statements must apply the
rule themselves (createExample's one-statement load and its guarded insert): spelled once, beside the rule."""

from __future__ import annotations

from server.tasks.records import OPEN_STATUSES

__all__ = ["task_visible_sql"]

_OPEN = ", ".join(f"'{status}'" for status in sorted(OPEN_STATUSES))


def task_visible_sql(task: str = "t", user: str = ":user") -> str:
    """A boolean SQL expression: may the user (`user`: a placeholder or expression giving users.id) see the task
    aliased `task`? Open tasks (public, archived): everyone; proposed, rejected and hidden ones: their owners and
    admins, as `can_view_task`."""
    return (
        f"""({task}.status IN ({_OPEN})\n"""
        f"""  OR EXISTS (SELECT 1 FROM task_owners o WHERE o.task = {task}.id AND o."user" = {user})\n"""
        f"""  OR EXISTS (SELECT 1 FROM users a WHERE a.id = {user} AND a.is_admin))"""
    )
