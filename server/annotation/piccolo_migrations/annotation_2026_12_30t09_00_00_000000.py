"""Side-by-side battles (issue #31): a prompt answered by 2–4 anonymous targets (one conversation per side) and its
blind vote."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-30T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "battles, battle_sides, battle_votes"

CREATE = [
    """CREATE TABLE IF NOT EXISTS battles (
      id SERIAL PRIMARY KEY,
      client_id UUID NOT NULL UNIQUE,
      round INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
      context INTEGER NOT NULL REFERENCES contexts (id) ON DELETE CASCADE,
      "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      prompt TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    "CREATE INDEX IF NOT EXISTS battles_round ON battles (round)",
    # A user's battles of today (the daily cap) and their earlier battles of a prompt (the pairing).
    'CREATE INDEX IF NOT EXISTS battles_user ON battles ("user", created_at)',
    """CREATE TABLE IF NOT EXISTS battle_sides (
      id SERIAL PRIMARY KEY,
      battle INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      conversation INTEGER NOT NULL UNIQUE REFERENCES conversations (id) ON DELETE CASCADE,
      CONSTRAINT battle_sides_unique_position UNIQUE (battle, position)
    )""",
    "CREATE INDEX IF NOT EXISTS battle_sides_battle ON battle_sides (battle)",
    """CREATE TABLE IF NOT EXISTS battle_votes (
      id SERIAL PRIMARY KEY,
      battle INTEGER NOT NULL UNIQUE REFERENCES battles (id) ON DELETE CASCADE,
      "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      choice VARCHAR(16) NOT NULL,
      client_id UUID NOT NULL UNIQUE,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    'CREATE INDEX IF NOT EXISTS battle_votes_user ON battle_votes ("user", created_at)',
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP TABLE IF EXISTS battle_votes")
        await Example.raw("DROP TABLE IF EXISTS battle_sides")
        await Example.raw("DROP TABLE IF EXISTS battles")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
