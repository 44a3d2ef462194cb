"""Metrics and logs against the real stack: /metrics of the API, the worker's metrics endpoint,
request ids in and out, JSON log lines that carry them (API and worker), and no secrets in the logs.

Metrics live in long-running processes shared by the whole session, so every check compares two
scrapes around the operations the test performs.
"""

import asyncio
import json
import sys
import uuid

import httpx
from prometheus_client.parser import text_string_to_metric_families

from server.runtime import free_port
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, wait_until
from tests.conftest import seed_builtin_tasks

TASKS = "{ tasks { edges { node { code } } } }"
SUBMIT = """mutation($x: [CreateExampleInput!]!) { submitExamples(inputs: $x) {
  __typename ... on ExampleSubmitted { duplicate } ... on Error { code } } }"""
VALIDATE = """mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) {
  __typename ... on Error { code message } } }"""


def scrape(url: str, headers: dict | None = None) -> dict[tuple, float]:
    response = httpx.get(url, headers=headers or {}, timeout=30)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def label_values(samples: dict, name: str, label: str) -> set[str]:
    return {dict(key)[label] for (metric, key) in samples if metric == name and label in dict(key)}


def _writer(api):
    seed_builtin_tasks()
    token = api.sign_up("obs-writer", "a long observability password")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    return token, round_id, context_id


def _item(round_id, context_id, text, label, client_id=None, sandbox=False):
    return {
        "roundId": round_id,
        "contextId": context_id,
        "fields": {"statement": text},
        "label": label,
        "clientId": str(client_id or uuid.uuid4()),
        "sandbox": sandbox,
    }


def test_graphql_triton_and_outbox_metrics(api, stack, target_models):
    token, round_id, context_id = _writer(api)
    url = stack.api_url + "/metrics"
    graphql = "dynabench_graphql_request_duration_seconds"
    before = scrape(url)

    api(TASKS)
    api(TASKS)
    created = submit(api, token, round_id, context_id, {"statement": "The soundtrack was lovely."}, label="positive")
    assert created["__typename"] == "ExampleSubmitted" and created["duplicate"] is False
    first = uuid.uuid4()
    batch = [
        _item(round_id, context_id, "Dull and far too long.", "negative", first),
        _item(round_id, context_id, "A fine cast, a thin script.", "neutral"),
        _item(round_id, context_id, "Dull and far too long.", "negative", first),  # the outbox sent it twice
        _item(round_id, context_id, "Sandbox items are refused.", "positive", sandbox=True),
    ]
    results = api(SUBMIT, {"x": batch}, token=token)["submitExamples"]
    assert [r.get("duplicate") for r in results] == [False, False, True, None]
    assert api.errors("{ noSuchField }")
    after = scrape(url)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta(f"{graphql}_count", operation_type="query", operation="tasks") == 2
    assert delta(f"{graphql}_count", operation_type="mutation", operation="createExample") == 1
    assert delta(f"{graphql}_count", operation_type="mutation", operation="submitExamples") == 1
    assert delta(f"{graphql}_count", operation_type="query", operation="unknown") == 1
    assert delta(f"{graphql}_bucket", operation_type="mutation", operation="createExample", le="+Inf") == 1
    assert 0 < delta(f"{graphql}_sum", operation_type="mutation", operation="submitExamples") < 60
    assert delta("dynabench_graphql_errors_total", code="GRAPHQL_VALIDATION_FAILED") == 1
    assert delta("dynabench_outbox_batches_total") == 1
    assert delta("dynabench_outbox_items_total", result="new") == 2
    assert delta("dynabench_outbox_items_total", result="duplicate") == 1
    assert delta("dynabench_outbox_items_total", result="error") == 1
    # The event loop's lag is observed every 0.1 s while the process runs: these requests took some of that time.
    assert delta("dynabench_event_loop_lag_seconds_count") >= 1
    assert value(after, "dynabench_event_loop_lag_seconds_bucket", le="+Inf") == value(
        after, "dynabench_event_loop_lag_seconds_count"
    )
    # Three examples needed the model (the createExample and two new outbox items). The API may also
    # start a speculative call that a duplicate makes unnecessary, so at least three, not exactly.
    model = target_models["sentiment"]
    assert delta("dynabench_triton_request_duration_seconds_count", model=model, outcome="ok") >= 3
    assert delta("dynabench_triton_request_duration_seconds_sum", model=model, outcome="ok") > 0
    posts = sum(delta("dynabench_http_requests_total", method="POST", route="/graphql", status=s) for s in ("200", "400"))
    assert posts == 5  # 2 × tasks, createExample, submitExamples, the invalid query


