"""Hostile retraining recipes (issue #35, point 4): an uploaded classifier's own train.py runs on the worker's machine,
so it gets what a hostile model gets — nothing. It cannot reach the platform's services or the internet, read secrets
or other submissions, see the host's processes, become root or change its own inputs; what it writes is checked like
an upload; one that never ends is cancelled at once. Every failure is the run's, with the reason, and the task's
current target keeps judging its round."""

from __future__ import annotations

import json
import os
from pathlib import Path

import psutil
import pytest

from tests.api.examples_helpers import NEXT_CONTEXT, submit, wait_until
from tests.api.retraining_helpers import (
    insert_validated,
    open_round,
    retrainable_archive,
    run_of,
    task_judged_by_upload,
    train,
    wait_for_end,
)
from tests.conftest import GraphQLClient, run_sql
from tests.security.hostile import MODELS, probe_results, service_addresses
from tests.stack_helpers import clear_job_queue, clear_rate_limits, empty_tables, wait_for_running_jobs

HOSTILE_TRAIN = (MODELS.parent / "train_hostile.py").read_text()
CANCEL = "mutation($r: ID!) { cancelTrainingRun(runId: $r) { __typename ... on Error { code message } } }"


@pytest.fixture(scope="module")
def hostile(stack) -> dict:
    """Clean tables once, and the task judged by the hostile upload for the whole module (each test opens a round of
    its own); the tests use this client, not the `api` fixture, which would empty the tables again."""
    clear_job_queue()
    wait_for_running_jobs()
    clear_rate_limits()
    empty_tables()
    client = GraphQLClient(stack.api_url)
    admin = client.sign_up("hostile-retrain-admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'hostile-retrain-admin'")
    world = task_judged_by_upload(client, admin, "hostile_retrain", retrainable_archive(HOSTILE_TRAIN))
    world["api"] = client
    yield world
    client.http.close()


def _run_with(api, world: dict, params: dict) -> tuple[str, dict]:
    """A run of the hostile recipe on a fresh round (still judged by the upload) whose data asks for `params`."""
    round_ = open_round(api, world, [{"modelId": world["model"]}])
    rows = [{"text": "HOSTILE " + json.dumps(params), "label": "positive"}]
    rows += [{"text": f"Filler {i}: a fine day.", "label": "positive"} for i in range(12)]
    insert_validated(world, round_["number"], rows)
    started = train(api, world, [round_["number"]], min_held_out=1)
    return started["id"], round_


def _last_message(run: dict) -> str:
    return run["statusLog"][-1]["message"]


def _still_judged_by_the_upload(api, world: dict, round_: dict) -> None:
    annotator = api.sign_up(f"judged_{round_['number']}")
    context = api(NEXT_CONTEXT, {"r": round_["id"]}, token=annotator)["nextContext"]
    written = submit(api, annotator, round_["id"], context["id"], {"statement": "great food"}, label="positive")
    assert written["__typename"] == "ExampleSubmitted", written
    assert written["predictions"][0]["modelName"] == round_["targetModels"][0]["name"]
    assert written["predictions"][0]["label"] == "positive"


def test_the_recipe_reaches_nothing_of_the_platform(hostile, stack):
    api = hostile["api"]

    targets = service_addresses(stack)
    paths = {
        "secrets-file": str(stack.data_dir / "secrets.json"),
        "data-dir": str(stack.data_dir),
        "model-store": os.environ["MODEL_STORE_DIR"],
        "checkout": str(Path(__file__).resolve()),  # the platform's own code and files beside the virtualenv
    }
    run_id, round_ = _run_with(api, hostile, {"mode": "probe", "tcp_targets": targets, "paths": paths})
    run = wait_for_end(api, hostile["owner"], run_id)
    assert run["status"] == "failed", run["statusLog"]
    message = _last_message(run)
    assert "train.py did not finish: it ended with exit status 3" in message, message
    results = probe_results(message)
    expected = {*targets, *paths, "dns", "etc-shadow", "environment", "write-model", "write-data", "processes", "root"}
    assert expected <= set(results), f"probes missing from the report: {sorted(expected - set(results))}: {message}"
    assert {name: outcome for name, outcome in results.items() if outcome != "BLOCKED"} == {}, message
    assert run["newModelId"] is None
    _still_judged_by_the_upload(api, hostile, round_)


def test_a_model_that_breaks_the_contract_is_refused_like_an_upload(hostile):
    api = hostile["api"]
    run_id, round_ = _run_with(api, hostile, {"mode": "malformed"})
    run = wait_for_end(api, hostile["owner"], run_id)
    assert run["status"] == "failed" and run["newModelId"] is None, run["statusLog"]
    message = _last_message(run)
    assert "What train.py wrote was refused, as an upload would be:" in message and "probs" in message, message
    _still_judged_by_the_upload(api, hostile, round_)


def test_output_without_end_fills_only_its_own_small_disk(hostile):
    api = hostile["api"]
    run_id, round_ = _run_with(api, hostile, {"mode": "flood"})
    run = wait_for_end(api, hostile["owner"], run_id)
    assert run["status"] == "failed", run["statusLog"]
    assert "No space left on device" in _last_message(run), _last_message(run)
    _still_judged_by_the_upload(api, hostile, round_)


def test_a_recipe_that_never_ends_is_cancelled_at_once(hostile):
    api = hostile["api"]
    run_id, round_ = _run_with(api, hostile, {"mode": "hang"})

    def sandboxed() -> list[psutil.Process]:
        return [p for p in psutil.process_iter(["cmdline"]) if "/sandbox/data" in " ".join(p.info["cmdline"] or [])]

    wait_until(lambda: sandboxed() and run_of(api, hostile["owner"], run_id)["status"] == "training", timeout=120)
    cancelled = api(CANCEL, {"r": run_id}, token=hostile["owner"])["cancelTrainingRun"]
    assert cancelled["__typename"] == "TrainingRunCancelled", cancelled
    run = wait_for_end(api, hostile["owner"], run_id, timeout=60)
    assert run["status"] == "cancelled" and "while training" in _last_message(run), run["statusLog"]
    wait_until(lambda: not sandboxed(), timeout=30)
    _still_judged_by_the_upload(api, hostile, round_)
