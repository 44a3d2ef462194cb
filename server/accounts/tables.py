"""The accounts domain's tables: users and their API tokens."""

from piccolo.columns import Array, Boolean, ForeignKey, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.records import TokenScope


class User(Table, tablename="users"):
    username = Varchar(length=64, unique=True, index=True)
    email = Varchar(length=254, unique=True, null=True)
    password_hash = Varchar(length=255, secret=True)
    is_admin = Boolean(default=False)
    created_at = Timestamptz(default=TimestamptzNow())


class ApiToken(Table, tablename="api_tokens"):
    """A long-lived credential for scripts and dashboards; only a hash of the secret is stored."""

    user = ForeignKey(User, index=True)
    name = Varchar(length=100)
    prefix = Varchar(length=16, unique=True, index=True)
    token_hash = Varchar(length=64, secret=True)
    scopes = Array(base_column=Varchar(length=32), choices=TokenScope)
    created_at = Timestamptz(default=TimestamptzNow())
    last_used_at = Timestamptz(null=True, default=None)
    revoked_at = Timestamptz(null=True, default=None)
