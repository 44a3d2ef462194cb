from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.columns.column_types import Integer
from piccolo.columns.indexes import IndexMethod

ID = "2026-11-24T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "user_round_stats.fooled_rejected, so that leaderboards read counters instead of every example"


async def forwards():
    manager = MigrationManager(
        migration_id=ID, app_name="annotation", description=DESCRIPTION
    )

    manager.add_column(
        table_class_name="UserRoundStats",
        tablename="user_round_stats",
        column_name="fooled_rejected",
        db_column_name="fooled_rejected",
        column_class_name="Integer",
        column_class=Integer,
        params={
            "default": 0,
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
