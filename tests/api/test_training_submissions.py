"""Retraining an owner's uploaded classifier that judges a round (issue #35, point 4): its own train.py runs in the
sandbox on the round's validated examples, the output is checked like an upload and becomes a new model of the same
owner, deployed and evaluated in the submissions Triton, judged by the gate there, and the next round opens with it."""

from __future__ import annotations

import numpy as np
from strawberry.relay import from_base64
from tritonclient.http import InferInput

from server.training.gate import is_held_out
from tests.api.examples_helpers import NEXT_CONTEXT, submit
from tests.api.retraining_helpers import (
    insert_validated,
    retrainable_archive,
    run_of,
    task_judged_by_upload,
    train,
    wait_for_end,
)
from tests.conftest import run_sql, submissions_triton

OPEN_NEXT = """mutation($t: String!, $v: String!) { openNextRound(taskCode: $t, modelVersion: $v) {
  __typename ... on NextRoundOpened { round { id number targetModels { name version modelId } } } ... on Error { code message } } }"""
MODEL = "query($m: ID!) { node(id: $m) { ... on Model { name status published retrainedFromId } } }"
# Words the uploaded model has never seen, one pair per label: it gets these wrong until it is trained on them.
NEW_WORDS = {"positive": "splendid marvellous", "negative": "dreadful abysmal", "neutral": "tuesday receipt"}


def _label_of(stack, triton_name: str, text: str) -> str:
    client = submissions_triton(stack)
    tensor = InferInput("statement", [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[text.encode()]], dtype=object))
    return client.infer(triton_name, [tensor]).as_numpy("label")[0][0].decode()


def test_an_uploaded_classifier_is_retrained_by_its_own_train_py(stack, api, admin_token):
    world = task_judged_by_upload(api, admin_token, "retrain_upload", retrainable_archive())
    number = world["round"]["number"]
    rows = [{"text": f"Visit {i}: {NEW_WORDS[label]}.", "label": label} for i in range(90) for label in [list(NEW_WORDS)[i % 3]]]
    ids = insert_validated(world, number, rows)
    held_out = sum(is_held_out(i) for i in ids)
    [source] = run_sql("SELECT triton_name FROM models WHERE id = $1", int(from_base64(world["model"])[1]))
    assert _label_of(stack, source["triton_name"], "Visit 7: splendid marvellous.") != "positive"  # it has to learn it

    # Only the task's owners (and admins) retrain; the model's owner is not one of them.
    denied = api(
        "mutation($t: String!) { trainTargetModel(taskCode: $t, fromRounds: [1]) { __typename } }",
        {"t": world["code"]},
        token=world["researcher"],
    )["trainTargetModel"]
    assert denied["__typename"] == "PermissionError"

    started = train(api, world, [number])
    assert started["sourceModelId"] == world["model"] and started["modelName"] == "naive bayes"  # not its Triton name
    run = wait_for_end(api, world["owner"], started["id"])
    assert run["status"] == "published", run["statusLog"]
    new_model = run["newModelId"]
    new_pk = int(from_base64(new_model)[1])
    assert run["modelVersion"] == f"model-{new_pk}"
    data = run["trainingData"]
    assert data["validatedExamples"] == len(ids) - held_out == run["nValidated"]
    assert data["validatedHeldOut"] == held_out and data["validatedRead"] == len(ids)
    assert "train.py" in data["startedFrom"]
    gate = run["gate"]
    assert gate["passed"] and gate["heldOut"]["better"] and gate["heldOut"]["examples"] == held_out
    assert gate["heldOut"]["newError"] == 0.0 < gate["heldOut"]["currentError"]
    assert gate["currentVersion"] == f"model {from_base64(world['model'])[1]}" and gate["newVersion"] == f"model {new_pk}"
    assert any("added" in entry["message"] or "train.py" in entry["message"] for entry in run["statusLog"])
    assert run["cpuSeconds"] > 0 and run["wallSeconds"] > 0

    # A new model of the researcher's (not the task owner's), published once the gate offered it.
    built = api(MODEL, {"m": new_model}, token=world["researcher"])["node"]
    assert built["status"] == "evaluated" and built["published"] and built["retrainedFromId"] == world["model"]
    [owner_of] = run_sql(
        "SELECT u.username FROM models m JOIN users u ON u.id = m.owner WHERE m.id = $1 AND m.retrained_from = $2",
        new_pk,
        int(from_base64(world["model"])[1]),
    )
    assert owner_of["username"] == "retrain_upload_researcher"
    [new_row] = run_sql("SELECT triton_name FROM models WHERE id = $1", new_pk)
    assert _label_of(stack, new_row["triton_name"], "Visit 1000: splendid marvellous.") == "positive"
    assert _label_of(stack, new_row["triton_name"], "Visit 1001: dreadful abysmal.") == "negative"

    # The next round is judged by the retrained model; an annotator's example is answered by it.
    opened = api(OPEN_NEXT, {"t": world["code"], "v": run["modelVersion"]}, token=world["owner"])["openNextRound"]
    assert opened["__typename"] == "NextRoundOpened", opened
    assert opened["round"]["targetModels"] == [{"name": new_row["triton_name"], "version": "1", "modelId": new_model}]
    annotator = api.sign_up("retrain_annotator")
    context = api(NEXT_CONTEXT, {"r": opened["round"]["id"]}, token=annotator)["nextContext"]
    written = submit(api, annotator, opened["round"]["id"], context["id"], {"statement": "A splendid lunch."}, label="positive")
    assert written["__typename"] == "ExampleSubmitted", written
    assert written["predictions"][0]["modelName"] == new_row["triton_name"]
    assert written["predictions"][0]["label"] == "positive" and written["verdict"] != "FOOLED"
    # The run is the task owner's to read; the model's owner does not see the task's training runs.
    assert run_of(api, world["researcher"], started["id"]) is None


