"""The tasks domain's tables: tasks, their owners, rounds and the contexts annotators write against (the config
versions table, task_config_versions, is read and written only through queries.py)."""

from piccolo.columns import JSONB, Boolean, ForeignKey, Integer, Text, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.constraints import Unique
from piccolo.table import Table

from server.accounts.tables import User
from server.tasks.records import TaskStatus


class Task(Table, tablename="tasks"):
    code = Varchar(length=48, unique=True, index=True)
    name = Varchar(length=200)
    description = Text(default="")
    config = JSONB()
    active = Boolean(default=True)
    current_round = Integer(default=0)
    created_at = Timestamptz(default=TimestamptzNow())
    # The task's life (server/tasks/records.TaskStatus): a proposal until an admin approves it, then public,
    # hidden or archived; the reviewer's note is shown to its owners.
    status = Varchar(length=16, default="PUBLIC", choices=TaskStatus)
    review_note = Text(default="")
    instructions = Text(default="")  # markdown, rendered safely (server/core/markdown.py)
    # The version of `config` in task_config_versions (every config the task has had is kept there).
    config_version = Integer(default=1)


class TaskOwner(Table, tablename="task_owners"):
    task = ForeignKey(Task, index=True)
    user = ForeignKey(User, index=True)
    task_owners_unique_task_user = Unique(["task", "user"])


class Round(Table, tablename="rounds"):
    task = ForeignKey(Task, index=True)
    number = Integer()
    # [{"name": "sentiment_minilm", "version": "1"}] — several targets are allowed.
    target_models = JSONB(default="[]")
    start_at = Timestamptz(default=TimestamptzNow())
    end_at = Timestamptz(null=True, default=None)
    # Its counters are rows of round_counts (a table of the migration tasks_2026_12_24; server/annotation/round_counts.py),
    # not columns: no write waits on this row.
    # The task config version this round runs with (task_config_versions); never changes once the round is open.
    config_version = Integer(default=1)
    rounds_unique_task_number = Unique(["task", "number"])


class Context(Table, tablename="contexts"):
    round = ForeignKey(Round, index=True)
    fields = JSONB()
    tag = Varchar(length=100, null=True, default=None)
    total_used = Integer(default=0)
    total_fooled = Integer(default=0)
    last_used_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())
