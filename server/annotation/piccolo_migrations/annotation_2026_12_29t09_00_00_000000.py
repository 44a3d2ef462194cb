"""An example's (and a reply's) model version may be an OpenAI-compatible endpoint's model id, such as a path or
`org/model-name`: room for 200 characters (widening a varchar rewrites nothing)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-29T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "examples.model_version, conversation_turns.model_version: varchar(200)"

CREATE = [
    "ALTER TABLE examples ALTER COLUMN model_version TYPE VARCHAR(200)",
    "ALTER TABLE conversation_turns ALTER COLUMN model_version TYPE VARCHAR(200)",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    manager.add_raw(run)
    return manager