def test_triton_outcomes_are_labelled(stack, target_models):
    """server.core.inference against the stack's Triton, in this process: ok, unavailable, timeout."""
    from prometheus_client import REGISTRY
    from tritonclient.http.aio import InferenceServerClient

    from server.core.inference import ModelUnavailable, predict
    from server.tasks.builtin import BUILTIN_TASKS
    from server.tasks.config import parse_task_config

    config, problems = parse_task_config(next(t for t in BUILTIN_TASKS if t["code"] == "sentiment")["config"])
    assert config is not None, problems
    model = target_models["sentiment"]

    def count(name, outcome):
        return (
            REGISTRY.get_sample_value("dynabench_triton_request_duration_seconds_count", {"model": name, "outcome": outcome})
            or 0.0
        )

    async def calls():
        client = InferenceServerClient(stack.env["TRITON_URL"])
        try:
            await predict(client, config, model, "", {"statement": "What a lovely film."}, timeout_s=30)
            for name, timeout in ((model, 1e-6), ("no_such_model", 30)):
                try:
                    await predict(client, config, name, "", {"statement": "x"}, timeout_s=timeout)
                except ModelUnavailable:
                    pass
                else:
                    raise AssertionError(f"{name} answered")
        finally:
            await client.close()

    before = (count(model, "ok"), count(model, "timeout"), count("no_such_model", "unavailable"))
    asyncio.run(calls())
    after = (count(model, "ok"), count(model, "timeout"), count("no_such_model", "unavailable"))
    assert [b - a for a, b in zip(before, after)] == [1, 1, 1]


def test_hostile_operation_names_add_no_series(api, stack):
    url = stack.api_url + "/metrics"
    graphql = "dynabench_graphql_request_duration_seconds_count"
    api(TASKS)
    before = scrape(url)
    names = [f"Hostile_{uuid.uuid4().hex}" for _ in range(5)]
    for name in names:
        api(f"query {name} {TASKS}")
    raw = api.http.post("/graphql", json={"query": TASKS, "operationName": "NoSuchOperation" + "x" * 500})
    assert raw.status_code in (200, 400)
    after = scrape(url)
    assert label_values(after, graphql, "operation") <= label_values(before, graphql, "operation") | {"unknown"}
    assert not any("Hostile" in v or "NoSuch" in v for v in label_values(after, graphql, "operation"))
    assert (
        value(after, graphql, operation_type="query", operation="tasks")
        - value(before, graphql, operation_type="query", operation="tasks")
        == 5
    )


