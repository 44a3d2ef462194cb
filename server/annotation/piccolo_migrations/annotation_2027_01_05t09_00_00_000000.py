"""Suggestions for the adversary (issue #31 point 4): the suggestions issued to authors, and each example's assistance."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2027-01-05T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "suggestions, examples.assisted_by"

CREATE = [
    "ALTER TABLE examples ADD COLUMN IF NOT EXISTS assisted_by JSONB",
    """CREATE TABLE IF NOT EXISTS suggestions (
      id SERIAL PRIMARY KEY,
      request_id UUID NOT NULL,
      position INTEGER NOT NULL,
      "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      round INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
      context INTEGER NOT NULL REFERENCES contexts (id) ON DELETE CASCADE,
      kind VARCHAR(16) NOT NULL,
      source VARCHAR(200) NOT NULL,
      source_version VARCHAR(200) NOT NULL DEFAULT '',
      fields JSONB NOT NULL,
      label VARCHAR(64),
      prediction JSONB,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      CONSTRAINT suggestions_unique_request_position UNIQUE (request_id, position)
    )""",
    'CREATE INDEX IF NOT EXISTS suggestions_user ON suggestions ("user")',
    "CREATE INDEX IF NOT EXISTS suggestions_round ON suggestions (round)",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP TABLE IF EXISTS suggestions")
        await Example.raw("ALTER TABLE examples DROP COLUMN IF EXISTS assisted_by")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
