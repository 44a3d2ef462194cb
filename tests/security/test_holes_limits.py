"""Issue #15 point 6.4: sign-ups, task creation, model uploads and examples are limited per account and per client
address (server/core/rate_limits.py), on by default. The suite's stack raises the limits for the session (every
test comes from 127.0.0.1), so each test here starts an API process with low limits that trusts its loopback
peer's X-Forwarded-For, and plays several client addresses."""

import json
import os
import uuid

import redis

from server.core.settings import Settings
from tests.api.examples_helpers import NEXT_CONTEXT, current_round
from tests.authz.conftest import extra_api
from tests.conftest import run_sql, seed_builtin_tasks
from tests.security.holes_helpers import Client

TRUSTED = {"TRUSTED_PROXIES": "127.0.0.1"}
CREATE_TASK = """mutation($i: CreateTaskInput!) { createTask(input: $i) {
  __typename ... on Error { code message } ... on RateLimitedError { retryAfterSeconds } } }"""
UPLOAD = """mutation($t: String!, $n: String!, $a: Upload!) { uploadModel(taskCode: $t, name: $n, archive: $a) {
  __typename ... on Error { code message } ... on RateLimitedError { retryAfterSeconds } } }"""
SUBMIT = """mutation($i: [CreateExampleInput!]!) { submitExamples(inputs: $i) {
  __typename ... on Error { code message } ... on RateLimitedError { retryAfterSeconds } } }"""
CONFIG = {
    "kind": "classification",
    "context_fields": [{"name": "context", "max_length": 500}],
    "input_fields": [{"name": "statement", "max_length": 500}],
    "model_inputs": ["statement"],
    "labels": ["yes", "no"],
    "output_fields": ["label"],
    "fooling": {"metric": "exact_match"},
    "performance_metric": "accuracy",
}


def test_the_limits_are_on_by_default():
    defaults = Settings()
    assert defaults.signups_per_hour_per_address == 20
    assert (defaults.tasks_per_day, defaults.tasks_per_day_per_address) == (10, 20)
    assert (defaults.uploads_per_day, defaults.uploads_per_day_per_address) == (5, 20)
    assert (defaults.submissions_per_minute, defaults.submissions_per_minute_per_address) == (60, 300)
    assert (defaults.login_max_failures, defaults.login_failures_per_address) == (5, 50)
    assert defaults.trusted_proxies == ()


def test_sign_ups_per_address(stack, api):
    with extra_api(stack, {**TRUSTED, "SIGNUPS_PER_HOUR_PER_ADDRESS": "2"}) as (url, _):
        crowd, elsewhere = Client(url, "203.0.113.1"), Client(url, "203.0.113.2")
        assert [crowd.sign_up(f"crowd{i}")["__typename"] for i in range(2)] == ["AuthPayload", "AuthPayload"]
        refused = crowd.sign_up("crowd2")
        assert refused["__typename"] == "RateLimitedError" and refused["code"] == "RATE_LIMITED", refused
        assert refused["message"] == "At most 2 sign-ups per hour from one address; try again in 60 minutes."
        assert 3500 < refused["retryAfterSeconds"] <= 3600
        assert crowd.sign_up("crowd3")["__typename"] == "RateLimitedError"  # every attempt, refused or not
        assert elsewhere.sign_up("crowd2")["__typename"] == "AuthPayload"
        assert run_sql("SELECT count(*) AS n FROM users")[0]["n"] == 3
        crowd.close()
        elsewhere.close()


def test_task_creation_per_account_and_per_address(stack, api):
    with extra_api(stack, {**TRUSTED, "TASKS_PER_DAY": "2", "TASKS_PER_DAY_PER_ADDRESS": "3"}) as (url, _):
        office, home = Client(url, "198.51.100.1"), Client(url, "198.51.100.2")
        alice, bob = office.token("alice"), office.token("bob")

        def create(client: Client, token: str, code: str, config: dict = CONFIG) -> dict:
            return client(CREATE_TASK, {"i": {"code": code, "name": code, "config": config}}, token=token)["createTask"]

        assert create(office, alice, "first")["__typename"] == "TaskCreated"
        assert create(office, alice, "broken", {**CONFIG, "labels": ["yes"]})["__typename"] == "InputError"  # free
        assert create(office, alice, "second")["__typename"] == "TaskCreated"
        refused = create(office, alice, "third")
        assert refused["message"].startswith("At most 2 new tasks per day per account; try again in"), refused
        assert 0 < refused["retryAfterSeconds"] <= 86400
        assert create(office, bob, "bobs")["__typename"] == "TaskCreated"  # the office's third
        refused = create(office, bob, "bobs_second")
        assert refused["message"].startswith("At most 3 new tasks per day from one address"), refused
        assert create(home, bob, "bobs_second")["__typename"] == "TaskCreated"
        assert run_sql("SELECT count(*) AS n FROM tasks")[0]["n"] == 4
        office.close()
        home.close()


