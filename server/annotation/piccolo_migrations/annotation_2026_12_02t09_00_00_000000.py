"""The near-duplicate guard's embeddings (issue #17): the vector the round's target model gave for an example, kept
to compare later submissions by meaning (read and written only through server/annotation/quality/queries.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-02T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "example_vectors"

CREATE = [
    # encoder: "<model>@<version>" — vectors of different encoders are never compared. vector: float16, little-endian.
    """
CREATE TABLE IF NOT EXISTS example_vectors (
  example INTEGER PRIMARY KEY REFERENCES examples (id) ON DELETE CASCADE,
  encoder VARCHAR(300) NOT NULL,
  vector BYTEA NOT NULL
)""",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP TABLE IF EXISTS example_vectors")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
