from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.columns.column_types import Boolean
from piccolo.columns.indexes import IndexMethod

ID = "2026-11-22T03:41:58:824621"
VERSION = "1.38.0"
DESCRIPTION = "validations.aggregated for the re-aggregation sweeper"


async def forwards():
    manager = MigrationManager(
        migration_id=ID, app_name="annotation", description=DESCRIPTION
    )

    manager.add_column(
        table_class_name="Validation",
        tablename="validations",
        column_name="aggregated",
        db_column_name="aggregated",
        column_class_name="Boolean",
        column_class=Boolean,
        params={
            "default": False,
            "null": False,
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
