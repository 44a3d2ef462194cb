from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.columns.base import OnDelete
from piccolo.columns.base import OnUpdate
from piccolo.columns.column_types import ForeignKey
from piccolo.columns.column_types import Serial
from piccolo.columns.column_types import Timestamptz
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.columns.indexes import IndexMethod
from piccolo.constraints import Unique
from piccolo.table import Table


class Example(Table, tablename="examples", schema=None):
    id = Serial(
        null=False,
        primary_key=True,
        unique=False,
        index=False,
        index_method=IndexMethod.btree,
        choices=None,
        db_column_name="id",
        secret=False,
    )


class User(Table, tablename="users", schema=None):
    id = Serial(
        null=False,
        primary_key=True,
        unique=False,
        index=False,
        index_method=IndexMethod.btree,
        choices=None,
        db_column_name="id",
        secret=False,
    )


ID = "2026-11-22T03:26:57:513145"
VERSION = "1.38.0"
DESCRIPTION = "validation claims"


async def forwards():
    manager = MigrationManager(
        migration_id=ID, app_name="annotation", description=DESCRIPTION
    )

    manager.add_table(
        class_name="ValidationClaim",
        tablename="validation_claims",
        schema=None,
        columns=None,
    )

    manager.add_column(
        table_class_name="ValidationClaim",
        tablename="validation_claims",
        column_name="example",
        db_column_name="example",
        column_class_name="ForeignKey",
        column_class=ForeignKey,
        params={
            "references": Example,
            "on_delete": OnDelete.cascade,
            "on_update": OnUpdate.cascade,
            "target_column": None,
            "null": True,
            "primary_key": False,
            "unique": False,
            "index": True,
            "index_method": IndexMethod.btree,
            "choices": None,
            "db_column_name": None,
            "secret": False,
        },
        schema=None,
    )

    manager.add_column(
        table_class_name="ValidationClaim",
        tablename="validation_claims",
        column_name="user",
        db_column_name="user",
        column_class_name="ForeignKey",
        column_class=ForeignKey,
        params={
            "references": User,
            "on_delete": OnDelete.cascade,
            "on_update": OnUpdate.cascade,
            "target_column": None,
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

    manager.add_column(
        table_class_name="ValidationClaim",
        tablename="validation_claims",
        column_name="expires_at",
        db_column_name="expires_at",
        column_class_name="Timestamptz",
        column_class=Timestamptz,
        params={
            "default": TimestamptzNow(),
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

    manager.add_constraint(
        table_class_name="ValidationClaim",
        tablename="validation_claims",
        constraint_name="validation_claims_unique_example_user",
        constraint_class=Unique,
        params={"columns": ["example", "user"], "nulls_distinct": True},
        schema=None,
    )

    return manager
