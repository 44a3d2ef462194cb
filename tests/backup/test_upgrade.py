"""Issue #34 point 4: a database made by an earlier release keeps its data through today's migrations. The code of
BASE (the last commit before the backup work) is checked out into a temporary folder; its own `migrate` builds a new
database and its own API fills it (an account, examples, a vote); then today's `migrate` runs, every row of every
table is still there, `migrate --check` has nothing left, and today's API serves the old data to the old session."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tarfile
import uuid
from pathlib import Path

import asyncpg

from server.backup.database import table_stats
from server.runtime.ports import free_port
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, wait_until
from tests.authz.conftest import _healthy, extra_api
from tests.conftest import ROOT, GraphQLClient

BASE = "86c625b87184881bfab32d854dfbce9a6e65f1d0"
VOTE = """mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) { __typename ... on Error { message } } }"""
MINE = "{ me { username } myExamples(first: 20) { edges { node { id input } } } }"


def _checkout(commit: str, where: Path) -> Path:
    """The commit's tree (git archive: no worktree left in the repository)."""
    archive = where / "tree.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), commit], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(where / "tree", filter="data")
    return where / "tree"


async def _sql(dsn: str, sql: str) -> list[dict]:
    connection = await asyncpg.connect(dsn)
    try:
        return [dict(r) for r in await connection.fetch(sql)]
    finally:
        await connection.close()


async def _snapshot(dsn: str) -> dict:
    """Per table: its row count, and the primary keys of its rows where it has an `id`."""
    connection = await asyncpg.connect(dsn)
    try:
        stats = await table_stats(connection)
        ids = {}
        for table in stats:
            has_id = await connection.fetchval(
                "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = 'id')", table
            )
            if has_id:
                ids[table] = {r["id"] for r in await connection.fetch(f'SELECT id FROM "{table}"')}
        return {"rows": {t: s["rows"] for t, s in stats.items()}, "ids": ids}
    finally:
        await connection.close()


def test_a_database_of_the_previous_release_survives_todays_migrations_with_every_row(stack, target_models, tmp_path):
    old_tree = _checkout(BASE, tmp_path)
    database = f"upgrade_{uuid.uuid4().hex[:8]}"
    asyncio.run(_sql(stack.postgres.admin_dsn(), f"CREATE DATABASE {database}"))
    dsn = stack.postgres.admin_dsn(database)
    env = {**os.environ, **stack.env, "DATABASE_URL": dsn, "PYTHONPATH": str(old_tree)}
    old = [sys.executable, "-m", "server.cli"]
    done = subprocess.run([*old, "migrate"], cwd=old_tree, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    # The previous release's API writes the data, as its users would have.
    port = free_port()
    log = (tmp_path / "old-api.log").open("w")
    api_process = subprocess.Popen(
        [*old, "serve", "--host", "127.0.0.1", "--port", str(port)], cwd=old_tree, env=env, stdout=log, stderr=log
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _healthy(url) or api_process.poll() is not None, timeout=90)
        assert api_process.poll() is None, (tmp_path / "old-api.log").read_text()[-3000:]
        old_api = GraphQLClient(url)
        author, validator = old_api.sign_up("upgrade-author"), old_api.sign_up("upgrade-validator")
        round_id = current_round(old_api, "sentiment")
        context_id = old_api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
        written = [
            submit(old_api, author, round_id, context_id, {"statement": f"Written before the upgrade {i}."}, "positive")
            for i in range(3)
        ]
        assert all(w["__typename"] == "ExampleSubmitted" for w in written), written
        voted = old_api(VOTE, {"e": written[0]["example"]["id"]}, token=validator)["validateExample"]
        assert voted["__typename"] == "ExampleValidated", voted
        old_api.http.close()
    finally:
        api_process.terminate()
        api_process.wait(timeout=30)
        log.close()
    before = asyncio.run(_snapshot(dsn))
    assert before["rows"]["examples"] == 3 and before["rows"]["validations"] == 1
    # Today's migrations, then nothing pending and every row still there.
    today = {**os.environ, **stack.env, "DATABASE_URL": dsn}
    for command in (["migrate"], ["migrate", "--check"]):
        done = subprocess.run(
            [sys.executable, "-m", "server.cli", *command], cwd=ROOT, env=today, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    after = asyncio.run(_snapshot(dsn))
    lost = {t: n for t, n in before["rows"].items() if after["rows"].get(t, 0) < n}
    assert not lost, lost
    assert all(before["ids"][t] <= after["ids"].get(t, set()) for t in before["ids"])
    # Today's API serves the old rows to the old session (the same JWT secret, as after an in-place upgrade).
    with extra_api(stack, {"DATABASE_URL": dsn}) as (url, _):
        client = GraphQLClient(url)
        mine = client(MINE, token=author)
        client.http.close()
    assert mine["me"]["username"] == "upgrade-author"
    assert sorted(e["node"]["input"]["statement"] for e in mine["myExamples"]["edges"]) == [
        f"Written before the upgrade {i}." for i in range(3)
    ]
