from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.columns.column_types import JSONB
from piccolo.columns.indexes import IndexMethod

ID = "2026-11-22T03:46:12:357476"
VERSION = "1.38.0"
DESCRIPTION = "dataset example gold"


async def forwards():
    manager = MigrationManager(
        migration_id=ID, app_name="evaluation", description=DESCRIPTION
    )

    manager.add_column(
        table_class_name="DatasetExample",
        tablename="dataset_examples",
        column_name="gold",
        db_column_name="gold",
        column_class_name="JSONB",
        column_class=JSONB,
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
