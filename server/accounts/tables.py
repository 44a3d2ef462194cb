"""The accounts domain's tables: users, their API tokens, and their single-use recovery tokens."""

from piccolo.columns import Array, Boolean, ForeignKey, Integer, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.records import AccountTokenPurpose, TokenScope


class User(Table, tablename="users"):
    username = Varchar(length=64, unique=True, index=True)
    # Unique only once verified (a partial unique index, migration 2026-12-10T09): an unverified email is a claim.
    email = Varchar(length=254, null=True)
    email_verified_at = Timestamptz(null=True, default=None)
    password_hash = Varchar(length=255, secret=True)
    is_admin = Boolean(default=False)
    # Sessions carry the epoch they were issued in; raising it (a password reset) ends every earlier session.
    session_epoch = Integer(default=0)
    created_at = Timestamptz(default=TimestamptzNow())
    # Disabled by an admin (server/admin/): no log-in, and every session and API token is refused (migration 2026-12-22T).
    disabled_at = Timestamptz(null=True, default=None)
    disabled_reason = Varchar(length=500, default="")


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


class AccountToken(Table, tablename="account_tokens"):
    """A single-use, expiring token mailed (or handed over by an admin): `selector.secret`, found by its selector,
    compared by the SHA-256 of the whole token in constant time; only the hash is stored."""

    user = ForeignKey(User, index=True)
    purpose = Varchar(length=16, choices=AccountTokenPurpose)
    selector = Varchar(length=32, unique=True)
    token_hash = Varchar(length=64, secret=True)
    email = Varchar(length=254, null=True)  # the address it was sent to (verification: the one it verifies)
    expires_at = Timestamptz()
    used_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())
