"""Issue #34 points 1-4 (part): `dynabench backup` of the running stack while writers keep writing, `dynabench restore`
into a fresh data directory (its own PostgreSQL on another port) served by another API, and the refusals: a damaged
archive (one byte), a member that escapes the archive, a target that is not empty. `dynabench migrate --check`."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import threading
import uuid
from pathlib import Path

import asyncpg
import pytest

from server.runtime.postgres import LocalPostgres
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, wait_until
from tests.api.models_helpers import model_status, tar_gz_of, upload_model
from tests.api.test_admin_models import _scored_model
from tests.authz.conftest import extra_api
from tests.conftest import MODEL_CACHE, ROOT, GraphQLClient, run_sql, seed_builtin_tasks, submissions_triton

EVALUATED = ("evaluated", "not_ranked", "failed")
CREATE_ROUND = """mutation($m: ID!) { createRound(input: {taskCode: "qa", targetModels: [{modelId: $m}]}) {
  __typename ... on RoundCreated { round { targetModels { name status { ready } } } } ... on Error { message } } }"""
BOARD = '{ leaderboard(taskCode: "sentiment") { totalCount edges { node { rank dynascore model { name } } } } }'
SERVICE_ENV = ("DATABASE_URL", "REDIS_URL", "MODEL_STORE_DIR", "TARGET_MODEL_REPOSITORY", "JWT_SECRET")


def _cli(*args: str | Path) -> subprocess.CompletedProcess:
    """The CLI as an operator runs it: in a shell that names no service (everything comes from --data-dir)."""
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_ENV}
    command = [sys.executable, "-m", "server.cli", *map(str, args)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


def _manifest(archive: Path) -> dict:
    with tarfile.open(archive) as tar:
        stream = tar.extractfile("manifest.json")
        assert stream is not None
        return json.loads(stream.read())


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


DIGEST = "SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS h FROM {} t"
STILL_TABLES = ("users", "tasks", "datasets", "scores")  # nobody writes them while the backup runs
EXAMPLES = "SELECT id, client_id, input::text AS input FROM examples ORDER BY id"


@pytest.fixture(scope="module")
def taken(stack, target_models, tmp_path_factory):
    """A backup of the session's stack taken while an annotator keeps writing examples through the API, and what the
    live stack held right after it (module-scoped: the `api` fixture would empty the tables)."""
    api = GraphQLClient(stack.api_url)
    seed_builtin_tasks()
    token = api.sign_up(f"backup-{uuid.uuid4().hex[:6]}")
    [user] = run_sql("SELECT username FROM users ORDER BY id DESC LIMIT 1")
    _scored_model(user["username"], f"kept-{uuid.uuid4().hex[:6]}")  # the leaderboard ranks something
    # A researcher's upload: its archive is in the model store (a small real model; its evaluation may run meanwhile).
    uploaded = upload_model(api, token, "qa", "kept-upload", tar_gz_of(MODEL_CACHE / target_models["qa"]))
    assert uploaded["__typename"] == "ModelUploaded", uploaded
    upload_id = uploaded["model"]["id"]
    # Evaluated and published before the backup, and its author an admin: after a restore it can be made a round's
    # target, which loads it into the submissions Triton from the restored model store.
    wait_until(lambda: model_status(api, token, upload_id)["status"] in EVALUATED, timeout=600, interval=0.5)
    assert model_status(api, token, upload_id)["status"] in ("evaluated", "not_ranked")
    api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": upload_id}, token=token)
    run_sql("UPDATE users SET is_admin = true WHERE username = $1", user["username"])
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    for i in range(5):
        assert submit(api, token, round_id, context_id, {"statement": f"Before the backup {i}."}, "positive")["verdict"]
    before = run_sql("SELECT count(*) AS n FROM examples")[0]["n"]
    stop = threading.Event()

    def keep_writing() -> None:
        i = 0
        while not stop.is_set():
            i += 1
            submit(api, token, round_id, context_id, {"statement": f"During the backup {i}."}, "negative")

    writer = threading.Thread(target=keep_writing)
    writer.start()
    archive = tmp_path_factory.mktemp("backups") / "stack.tar"
    try:
        done = _cli("backup", "--data-dir", stack.data_dir, "--output", archive, "--include-secrets")
    finally:
        stop.set()
        writer.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert any((stack.data_dir / "model_store").iterdir())
    live = {
        "before": before,
        "after": run_sql("SELECT count(*) AS n FROM examples")[0]["n"],
        "digests": {table: run_sql(DIGEST.format(table))[0]["h"] for table in STILL_TABLES},
        "examples": {r["id"]: r for r in run_sql(EXAMPLES)},
        "board": api(BOARD)["leaderboard"],
        "model_store": _files(stack.data_dir / "model_store"),
        "model_repository": _files(stack.model_repository),
    }
    api.http.close()
    return {"archive": archive, "output": done.stdout, "token": token, "upload_id": upload_id, **live}


@pytest.fixture(scope="module")
def restored(taken, tmp_path_factory):
    """The archive restored into an empty data directory; its PostgreSQL running on a port of its own."""
    data_dir = tmp_path_factory.mktemp("restored")
    done = _cli("restore", taken["archive"], "--data-dir", data_dir)
    assert done.returncode == 0, done.stderr
    secrets = json.loads((data_dir / "secrets.json").read_text())
    postgres = LocalPostgres(data_dir / "postgres", password=secrets["postgres_password"])
    postgres.start()
    try:
        yield {"dir": data_dir, "postgres": postgres, "output": done.stdout}
    finally:
        postgres.stop()


async def _fetch(dsn: str, sql: str) -> list[dict]:
    connection = await asyncpg.connect(dsn)
    try:
        return [dict(r) for r in await connection.fetch(sql)]
    finally:
        await connection.close()


def test_the_backup_is_one_snapshot_taken_while_writers_wrote(taken):
    manifest = _manifest(taken["archive"])
    assert taken["before"] <= manifest["tables"]["examples"]["rows"] <= taken["after"]
    assert taken["after"] > taken["before"]  # the writer wrote while the backup ran
    assert manifest["secrets_included"] and "secrets INCLUDED" in taken["output"]
    assert manifest["migrations"] and manifest["postgres_version"].startswith("18")
    assert "database.pgdump" in manifest["members"] and any(m.startswith("files/") for m in manifest["members"])
    assert taken["archive"].stat().st_mode & 0o077 == 0  # personal data and secrets: the owner's only


def test_restore_brings_back_every_row_and_file_and_the_same_leaderboard(stack, taken, restored):
    import asyncio

    manifest, dsn = _manifest(taken["archive"]), restored["postgres"].dsn
    assert "every table's count and content hash equal the backup's" in restored["output"]
    # Independently of the tool: every table's row count equals the manifest's, and the rows themselves (each row's
    # text, ordered) of the tables nobody wrote meanwhile equal the live database's right after the backup.
    for table, stats in manifest["tables"].items():
        [row] = asyncio.run(_fetch(dsn, f'SELECT count(*) AS n FROM "{table}"'))
        assert row["n"] == stats["rows"], table
    for table in STILL_TABLES:
        assert asyncio.run(_fetch(dsn, DIGEST.format(table)))[0]["h"] == taken["digests"][table], table
    back_examples = asyncio.run(_fetch(dsn, EXAMPLES))
    assert len(back_examples) >= taken["before"]
    assert all(taken["examples"][r["id"]] == r for r in back_examples)  # each restored example is one that was written
    # Files: every stored archive and target model back, byte for byte.
    back = _files(restored["dir"] / "model_store")
    assert back and set(back) == {m.split("/", 2)[2] for m in manifest["members"] if m.startswith("files/model_store/")}
    assert all(taken["model_store"][name] == sha for name, sha in back.items())
    assert _files(restored["dir"] / "model_repository") == taken["model_repository"]
    # An API on the restored database ranks the same models with the same Dynascores.
    with extra_api(stack, {"DATABASE_URL": dsn, "MODEL_STORE_DIR": str(restored["dir"] / "model_store")}) as (url, _):
        client = GraphQLClient(url)
        assert client(BOARD)["leaderboard"] == taken["board"]
        client.http.close()


def test_a_target_that_is_not_empty_is_refused(taken, restored):
    done = _cli("restore", taken["archive"], "--data-dir", restored["dir"])
    assert done.returncode == 2 and "the target is not empty" in done.stderr and "--force" in done.stderr


def test_a_damaged_archive_is_refused_with_the_name_of_the_bad_file(taken, tmp_path):
    damaged = tmp_path / "damaged.tar"
    damaged.write_bytes(taken["archive"].read_bytes())
    with tarfile.open(damaged) as tar:
        member = next(m for m in tar.getmembers() if m.name.startswith("files/") and m.size > 100)
    with damaged.open("r+b") as fh:
        fh.seek(member.offset_data + member.size // 2)
        byte = fh.read(1)
        fh.seek(-1, io.SEEK_CUR)
        fh.write(bytes([byte[0] ^ 0xFF]))
    target = tmp_path / "never"
    done = _cli("restore", damaged, "--data-dir", target)
    assert done.returncode == 2, done.stdout
    assert f"the archive is damaged: {member.name}: checksum differs" in done.stderr
    assert not target.exists()  # nothing was started or written


def test_a_member_that_escapes_the_archive_is_refused(tmp_path):
    hostile = tmp_path / "hostile.tar"
    payload = b"owned"
    document = json.dumps(
        {
            "format": "dynabench-backup/1",
            "created_at": "2026-11-28T00:00:00+00:00",
            "app_version": "0",
            "postgres_version": "18",
            "migrations": {},
            "tables": {},
            "members": {"../escape": {"sha256": hashlib.sha256(payload).hexdigest(), "bytes": len(payload)}},
        }
    ).encode()
    with tarfile.open(hostile, "w") as tar:
        for name, data in (
            ("manifest.json", document),
            ("manifest.json.sha256", hashlib.sha256(document).hexdigest().encode()),
            ("../escape", payload),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    done = _cli("restore", hostile, "--data-dir", tmp_path / "target")
    assert done.returncode == 2 and "'../escape': a path outside the archive" in done.stderr
    assert not (tmp_path / "escape").exists()


def test_migrate_check_lists_pending_migrations(stack):
    import asyncio

    env = {**os.environ, "DATABASE_URL": stack.postgres.dsn}
    command = [sys.executable, "-m", "server.cli", "migrate", "--check"]
    current = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert current.returncode == 0 and "The database is up to date." in current.stdout, current.stderr
    name = f"fresh_{uuid.uuid4().hex[:8]}"
    asyncio.run(_fetch(stack.postgres.admin_dsn(), f"CREATE DATABASE {name}"))
    fresh = subprocess.run(
        command, cwd=ROOT, env={**env, "DATABASE_URL": stack.postgres.admin_dsn(name)}, capture_output=True, text=True
    )
    assert fresh.returncode == 1, fresh.stderr
    assert "pending: accounts" in fresh.stdout and fresh.stdout.rstrip().endswith("pending migrations")


def test_scheduled_backups_from_the_environment_keep_the_newest(stack, tmp_path):
    """Production mode (services from the environment, as the compose `backup` service runs it), twice, keeping one."""
    folder, store = tmp_path / "backups", tmp_path / "store"
    store.mkdir()
    (store / "model-1.archive").write_bytes(b"an uploaded archive")
    folder.mkdir()
    (folder / "notes.txt").write_text("not a backup")
    env = {**os.environ, "DATABASE_URL": stack.postgres.dsn, "MODEL_STORE_DIR": str(store)}
    env.pop("TARGET_MODEL_REPOSITORY", None)
    command = [sys.executable, "-m", "server.cli", "backup", "--output-dir", str(folder), "--keep", "1"]
    names = []
    for _ in range(2):
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        names.append(done.stdout.split("Wrote ", 1)[1].split(":", 1)[0])
    assert names[0] != names[1] and f"Removed {Path(names[0]).name} (keeping the newest 1)" in done.stdout
    assert sorted(p.name for p in folder.iterdir()) == sorted(["notes.txt", Path(names[1]).name])
    manifest = _manifest(Path(names[1]))
    assert manifest["members"]["files/model_store/model-1.archive"]["bytes"] == len(b"an uploaded archive")
    assert not manifest["secrets_included"]


def test_a_restored_submission_is_deployed_again_from_the_restored_archive(stack, taken, restored):
    """The submissions Triton forgets the model; an API on the restored database and model store loads it again when it
    is made a round's target (the session's token holds: the restored secrets sign sessions alike)."""
    [row] = run_sql("SELECT triton_name FROM models WHERE name = 'kept-upload' ORDER BY id DESC LIMIT 1")
    triton = submissions_triton(stack)
    triton.unload_model(row["triton_name"])
    wait_until(lambda: not triton.is_model_ready(row["triton_name"]), timeout=60)
    env = {"DATABASE_URL": restored["postgres"].dsn, "MODEL_STORE_DIR": str(restored["dir"] / "model_store")}
    with extra_api(stack, env) as (url, _):
        client = GraphQLClient(url)
        opened = client(CREATE_ROUND, {"m": taken["upload_id"]}, token=taken["token"])["createRound"]
        client.http.close()
    assert opened["__typename"] == "RoundCreated", opened
    assert opened["round"]["targetModels"] == [{"name": row["triton_name"], "status": {"ready": True}}]
    assert triton.is_model_ready(row["triton_name"])
