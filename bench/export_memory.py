"""Peak memory of a large round export: N examples written by SQL into a fresh PostgreSQL, exported to JSONL
through the same streaming path as `dynabench export` and the download link (server-side cursor).

    .venv/bin/python bench/export_memory.py [--rows 60000]
"""

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from server.runtime.postgres import LocalPostgres

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--rows", type=int, default=60000)
args = parser.parse_args()

pg = LocalPostgres(Path(tempfile.mkdtemp()) / "pg", durable=False)
pg.start()
os.environ["DATABASE_URL"] = pg.dsn
os.environ["PICCOLO_CONF"] = "server.core.piccolo_conf"


async def main():
    from server.core import db

    await db.migrate()
    await db.start_pool(2)
    from server.accounts.service import create_user
    from server.tasks.builtin import seed_builtin_tasks

    await seed_builtin_tasks()
    await create_user("writer", "a long password here", is_admin=False)
    import asyncpg

    c = await asyncpg.connect(pg.dsn)
    await c.execute(
        """
      INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, model_version, fooled, status,
        retracted, flagged, flag_reason, explanation, time_spent_ms, pending_reason, check_attempts, created_at)
      SELECT gen_random_uuid(), r.id, (SELECT min(id) FROM contexts WHERE round = r.id), (SELECT id FROM users LIMIT 1),
        jsonb_build_object('statement', repeat('A rather long review sentence about dinner. ', 8) || g, 'label', 'positive'),
        '{"label": "negative", "probs": {"negative": 0.7, "positive": 0.2, "neutral": 0.1}}'::jsonb, 'sentiment_minilm', '1', true, 'open',
        false, false, '', '', 1200, '', 0, now()
      FROM generate_series(1, $1) g, rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'""",
        args.rows,
    )
    round_id = await c.fetchval("SELECT r.id FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'")
    await c.close()
    from server.annotation.exports import service as export_service

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = Path(tempfile.mkdtemp()) / "r.jsonl"
    t = time.perf_counter()
    n = await export_service.write_export(round_id, "jsonl", out, "k" * 64)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"| rows | file | seconds | peak RSS before | peak RSS after |\n|---|---|---|---|---|\n"
        f"| {n} | {out.stat().st_size / 1e6:.1f} MB | {time.perf_counter() - t:.1f} | {before / 1024:.0f} MB | {after / 1024:.0f} MB |"
    )
    print(
        f"rows {n}, file {out.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - t:.1f} s, peak RSS before {before / 1024:.0f} MB after {after / 1024:.0f} MB (+{(after - before) / 1024:.0f} MB)"
    )
    await db.close_pool()


try:
    asyncio.run(main())
finally:
    pg.stop()
