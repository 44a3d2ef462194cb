"""Accounts that can recover (issue #18): verified emails, single-use expiring tokens (email verification, password
reset) stored hashed, and a session epoch whose increase ends every earlier session (written as SQL; declared in
server/accounts/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-10T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "users.email_verified_at, users.session_epoch, account_tokens"

# An unverified email is anyone's claim: only verified emails are unique (and a reset is only sent to one). The old
# UNIQUE constraint on users.email is dropped by name, whatever Piccolo called it.
STATEMENTS = (
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS email_verified_at TIMESTAMPTZ",
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS session_epoch INTEGER NOT NULL DEFAULT 0",
    """
DO $$
DECLARE name text;
BEGIN
  FOR name IN
    SELECT c.conname FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     WHERE c.conrelid = 'users'::regclass AND c.contype = 'u' AND a.attname = 'email' AND cardinality(c.conkey) = 1
  LOOP
    EXECUTE format('ALTER TABLE users DROP CONSTRAINT %I', name);
  END LOOP;
END $$""",
    "CREATE UNIQUE INDEX IF NOT EXISTS users_verified_email ON users (email) WHERE email_verified_at IS NOT NULL",
    """
CREATE TABLE IF NOT EXISTS account_tokens (
  id SERIAL PRIMARY KEY,
  "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose VARCHAR(16) NOT NULL,
  selector VARCHAR(32) NOT NULL UNIQUE,
  token_hash VARCHAR(64) NOT NULL,
  email VARCHAR(254),
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    'CREATE INDEX IF NOT EXISTS account_tokens_user ON account_tokens ("user", purpose)',
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="accounts", description=DESCRIPTION)

    async def run():
        from server.accounts.tables import User

        for statement in STATEMENTS:
            await User.raw(statement)

    async def run_backwards():
        from server.accounts.tables import User

        await User.raw("DROP TABLE IF EXISTS account_tokens")
        await User.raw("DROP INDEX IF EXISTS users_verified_email")
        await User.raw("ALTER TABLE users DROP COLUMN IF EXISTS session_epoch, DROP COLUMN IF EXISTS email_verified_at")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