OVERRIDE = """mutation($r: ID!, $why: String!) { overrideTrainingGate(runId: $r, reason: $why) {
  __typename ... on TrainingGateOverridden { run { status overrideReason } } ... on Error { code message } } }"""


def _rejected_run(api, admin_token, code: str) -> tuple[dict, dict]:
    """A task judged by the naive Bayes upload and a retraining run the gate rejected: (the world, the run)."""
    world = task_judged_by_upload(api, admin_token, code, retrainable_archive())
    number = world["round"]["number"]
    # The same new words under every label: nothing to learn, so the new model is no better on the held-out share.
    rows = [{"text": f"Visit {i}: splendid marvellous.", "label": ("negative", "positive", "neutral")[i % 3]} for i in range(90)]
    insert_validated(world, number, rows)
    run = wait_for_end(api, world["owner"], train(api, world, [number])["id"])
    assert run["status"] == "rejected" and run["newModelId"], run["statusLog"]
    return world, run


def test_a_version_no_better_is_rejected_until_an_owner_overrides_the_gate(stack, api, admin_token):
    world, run = _rejected_run(api, admin_token, "retrain_reject")
    # Not offered, so not published: the model's owner sees it, the task's owner does not.
    assert api(MODEL, {"m": run["newModelId"]}, token=world["researcher"])["node"]["published"] is False
    assert api(MODEL, {"m": run["newModelId"]}, token=world["owner"])["node"] is None
    assert run["gate"]["passed"] is False and run["gate"]["heldOut"]["better"] is False
    refused = api(OPEN_NEXT, {"t": world["code"], "v": run["modelVersion"]}, token=world["owner"])["openNextRound"]
    assert refused["__typename"] == "ConflictError" and "rejected by the retraining gate" in refused["message"]

    why = "The held-out examples repeat one sentence; we want the counts anyway."
    overridden = api(OVERRIDE, {"r": run["id"], "why": why}, token=world["owner"])
    assert overridden["overrideTrainingGate"]["__typename"] == "TrainingGateOverridden", overridden
    assert api(MODEL, {"m": run["newModelId"]}, token=world["owner"])["node"]["published"] is True  # offered now
    opened = api(OPEN_NEXT, {"t": world["code"], "v": run["modelVersion"]}, token=world["owner"])["openNextRound"]
    assert opened["__typename"] == "NextRoundOpened", opened
    assert opened["round"]["targetModels"][0]["modelId"] == run["newModelId"]


TAKE_DOWN = """mutation($m: ID!, $why: String!) { takeDownModel(modelId: $m, reason: $why) {
  __typename ... on Error { code message } } }"""
RETRAIN = """mutation($t: String!) { trainTargetModel(taskCode: $t, fromRounds: [1]) { __typename
  ... on InputError { fields { field message } } } }"""


def test_a_model_an_administrator_took_down_is_not_offered_again_nor_retrained(stack, api, admin_token):
    world, run = _rejected_run(api, admin_token, "retrain_takedown")
    # The rejected version is taken down; the task owner's override is recorded, but the model stays unpublished and
    # cannot judge the next round.
    taken = api(TAKE_DOWN, {"m": run["newModelId"], "why": "copied weights"}, token=admin_token)["takeDownModel"]
    assert taken["__typename"] == "ModelTakenDown", taken
    overridden = api(OVERRIDE, {"r": run["id"], "why": "We want it anyway."}, token=world["owner"])["overrideTrainingGate"]
    assert overridden["__typename"] == "TrainingGateOverridden", overridden
    assert api(MODEL, {"m": run["newModelId"]}, token=world["researcher"])["node"]["published"] is False
    refused = api(
        OPEN_NEXT.replace("message }", "message } ... on InputError { fields { message } }"),
        {"t": world["code"], "v": run["modelVersion"]},
        token=world["owner"],
    )["openNextRound"]
    assert refused["__typename"] == "InputError", refused
    assert "taken down by an administrator" in refused["fields"][0]["message"], refused
    # The upload that judged the (now closed) round, taken down: its code does not run again to build another version.
    closed = api(
        "mutation($r: ID!) { closeRound(roundId: $r) { __typename } }", {"r": world["round"]["id"]}, token=world["owner"]
    )
    assert closed["closeRound"]["__typename"] == "RoundClosed", closed
    taken = api(TAKE_DOWN, {"m": world["model"], "why": "copied weights"}, token=admin_token)["takeDownModel"]
    assert taken["__typename"] == "ModelTakenDown", taken
    answer = api(RETRAIN, {"t": world["code"]}, token=world["owner"])["trainTargetModel"]
    assert answer["__typename"] == "InputError" and "taken down by an administrator" in answer["fields"][0]["message"], answer


def test_a_target_without_a_recipe_says_what_to_add(stack, api, admin_token):
    world = task_judged_by_upload(api, admin_token, "retrain_none", retrainable_archive(""))
    answer = api(
        """mutation($t: String!) { trainTargetModel(taskCode: $t, fromRounds: [1]) { __typename
           ... on InputError { fields { field message } } } }""",
        {"t": world["code"]},
        token=world["owner"],
    )["trainTargetModel"]
    assert answer == {
        "__typename": "InputError",
        "fields": [
            {
                "field": "taskCode",
                "message": "the task's current target cannot be retrained: the uploaded model 'naive bayes' has no "
                "train.py beside its model.py, so there is no recipe to retrain it with (its owner can upload a version "
                "that has one: triton_models/README.md)",
            }
        ],
    }