def test_request_ids_are_echoed_or_replaced_and_logged_as_json(api, stack):
    password = "an observable secret password"
    token = api.sign_up("obs-logger", password)
    mine = f"obs-{uuid.uuid4().hex}"
    response = api.http.post(
        "/graphql", json={"query": "{ me { username } }"}, headers={"X-Request-ID": mine, "Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200 and response.headers["x-request-id"] == mine
    for garbage in ("has spaces in it", "x" * 65, "semi;colon", ""):
        replaced = api.http.post("/graphql", json={"query": TASKS}, headers={"X-Request-ID": garbage}).headers["x-request-id"]
        assert replaced != garbage and 1 <= len(replaced) <= 64 and replaced.replace("-", "").isalnum()
    generated = {api.http.get("/health").headers["x-request-id"] for _ in range(3)}
    assert len(generated) == 3
    assert httpx.get(stack.api_url + "/no-such-page", timeout=30).headers["x-request-id"]  # 404s too

    log = stack.logs / "api-0.log"

    def my_lines():
        return [json.loads(line) for line in log.read_text(errors="replace").splitlines() if mine in line]

    lines = wait_until(my_lines, timeout=30)
    assert all(line["request_id"] == mine for line in lines)
    access = next(line for line in lines if line["logger"] == "dynabench.access")
    assert access["route"] == "/graphql" and access["status"] == 200 and access["duration_ms"] > 0
    assert set(access) >= {"ts", "level", "logger", "message", "request_id"}
    text = log.read_text(errors="replace")
    assert password not in text and token not in text


def test_worker_jobs_have_metrics_and_the_request_id_of_their_origin(api, stack, target_models):
    assert stack.worker_metrics_urls, "LocalStack gives each of its workers a metrics port"
    worker_url = stack.worker_metrics_urls[0]
    token, round_id, context_id = _writer(api)
    created = submit(api, token, round_id, context_id, {"statement": "Not my cup of tea."}, label="negative")
    example_id = created["example"]["id"]
    validator = api.sign_up("obs-validator")
    jobs = "dynabench_jobs_total"
    before = scrape(worker_url)
    request_id = f"obs-job-{uuid.uuid4().hex}"
    response = api.http.post(
        "/graphql",
        json={"query": VALIDATE, "variables": {"e": example_id}},
        headers={"X-Request-ID": request_id, "Authorization": f"Bearer {validator}"},
    )
    assert response.json()["data"]["validateExample"]["__typename"] == "ExampleValidated", response.text

    def aggregated():
        after = scrape(worker_url)
        done = value(after, jobs, function="aggregate_example", outcome="ok") - value(
            before, jobs, function="aggregate_example", outcome="ok"
        )
        return after if done >= 1 else None

    after = wait_until(aggregated, timeout=60)
    assert value(after, "dynabench_job_duration_seconds_count", function="aggregate_example") > value(
        before, "dynabench_job_duration_seconds_count", function="aggregate_example"
    )
    assert ("dynabench_job_queue_depth", frozenset({("state", "ready")})) in after
    assert value(after, jobs, function="recheck_pending_examples", outcome="ok") >= 1  # the cron sweeper ran

    # Every worker's log: an earlier test (a killed worker, a worker with other settings) may have replaced worker-0.
    def logged():
        return [
            json.loads(line)
            for log in sorted(stack.logs.glob("worker*.log"))
            for line in log.read_text(errors="replace").splitlines()
            if request_id in line
        ]

    lines = wait_until(logged)
    # The aggregation's own lines, and those of the jobs it enqueues (badges, notifications, webhooks), carry the id.
    assert all(line["request_id"] == request_id and line.get("job") for line in lines)
    assert any(line["job"] == "aggregate_example" and "aggregate_example" in line["message"] for line in lines)


def test_queue_depth_matches_the_queue_in_redis(stack):
    import time

    import redis
    from arq.constants import default_queue_name, job_key_prefix

    client = redis.Redis.from_url(stack.env["REDIS_URL"])
    url = stack.worker_metrics_urls[0]
    job_id = f"obs-probe-{uuid.uuid4().hex}"

    def in_redis():
        now_ms = int(time.time() * 1000)
        ready, total = client.zcount(default_queue_name, "-inf", now_ms), client.zcard(default_queue_name)
        return ready, total - ready

    def consistent():
        # Cron jobs come and go (enqueued up to 40 ms early): retry until Redis holds still around a scrape.
        first = in_redis()
        samples = scrape(url)
        gauge = (
            value(samples, "dynabench_job_queue_depth", state="ready"),
            value(samples, "dynabench_job_queue_depth", state="deferred"),
        )
        return gauge if first == in_redis() == gauge else None

    wait_until(consistent, timeout=30, interval=0.05)
    # A job deferred by an hour (for a round that does not exist), removed again below.
    client.set(job_key_prefix + job_id, b"probe", ex=600)
    client.zadd(default_queue_name, {job_id: int(time.time() * 1000) + 3_600_000})
    try:
        with_probe = wait_until(consistent, timeout=30, interval=0.05)
        assert with_probe[1] >= 1
    finally:
        client.zrem(default_queue_name, job_id)
        client.delete(job_key_prefix + job_id)
    wait_until(consistent, timeout=30, interval=0.05)  # and again without it
    client.close()


def test_subscriptions_are_timed_when_they_end(api, stack):
    from websockets.sync.client import connect

    seed_builtin_tasks()
    token = api.sign_up("obs-watcher")
    round_id = current_round(api, "sentiment")
    url = stack.api_url + "/metrics"
    name = "dynabench_graphql_subscription_duration_seconds_count"
    before = value(scrape(url), name, operation="roundStats")
    with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
        ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {
                        "query": "subscription($r: ID!) { roundStats(roundId: $r) { number } }",
                        "variables": {"r": round_id},
                    },
                }
            )
        )
        assert json.loads(ws.recv(timeout=30))["payload"]["data"] == {"roundStats": {"number": 1}}
        assert value(scrape(url), name, operation="roundStats") == before  # still open: not observed yet
        ws.send(json.dumps({"id": "1", "type": "complete"}))
        wait_until(lambda: value(scrape(url), name, operation="roundStats") == before + 1, timeout=30)


def test_triton_serves_its_own_metrics(stack, target_models):
    """docs/deploy.md links Triton's metrics endpoint (--allow-metrics, port 8002 in compose)."""
    text = httpx.get(stack.triton.metrics_url, timeout=30).text
    assert "nv_inference_request_success" in text and target_models["sentiment"] in text


def test_metrics_token_and_several_processes_behind_one_port(api, stack):
    """`dynabench serve --workers 2` with METRICS_TOKEN: the token is required, and whichever process
    answers the scrape reports the requests of both (prometheus_client's multiprocess mode)."""
    port, secret = free_port(), f"metrics-{uuid.uuid4().hex}"
    name = f"api-obs-{uuid.uuid4().hex[:6]}"
    proc = stack.group.spawn(
        name,
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"],
        env={**stack.env, "METRICS_TOKEN": secret},
        log_path=stack.logs / f"{name}.log",
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _status(base + "/health") == 200, timeout=120)
        assert _status(base + "/metrics") == 401
        assert _status(base + "/metrics", {"Authorization": "Bearer wrong"}) == 401
        auth = {"Authorization": f"Bearer {secret}"}
        count = "dynabench_graphql_request_duration_seconds_count"
        before = value(scrape(base + "/metrics", auth), count, operation_type="query", operation="tasks")
        for _ in range(8):  # a new connection each time: the two processes share the listening socket
            assert httpx.post(base + "/graphql", json={"query": TASKS}, timeout=30).status_code == 200
        for _ in range(3):
            assert value(scrape(base + "/metrics", auth), count, operation_type="query", operation="tasks") - before == 8
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _status(url: str, headers: dict | None = None) -> int:
    try:
        return httpx.get(url, headers=headers or {}, timeout=10).status_code
    except httpx.HTTPError:
        return 0
