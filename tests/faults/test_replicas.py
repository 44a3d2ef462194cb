"""Two API processes and two workers on one PostgreSQL and one Redis, as compose runs replicas:
writes and votes spread over both APIs, jobs over both workers, and the numbers still add up."""

import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.api.examples_helpers import CREATE, NEXT_CONTEXT, current_round
from tests.api.test_validation import VALIDATE
from tests.conftest import run_sql, seed_builtin_tasks
from tests.faults.chaos import ApiProcess, wait_for
from tests.faults.checks import assert_counters_equal_rows, kill_workers, start_worker

AUTHORS = 6
PER_AUTHOR = 10


def _post(url, query, variables, token):
    response = httpx.post(
        url + "/graphql", json={"query": query, "variables": variables}, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert not body.get("errors"), body["errors"]
    return body["data"]


def test_two_apis_and_two_workers_share_the_work(stack, api, target_models):
    seed_builtin_tasks()
    kill_workers(stack)
    worker_logs = [start_worker(stack), start_worker(stack)]
    second = ApiProcess(stack)
    second.start()
    try:
        urls = [stack.api_url, second.url]
        round_id = current_round(api, "sentiment")
        authors = [api.sign_up(f"author{i}") for i in range(AUTHORS)]
        context_id = api(NEXT_CONTEXT, {"r": round_id}, token=authors[0])["nextContext"]["id"]

        def write(job):
            author, i = job
            variables = {
                "i": {
                    "roundId": round_id,
                    "contextId": context_id,
                    "fields": {"statement": f"Author {author[-6:]} wrote {i}."},
                    "label": ("negative", "positive", "neutral")[i % 3],
                    "clientId": str(uuid.uuid4()),
                }
            }
            return _post(urls[i % 2], CREATE, variables, author)["createExample"]

        with ThreadPoolExecutor(8) as pool:
            written = list(pool.map(write, [(a, i) for a in authors for i in range(PER_AUTHOR)]))
        assert all(w["__typename"] == "ExampleSubmitted" and w["verdict"] != "PENDING" for w in written)
        open_ids = [w["example"]["id"] for w in written if w["example"]["status"] == "open"]
        assert open_ids, "no example fooled the model; nothing to validate"
        voters = [api.sign_up(f"voter{n}") for n in range(3)]
        ballots = [(example_id, voter, n) for example_id in open_ids for n, voter in enumerate(voters)]
        with ThreadPoolExecutor(8) as pool:
            votes = list(
                pool.map(lambda b: _post(urls[b[2] % 2], VALIDATE, {"e": b[0], "l": "CORRECT"}, b[1])["validateExample"], ballots)
            )
        assert all(v["__typename"] == "ExampleValidated" for v in votes)
        wait_for(
            lambda: run_sql("SELECT count(*) AS n FROM validations WHERE NOT aggregated")[0]["n"] == 0,
            timeout=180,
            what="every vote to be aggregated",
        )
    finally:
        second.stop()
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == AUTHORS * PER_AUTHOR
    assert run_sql("SELECT count(*) AS n FROM examples WHERE status = 'validated'")[0]["n"] == len(open_ids)
    assert_counters_equal_rows()
    # Both workers took aggregation jobs from the one queue.
    jobs = [log.read_text().count("aggregate_example(") for log in worker_logs]
    assert all(n > 0 for n in jobs), jobs
