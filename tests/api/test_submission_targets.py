"""Any model in the loop (issue #16, points 1 and 2): a researcher's evaluated, published submission judges a
round from the sandboxed submissions Triton, targets are checked live when a round opens or its targets
change, and a target that goes away leaves new examples pending while the round says which one is away."""

from __future__ import annotations

import base64
import json
import os
import uuid
from pathlib import Path

import pytest

from server.tasks.builtin import BUILTIN_TASKS
from tests.api.examples_helpers import NEXT_CONTEXT, submit, wait_until
from tests.api.models_helpers import create_dataset, model_status, upload_model
from tests.conftest import run_sql, submissions_triton
from tests.security.hostile import archive

SENTIMENT_CONFIG = BUILTIN_TASKS[0]["config"]
ERR = "... on InputError { fields { field message } } ... on Error { code message }"
ROUND = "round { id number targetModels { name version modelId status { ready } } }"
CREATE_ROUND = (
    f"mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename ... on RoundCreated {{ {ROUND} }} {ERR} }} }}"
)
SET_TARGETS = f"mutation($i: SetRoundTargetsInput!) {{ setRoundTargets(input: $i) {{ __typename ... on RoundTargetsSet {{ {ROUND} }} {ERR} }} }}"
IN_THE_LOOP = "query($m: ID!) { node(id: $m) { ... on Model { inTheLoop } } }"
FAILING_MODEL = """
class TritonPythonModel:
    def initialize(self, args):
        raise RuntimeError("this model never loads")
"""


def _task(api, token, code: str) -> None:
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": code, "name": code, "config": SENTIMENT_CONFIG}},
        token=token,
    )
    assert created["createTask"]["__typename"] == "TaskCreated"
    run_sql("UPDATE tasks SET status = 'PUBLIC' WHERE code = $1", code)  # approved (approveTask: test_task_lifecycle.py)


def _rows(n: int) -> bytes:
    labels = ("negative", "positive", "neutral")
    return "\n".join(
        json.dumps({"uid": f"r{i}", "statement": f"Sentence {i}.", "label": labels[i % 3]}) for i in range(n)
    ).encode()


def _evaluated(api, token, task: str, name: str, data: bytes) -> tuple[str, str]:
    uploaded = upload_model(api, token, task, name, data)
    assert uploaded["__typename"] == "ModelUploaded", uploaded
    model_id = uploaded["model"]["id"]
    wait_until(lambda: model_status(api, token, model_id)["status"] in ("evaluated", "failed"), timeout=600, interval=0.5)
    status = model_status(api, token, model_id)
    return model_id, status["status"]


@pytest.fixture
def loop(api, admin_token, community_model):
    """A task owned by `owner`, its scoring dataset, and two submissions of `researcher`: one that always says
    "positive" (evaluated) and one that never loads (failed)."""
    owner, researcher = api.sign_up("owner"), api.sign_up("researcher")
    _task(api, owner, "loop_task")
    assert create_dataset(api, admin_token, "loop_task", "loop-scoring", _rows(12))["__typename"] == "DatasetCreated"
    benign = archive("benign", {}, name="benign", replace={"BENIGN-MARKER-PLACEHOLDER": uuid.uuid4().hex})
    good, status = _evaluated(api, researcher, "loop_task", "always-positive", benign)
    assert status == "evaluated"
    broken = archive("benign", {}, name="broken", replace={"class TritonPythonModel:": FAILING_MODEL + "\n\nclass Unused:"})
    failed, status = _evaluated(api, researcher, "loop_task", "never-loads", broken)
    assert status == "failed"
    return {"owner": owner, "researcher": researcher, "good": good, "failed": failed, "community": community_model}


def _global_id(type_name: str, pk: int) -> str:
    return base64.b64encode(f"{type_name}:{pk}".encode()).decode()


def _open(api, token, targets, code="loop_task") -> dict:
    return api(CREATE_ROUND, {"i": {"taskCode": code, "targetModels": targets}}, token=token)["createRound"]


def test_an_evaluated_published_submission_judges_a_round_from_the_sandbox(api, loop):
    owner, researcher, good = loop["owner"], loop["researcher"], loop["good"]
    unpublished = _open(api, owner, [{"modelId": good}])
    assert unpublished["__typename"] == "InputError"
    assert unpublished["fields"] == [
        {
            "field": "targetModels.0.modelId",
            "message": "the model 'always-positive' is not published: its owner publishes it first",
        }
    ]
    failed = _open(api, owner, [{"modelId": loop["failed"]}])
    assert failed["fields"] == [
        {"field": "targetModels.0.modelId", "message": "the model 'never-loads' failed its deployment or evaluation"}
    ]
    api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": good}, token=researcher)
    assert api(IN_THE_LOOP, {"m": good})["node"]["inTheLoop"] == []

    opened = _open(api, owner, [{"modelId": good}])
    assert opened["__typename"] == "RoundCreated", opened
    triton_name = run_sql("SELECT triton_name FROM models WHERE name = 'always-positive'")[0]["triton_name"]
    assert opened["round"]["targetModels"] == [{"name": triton_name, "version": "1", "modelId": good, "status": {"ready": True}}]
    assert api(IN_THE_LOOP, {"m": good})["node"]["inTheLoop"] == [opened["round"]["number"]]

    round_id = opened["round"]["id"]
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Write about a film."}}]}},
        token=owner,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded"
    annotator = api.sign_up("annotator")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=annotator)["nextContext"]["id"]
    written = submit(api, annotator, round_id, context_id, {"statement": "A dull, lifeless film."}, label="negative")
    assert written["__typename"] == "ExampleSubmitted", written
    # The submission answered (it always says "positive"): the example fooled it.
    assert written["predictions"] == [
        {
            "modelName": triton_name,
            "modelVersion": "1",
            "label": "positive",
            "probabilities": [
                {"label": "negative", "probability": pytest.approx(0.1)},
                {"label": "positive", "probability": pytest.approx(0.8)},
                {"label": "neutral", "probability": pytest.approx(0.1)},
            ],
            "answer": None,
            "answerStart": None,
            "answerEnd": None,
            "confidence": None,
        }
    ]
    assert written["example"]["fooled"] is True and written["verdict"] == "FOOLED"


