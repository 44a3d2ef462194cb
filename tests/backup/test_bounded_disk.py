"""Issue #34 point 7: disk stays bounded and a full disk is said plainly. The storage sweep (a worker cron) removes
upload leftovers, orphaned archives, failed and taken-down submissions' archives past STORAGE_RETENTION_DAYS and export
folders a crash left; a full filesystem (a real tmpfs, mounted for the test) refuses an upload and an HF export with a
clear error, leaves no partial file, and loses no example or vote."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import httpx

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, wait_until
from tests.api.models_helpers import tar_gz_of, upload_model
from tests.authz.conftest import extra_api
from tests.conftest import MODEL_CACHE, GraphQLClient, run_sql, seed_builtin_tasks

DAY = 86400
EXPORT = """mutation($r: ID!) { exportRound(roundId: $r, format: HF_DATASET) {
  __typename ... on RoundExport { url } ... on Error { code message } } }"""
VOTE = "mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) { __typename } }"


def _model(owner_id: int, task_id: int, status: str, age_days: float, taken_down: bool = False) -> int:
    return run_sql(
        "INSERT INTO models (task, owner, name, card, status, status_log, published, anonymous, created_at, taken_down_at) "
        "VALUES ($1, $2, $3, '{}', $4, '[]', false, false, now() - make_interval(secs => $5), "
        "CASE WHEN $6 THEN now() - make_interval(secs => $5) END) RETURNING id",
        task_id,
        owner_id,
        f"disk-{uuid.uuid4().hex[:6]}",
        status,
        age_days * DAY,
        taken_down,
    )[0]["id"]


def _file(path: Path, age_s: float = 0) -> Path:
    path.write_bytes(b"archive bytes")
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_the_storage_sweep_removes_leftovers_and_expired_archives_and_keeps_the_rest(stack, api):
    seed_builtin_tasks()
    api.sign_up("disk-owner")
    [owner] = run_sql("SELECT id FROM users WHERE username = 'disk-owner'")
    [task] = run_sql("SELECT id FROM tasks WHERE code = 'sentiment'")
    store = stack.data_dir / "model_store"
    store.mkdir(exist_ok=True)

    def archive(model_id: int, age_s: float = 0) -> Path:
        return _file(store / f"model-{model_id}.archive", age_s)

    # 40 days: past the 30-day default retention.
    gone = [
        _file(store / ".upload-7-1.000000", age_s=2 * 3600),  # a crash's staging file
        archive(_model(owner["id"], task["id"], "failed", 40)),
        archive(_model(owner["id"], task["id"], "evaluated", 40, taken_down=True)),
        archive(2_000_000_000, age_s=2 * 3600),  # no row
    ]
    scratch = Path(tempfile.mkdtemp(prefix="dynabench-export-"))
    (scratch / "rows.jsonl").write_bytes(b"{}")
    os.utime(scratch, (time.time() - 7 * 3600, time.time() - 7 * 3600))
    kept = [
        _file(store / ".upload-7-2.000000"),  # an upload in progress
        archive(_model(owner["id"], task["id"], "failed", 1)),  # failed recently: its owner may still look
        archive(_model(owner["id"], task["id"], "evaluated", 40)),  # on the leaderboard: never removed
        archive(2_000_000_001),  # no row yet: the upload that is renaming it
    ]
    wait_until(lambda: not any(p.exists() for p in [*gone, scratch]), timeout=120, interval=1)
    assert all(p.exists() for p in kept), [p.name for p in kept if not p.exists()]
    for path in kept:
        path.unlink()


@contextlib.contextmanager
def _full_filesystem(where: Path):
    """A real 512 KB tmpfs, filled until the kernel answers ENOSPC."""
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(where)], check=True)
    try:
        filler = subprocess.run(["dd", "if=/dev/zero", f"of={where / 'filler'}", "bs=4k"], capture_output=True, text=True)
        assert "No space left on device" in filler.stderr, filler.stderr
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_a_full_disk_refuses_an_upload_and_an_export_plainly_and_loses_no_example(stack, api, target_models, tmp_path):
    seed_builtin_tasks()
    author = api.sign_up("disk-author")
    owner = api.sign_up("disk-task-owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'disk-task-owner'")
    with _full_filesystem(tmp_path / "full") as full:
        env = {"MODEL_STORE_DIR": str(full), "EXPORT_SCRATCH_DIR": str(full)}
        with extra_api(stack, env) as (url, _):
            client = GraphQLClient(url)
            models_before = run_sql("SELECT count(*) AS n FROM models")[0]["n"]
            refused = upload_model(client, author, "qa", "too-big", tar_gz_of(MODEL_CACHE / target_models["qa"]))
            assert refused["__typename"] == "ServiceUnavailableError", refused
            assert refused["message"].startswith("The server's disk is full: your archive was not stored.")
            assert run_sql("SELECT count(*) AS n FROM models")[0]["n"] == models_before
            assert sorted(p.name for p in full.iterdir()) == ["filler"]  # no staging file left
            # Examples and votes live in the database: written and counted as ever.
            round_id = current_round(client, "sentiment")
            context_id = client(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
            written = submit(client, author, round_id, context_id, {"statement": "Written on a full disk."}, "positive")
            assert written["__typename"] == "ExampleSubmitted", written
            voted = client(VOTE, {"e": written["example"]["id"]}, token=owner)["validateExample"]
            assert voted["__typename"] == "ExampleValidated", voted
            stored = run_sql("SELECT count(*) AS n FROM examples WHERE input->>'statement' = 'Written on a full disk.'")
            assert stored[0]["n"] == 1
            # An HF-datasets export is built on disk: refused with the reason, nothing left behind.
            link = client(EXPORT, {"r": round_id}, token=owner)["exportRound"]
            response = httpx.get(url + link["url"], timeout=120)
            assert response.status_code == 503 and response.headers["retry-after"] == "60", response.text
            assert response.json() == {
                "error": "The server's disk is full: the export was not stored. Nothing else was lost; try again later."
            }
            assert sorted(p.name for p in full.iterdir()) == ["filler"]
            client.http.close()
