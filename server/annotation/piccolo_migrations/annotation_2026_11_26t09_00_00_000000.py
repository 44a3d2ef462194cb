from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.columns.column_types import UUID
from piccolo.columns.indexes import IndexMethod

ID = "2026-11-26T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "examples.claim_client_id: the client UUID of an ask_user example's claim (claimFooled is idempotent on it)"


async def forwards():
    manager = MigrationManager(
        migration_id=ID, app_name="annotation", description=DESCRIPTION
    )

    manager.add_column(
        table_class_name="Example",
        tablename="examples",
        column_name="claim_client_id",
        db_column_name="claim_client_id",
        column_class_name="UUID",
        column_class=UUID,
        params={
            "default": None,
            "null": True,
            "primary_key": False,
            "unique": False,
            "index": False,
            "index_method": IndexMethod.btree,
            "choices": None,
            "db_column_name": None,
            "secret": False,
        },
        schema=None,
    )

    return manager