def test_targets_are_checked_when_a_round_opens(api, loop):
    owner = loop["owner"]
    missing = _open(api, owner, [{"name": "no_such_model", "version": "1"}])
    assert missing["fields"] == [
        {"field": "targetModels.0", "message": "'no_such_model' version 1: not loaded and ready in the target Triton"}
    ]
    assert _open(api, owner, [{"name": "submission_1"}])["fields"] == [
        {"field": "targetModels.0.name", "message": "names a submission: give its modelId instead"}
    ]
    both = _open(api, owner, [{"name": loop["community"], "modelId": loop["good"]}])
    assert both["fields"] == [{"field": "targetModels.0", "message": "give either modelId or name (and version), not both"}]
    not_a_model = run_sql("SELECT id FROM tasks WHERE code = 'loop_task'")[0]["id"]
    assert _open(api, owner, [{"modelId": _global_id("Task", not_a_model)}])["fields"] == [
        {"field": "targetModels.0.modelId", "message": "not a Model id"}
    ]
    # A submission of another task is not this task's to use.
    _task(api, owner, "other_task")
    api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": loop["good"]}, token=loop["researcher"])
    assert _open(api, owner, [{"modelId": loop["good"]}], code="other_task")["fields"] == [
        {"field": "targetModels.0.modelId", "message": "the model 'always-positive' was submitted to another task"}
    ]
    # A model that does not follow the task's I/O contract: the QA baseline has no "label" or "probs".
    admin = api.sign_up("loop-admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'loop-admin'")
    contract = _open(api, admin, [{"name": "qa_overlap_baseline", "version": "1"}])
    assert contract["__typename"] == "InputError"
    assert contract["fields"][0]["field"] == "targetModels.0"
    assert "does not follow the task's I/O contract" in contract["fields"][0]["message"], contract
    assert run_sql("SELECT count(*) AS n FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'loop_task'")[0]["n"] == 0


def test_targets_can_be_replaced_and_a_missing_one_leaves_examples_pending(api, loop, stack):
    owner, good = loop["owner"], loop["good"]
    api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": good}, token=loop["researcher"])
    opened = _open(api, owner, [{"name": loop["community"]}])
    round_id = opened["round"]["id"]
    stranger = api.sign_up("stranger")
    refused = api(SET_TARGETS, {"i": {"roundId": round_id, "targetModels": [{"modelId": good}]}}, token=stranger)
    assert refused["setRoundTargets"]["__typename"] == "PermissionError"
    changed = api(SET_TARGETS, {"i": {"roundId": round_id, "targetModels": [{"modelId": good}]}}, token=owner)["setRoundTargets"]
    assert changed["__typename"] == "RoundTargetsSet", changed
    assert [t["modelId"] for t in changed["round"]["targetModels"]] == [good]
    assert api(IN_THE_LOOP, {"m": good})["node"]["inTheLoop"] == [opened["round"]["number"]]

    # The submission goes away for good (unloaded, and its stored archive gone, so the worker cannot load it
    # again): new examples wait as pending, and the round says which target is away.
    triton_name = changed["round"]["targetModels"][0]["name"]
    stored = (
        Path(os.environ["MODEL_STORE_DIR"])
        / f"model-{run_sql('SELECT id FROM models WHERE triton_name = $1', triton_name)[0]['id']}.archive"
    )
    hidden = stored.rename(stored.with_name(stored.name + ".away"))
    submissions_triton(stack).unload_model(triton_name)
    wait_until(lambda: not submissions_triton(stack).is_model_ready(triton_name), timeout=60)
    api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Write about a film."}}]}},
        token=owner,
    )
    annotator = api.sign_up("annotator")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=annotator)["nextContext"]["id"]
    written = submit(api, annotator, round_id, context_id, {"statement": "A film."}, label="negative")
    assert written["__typename"] == "ExampleSubmitted" and written["verdict"] == "PENDING", written
    targets = "query($r: ID!) { node(id: $r) { ... on Round { targetModels { name status { ready } } } } }"
    # (readiness is cached for a few seconds)
    wait_until(
        lambda: api(targets, {"r": round_id})["node"]["targetModels"] == [{"name": triton_name, "status": {"ready": False}}],
        timeout=60,
    )
    # Once it can be, the worker's cron loads the round's target again, and the pending example is judged.
    hidden.rename(stored)
    wait_until(lambda: submissions_triton(stack).is_model_ready(triton_name), timeout=180, interval=1)
    verdict = "SELECT fooled FROM examples WHERE id = $1"
    example_pk = int(base64.b64decode(written["example"]["id"]).decode().split(":")[1])
    wait_until(lambda: run_sql(verdict, example_pk)[0]["fooled"] is not None, timeout=120, interval=1)
    assert run_sql(verdict, example_pk)[0]["fooled"] is True  # the model says "positive"; the annotator, negative
    # Replacing the targets of a closed round is refused.
    api("mutation($r: ID!) { closeRound(roundId: $r) { __typename } }", {"r": round_id}, token=owner)
    closed = api(SET_TARGETS, {"i": {"roundId": round_id, "targetModels": [{"name": loop["community"]}]}}, token=owner)
    assert closed["setRoundTargets"]["code"] == "CONFLICT"
