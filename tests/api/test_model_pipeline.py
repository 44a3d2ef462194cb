"""The deploy → evaluate chain (server/evaluation/models/pipeline.py): an evaluation that finds its model gone from
the submissions Triton queues a new deployment, which queues the evaluation again."""

import asyncio
import json

from arq import create_pool
from arq.connections import RedisSettings

from server.core.jobs import job_name
from server.evaluation import jobs as evaluation_jobs
from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import create_dataset, model_status, tar_gz_of, upload_model
from tests.conftest import MODEL_CACHE, SHARED_DATA, run_sql, seed_builtin_tasks, submissions_triton

LOST = "no longer loaded"


def _sentiment_rows(n: int) -> bytes:
    path = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-test.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    kept = [
        {"uid": r["text_id"], "statement": r["sentence"], "label": r["gold_label"]}
        for r in rows
        if r.get("gold_label") in ("negative", "positive", "neutral")
    ]
    return "\n".join(json.dumps(r) for r in kept[:n]).encode()


def _enqueue(redis_url: str, function, *args) -> None:
    async def go() -> None:
        pool = await create_pool(RedisSettings.from_dsn(redis_url))
        try:
            await pool.enqueue_job(job_name(function), *args)
        finally:
            await pool.aclose()

    asyncio.run(go())


def _after_loss(status: dict) -> list[str]:
    """The statuses from the evaluation's "no longer loaded" entry on (none before the loss)."""
    log = status["statusLog"]
    lost = [i for i, entry in enumerate(log) if LOST in (entry["message"] or "")]
    return [entry["status"] for entry in log[lost[-1] :]] if lost else []


def test_a_model_triton_lost_is_deployed_again_then_evaluated(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    create_dataset(api, admin_token, "sentiment", "scoring", _sentiment_rows(40))
    researcher = api.sign_up("researcher")
    archive = tar_gz_of(MODEL_CACHE / target_models["sentiment"])
    model_id = upload_model(api, researcher, "sentiment", "lost", archive)["model"]["id"]
    wait_until(lambda: model_status(api, researcher, model_id)["status"] == "evaluated", timeout=600, interval=1)
    before = model_status(api, researcher, model_id)["scores"]

    row = run_sql("SELECT id, triton_name FROM models WHERE name = $1", "lost")[0]
    pk, triton_name = row["id"], row["triton_name"]
    triton = submissions_triton(stack)
    triton.unload_model(triton_name)
    wait_until(lambda: not triton.is_model_ready(triton_name), timeout=120, interval=0.2)

    _enqueue(stack.env["REDIS_URL"], evaluation_jobs.evaluate_model, pk)
    wait_until(lambda: (_after_loss(model_status(api, researcher, model_id)) or [""])[-1] == "evaluated", timeout=600, interval=1)
    statuses = _after_loss(model_status(api, researcher, model_id))
    assert statuses[0] == "uploaded" and statuses[-1] == "evaluated", statuses
    assert "deployed" in statuses and statuses.index("deployed") < statuses.index("evaluating"), statuses
    assert triton.is_model_ready(triton_name)
    after = model_status(api, researcher, model_id)["scores"]
    assert [s["dataset"]["name"] for s in after] == [s["dataset"]["name"] for s in before]
    assert [s["perf"] for s in after] == [s["perf"] for s in before]
