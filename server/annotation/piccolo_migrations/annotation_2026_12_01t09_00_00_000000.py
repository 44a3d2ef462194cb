"""Crowd quality (issue #17): refused near-duplicates, gold items and validators' gold answers (written as SQL; read
and written only through server/annotation/quality/queries.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-01T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "duplicate_refusals, gold_items, gold_answers"

CREATE = [
    # One row per refused submission (its client UUID: a retried refusal counts once), for the owners' view.
    """
CREATE TABLE IF NOT EXISTS duplicate_refusals (
  client_id UUID PRIMARY KEY,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  repeats INTEGER NOT NULL,
  kind VARCHAR(16) NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    "CREATE INDEX IF NOT EXISTS duplicate_refusals_task ON duplicate_refusals (task)",
    # An example with its right answer (a validation label); hidden: uploaded by the owner, never a real submission.
    """
CREATE TABLE IF NOT EXISTS gold_items (
  example INTEGER PRIMARY KEY REFERENCES examples (id) ON DELETE CASCADE,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  answer VARCHAR(16) NOT NULL CHECK (answer IN ('correct', 'incorrect', 'flagged')),
  hidden BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    "CREATE INDEX IF NOT EXISTS gold_items_task ON gold_items (task)",
    # A validator's graded answer on a gold item (never a vote).
    """
CREATE TABLE IF NOT EXISTS gold_answers (
  example INTEGER NOT NULL REFERENCES examples (id) ON DELETE CASCADE,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  label VARCHAR(16) NOT NULL,
  gold_label VARCHAR(16) NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (example, "user")
)""",
    'CREATE INDEX IF NOT EXISTS gold_answers_task_user ON gold_answers (task, "user")',
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP TABLE IF EXISTS gold_answers, gold_items, duplicate_refusals")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