def _upload(client: Client, token: str, name: str) -> dict:
    operations = json.dumps({"query": UPLOAD, "variables": {"t": "sentiment", "n": name, "a": None}})
    response = client.http.post(
        "/graphql",
        data={"operations": operations, "map": json.dumps({"0": ["variables.a"]})},
        files={"0": ("model.tar.gz", b"this is not an archive", "application/octet-stream")},
        headers=client.headers(token),
    )
    assert response.status_code == 200, response.text
    return response.json()["data"]["uploadModel"]


def test_upload_attempts_per_account_and_per_address(stack, api):
    seed_builtin_tasks()
    with extra_api(stack, {**TRUSTED, "UPLOADS_PER_DAY": "1", "UPLOADS_PER_DAY_PER_ADDRESS": "2"}) as (url, _):
        lab, cafe = Client(url, "192.0.2.10"), Client(url, "192.0.2.11")
        first, second, third = lab.token("first"), lab.token("second"), lab.token("third")
        # Attempts count, whatever becomes of them: a refused archive (like a failed deploy) uses one up.
        assert _upload(lab, first, "try 1")["__typename"] != "RateLimitedError"
        refused = _upload(lab, first, "try 2")
        assert refused["__typename"] == "RateLimitedError", refused
        assert refused["message"].startswith("At most 1 upload per day per account; try again in")
        assert _upload(lab, second, "try 1")["__typename"] != "RateLimitedError"  # the lab's second
        refused = _upload(lab, third, "try 1")
        assert refused["message"].startswith("At most 2 uploads per day from one address"), refused
        assert _upload(cafe, third, "try 1")["__typename"] != "RateLimitedError"
        lab.close()
        cafe.close()


def test_examples_per_account_and_per_address(stack, api, target_models):
    seed_builtin_tasks()
    limits = {**TRUSTED, "SUBMISSIONS_PER_MINUTE": "3", "SUBMISSIONS_PER_MINUTE_PER_ADDRESS": "4"}
    with extra_api(stack, limits) as (url, _):
        classroom, library = Client(url, "100.64.0.1"), Client(url, "100.64.0.2")
        first, second = classroom.token("student1"), classroom.token("student2")
        round_id = current_round(classroom, "sentiment")
        context_id = classroom(NEXT_CONTEXT, {"r": round_id}, token=first)["nextContext"]["id"]

        def batch(n: int) -> list[dict]:
            return [
                {
                    "roundId": round_id,
                    "contextId": context_id,
                    "fields": {"statement": f"Sentence {uuid.uuid4().hex[:6]}."},
                    "label": "positive",
                    "clientId": str(uuid.uuid4()),
                }
                for _ in range(n)
            ]

        results = classroom(SUBMIT, {"i": batch(4)}, token=first)["submitExamples"]
        assert [r["__typename"] for r in results] == ["ExampleSubmitted"] * 3 + ["RateLimitedError"]
        assert results[3]["message"].startswith("At most 3 examples per minute per account; try again in")
        assert results[3]["message"].endswith("(unsent examples stay in your outbox).")
        assert 0 < results[3]["retryAfterSeconds"] <= 60
        # Redis forgets its scripts (a restart, SCRIPT FLUSH): the limits run by SHA send the script again and hold.
        redis.Redis.from_url(os.environ["REDIS_URL"]).script_flush()
        results = classroom(SUBMIT, {"i": batch(2)}, token=second)["submitExamples"]  # the classroom's 4th and 5th
        assert [r["__typename"] for r in results] == ["ExampleSubmitted", "RateLimitedError"]
        assert results[1]["message"].startswith("At most 4 examples per minute from one address")
        assert library(SUBMIT, {"i": batch(1)}, token=second)["submitExamples"][0]["__typename"] == "ExampleSubmitted"
        assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 5
        classroom.close()
        library.close()
