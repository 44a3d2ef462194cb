"""What other domains read of tasks and rounds: the tasks domain's published reads (its query room stays its own).
Rows are as the query room returns them (a task's config and a round's targets as JSON text)."""

from server.tasks.queries import round_by_id, round_by_number, round_numbers, task_by_code, task_by_id, tasks_removing_work

__all__ = ["round_by_id", "round_by_number", "round_numbers", "task_by_code", "task_by_id", "tasks_removing_work"]
