"""The worker is killed with SIGKILL in the middle of aggregating votes and of evaluating a model: after
a new worker starts, every counter and score equals a recomputation from rows."""

import signal
import time
from concurrent.futures import ThreadPoolExecutor

from tests.api.models_helpers import create_dataset, model_status, tar_gz_of, upload_model
from tests.api.test_models import _dynasent_test_rows, _independent_accuracy, _jsonl
from tests.api.test_validation import VALIDATE, _world
from tests.conftest import MODEL_CACHE, run_sql, seed_builtin_tasks
from tests.faults.chaos import wait_for
from tests.faults.checks import assert_counters_equal_rows, kill_workers, live_workers, start_worker

EXAMPLES = 40
VOTERS = 3


def _aggregated() -> int:
    return run_sql("SELECT count(*) AS n FROM validations WHERE aggregated")[0]["n"]


def test_worker_killed_during_aggregation(stack, api, target_models):
    _, _, _, examples = _world(api, EXAMPLES)
    voters = [api.sign_up(f"voter{n}") for n in range(VOTERS)]
    # The votes' jobs pile up while no worker runs, so that the next worker is busy with them when it dies.
    kill_workers(stack)
    try:
        ballots = [(example["id"], voter) for example in examples for voter in voters]
        with ThreadPoolExecutor(8) as pool:
            votes = list(pool.map(lambda b: api(VALIDATE, {"e": b[0], "l": "CORRECT"}, token=b[1])["validateExample"], ballots))
        assert all(v["__typename"] == "ExampleValidated" for v in votes)
        total = EXAMPLES * VOTERS
        assert _aggregated() == 0
        start_worker(stack)
        wait_for(lambda: _aggregated() > 0, timeout=120, what="the worker to start aggregating", interval=0.02)
        kill_workers(stack, signal.SIGKILL)
        assert _aggregated() < total, "the worker finished before it could be killed; the test proves nothing"
    finally:
        if not live_workers(stack):
            start_worker(stack)
    wait_for(lambda: _aggregated() == total, timeout=180, what="every vote to be aggregated after the restart")
    outcomes = run_sql("SELECT status, count(*) AS n FROM examples GROUP BY status")
    assert {r["status"]: r["n"] for r in outcomes} == {"validated": EXAMPLES}  # three matching votes each
    assert_counters_equal_rows()


def test_worker_killed_during_evaluation(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    rows = _dynasent_test_rows(600)  # ~2,500 predictions with the perturbed copies: the kill lands mid-evaluation
    assert create_dataset(api, admin_token, "sentiment", "dynasent-r1-test", _jsonl(rows))["exampleCount"] == len(rows)
    researcher = api.sign_up("researcher")
    model_id = upload_model(api, researcher, "sentiment", "killed midway", tar_gz_of(MODEL_CACHE / target_models["sentiment"]))[
        "model"
    ]["id"]
    wait_for(
        lambda: model_status(api, researcher, model_id)["status"] == "evaluating",
        timeout=600,
        what="the evaluation to start",
        interval=0.1,
    )
    time.sleep(1)  # well into the predictions
    kill_workers(stack, signal.SIGKILL)
    assert model_status(api, researcher, model_id)["status"] == "evaluating"
    new_worker_log = start_worker(stack)
    # The dead worker's job is released (its heartbeat expired) and runs again on the new worker.
    wait_for(
        lambda: model_status(api, researcher, model_id)["status"] in ("evaluated", "failed"),
        timeout=600,
        what="the evaluation to finish after the restart",
        interval=1,
    )
    status = model_status(api, researcher, model_id)
    assert status["status"] == "evaluated", status["statusLog"]
    # It ran again because its dead worker's job was released, not after arq's one-hour in-progress timeout.
    assert "job(s) of dead workers" in new_worker_log.read_text()
    # One score row, equal to an independent computation on the same rows.
    assert run_sql("SELECT count(*) AS n FROM scores")[0]["n"] == 1
    triton_name = run_sql("SELECT triton_name FROM models")[0]["triton_name"]
    expected = _independent_accuracy(stack, triton_name, rows, ["statement"])
    assert abs(status["scores"][0]["perf"] - expected) < 1e-6


def test_only_dead_workers_jobs_are_released_not_a_finished_crons_mark(stack):
    """workers/liveness.py against the stack's Redis: a job whose worker's heartbeat is gone, and a job marked with no
    owner for a while, are released; a live worker's job and a finished cron's mark (arq keeps it 60 s so that no other
    worker runs the same scheduled run again) are not."""
    import asyncio
    import os

    from arq.constants import in_progress_key_prefix
    from redis.asyncio import Redis

    from workers.liveness import ALIVE, OWNERS, recover_orphaned_jobs

    async def scenario() -> dict[str, bool]:
        redis = Redis.from_url(os.environ["REDIS_URL"])
        marks = {"dead-owner": 3_600_000, "live-owner": 3_600_000, "unowned-old": 3_000_000, "cron:sweep:1": 50_000}
        try:
            for job_id, ttl_ms in marks.items():
                await redis.psetex(in_progress_key_prefix + job_id, ttl_ms, b"1")
            await redis.hset(OWNERS, mapping={"dead-owner": "gone-worker", "live-owner": "test-worker"})
            await redis.set(ALIVE + "test-worker", b"1", ex=60)
            await recover_orphaned_jobs({"redis": redis}, 3610)  # the session's worker may run it too: the same outcome
            return {job_id: bool(await redis.exists(in_progress_key_prefix + job_id)) for job_id in marks}
        finally:
            await redis.delete(*(in_progress_key_prefix + job_id for job_id in marks), ALIVE + "test-worker")
            await redis.hdel(OWNERS, "dead-owner", "live-owner")
            await redis.aclose()

    kept = asyncio.run(scenario())
    assert kept == {"dead-owner": False, "live-owner": True, "unowned-old": False, "cron:sweep:1": True}
