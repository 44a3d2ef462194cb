"""Rounds pin exact target versions: a built-in target stored without a version ("the newest") is pinned to
the version that judged the round's latest example, else to version 1 (what `build-models` writes), so a
retrained version never changes the judge of an existing round."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-25T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "pin built-in target versions"

# The built-in targets as of this migration (constants, so inlined: Piccolo's raw SQL has `{}` placeholders,
# hence no braces below).
BUILTIN_TARGETS = "ARRAY['sentiment_minilm', 'nli_minilm', 'hate_speech_minilm', 'qa_overlap_baseline']"

# examples belongs to a later app: on a fresh database (no rounds yet) it may not exist.
_JUDGED_BY = """(SELECT e.model_version FROM examples e
                  WHERE e.round = r.id AND e.model_name = t->>'name' AND e.model_version ~ '^[0-9]+$'
                    AND length(e.model_version) <= 9
                  ORDER BY e.id DESC LIMIT 1)"""
_PIN = """
UPDATE rounds r SET target_models = (
    SELECT jsonb_agg(CASE WHEN coalesce(t->>'version', '') = '' AND t->>'name' = ANY(BUILTIN)
                          THEN jsonb_set(t, ARRAY['version'], to_jsonb(coalesce(JUDGED_BY, '1')))
                          ELSE t END ORDER BY n)
      FROM jsonb_array_elements(r.target_models) WITH ORDINALITY AS x(t, n))
 WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(r.target_models) t
                WHERE coalesce(t->>'version', '') = '' AND t->>'name' = ANY(BUILTIN))
"""


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="tasks", description=DESCRIPTION)

    async def run():
        from server.tasks.tables import Round

        rows = await Round.raw("SELECT to_regclass('examples') IS NOT NULL AS known")
        judged_by = _JUDGED_BY if rows and rows[0]["known"] else "NULL::text"
        await Round.raw(_PIN.replace("JUDGED_BY", judged_by).replace("BUILTIN", BUILTIN_TARGETS))

    manager.add_raw(run)
    return manager
