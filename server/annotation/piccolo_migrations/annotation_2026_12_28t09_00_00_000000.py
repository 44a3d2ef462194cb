"""Generative tasks (issue #30): conversations with a generative target and their turns."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-28T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "conversations, conversation_turns"

CREATE = [
    """CREATE TABLE IF NOT EXISTS conversations (
      id SERIAL PRIMARY KEY,
      client_id UUID NOT NULL UNIQUE,
      round INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
      context INTEGER NOT NULL REFERENCES contexts (id) ON DELETE CASCADE,
      "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      target JSONB NOT NULL,
      params JSONB NOT NULL,
      example INTEGER REFERENCES examples (id) ON DELETE SET NULL,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    "CREATE INDEX IF NOT EXISTS conversations_round ON conversations (round)",
    'CREATE INDEX IF NOT EXISTS conversations_user ON conversations ("user")',
    """CREATE TABLE IF NOT EXISTS conversation_turns (
      id SERIAL PRIMARY KEY,
      conversation INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      client_id UUID NOT NULL UNIQUE,
      message TEXT NOT NULL,
      reply TEXT NOT NULL DEFAULT '',
      status VARCHAR(16) NOT NULL DEFAULT 'generating',
      error TEXT NOT NULL DEFAULT '',
      model_name VARCHAR(200) NOT NULL DEFAULT '',
      model_version VARCHAR(64) NOT NULL DEFAULT '',
      attempts JSONB NOT NULL DEFAULT '[]'::jsonb,
      judge_score DOUBLE PRECISION,
      judge_model VARCHAR(200) NOT NULL DEFAULT '',
      started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      finished_at TIMESTAMPTZ,
      CONSTRAINT conversation_turns_unique_position UNIQUE (conversation, position)
    )""",
    "CREATE INDEX IF NOT EXISTS conversation_turns_conversation ON conversation_turns (conversation)",
    # The sweep of replies whose API process died mid-stream.
    "CREATE INDEX IF NOT EXISTS conversation_turns_generating ON conversation_turns (started_at) WHERE status = 'generating'",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP TABLE IF EXISTS conversation_turns")
        await Example.raw("DROP TABLE IF EXISTS conversations")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
