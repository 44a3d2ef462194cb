"""Closing the loop through GraphQL: retrain the target model from validated examples (a real fast-profile
training run in the worker), serve the new version next to the old one, open the next round with it."""

import hashlib
import json
import re
import shutil
from datetime import timedelta

import numpy as np
import tritonclient.http as triton_http
from strawberry.relay import from_base64
from websockets.sync.client import connect

from server.modelbuild.continuation import in_dev_split
from server.training.gate import is_held_out
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, submit, wait_until
from tests.api.models_helpers import create_dataset
from tests.conftest import SHARED_DATA, run_sql, seed_builtin_tasks, target_triton

VALIDATE = "mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) { __typename } }"
TRAIN = """mutation($t: String!, $r: [Int!]!, $p: TrainingProfile!, $a: Boolean = true) {
  trainTargetModel(taskCode: $t, fromRounds: $r, profile: $p, includeAgreed: $a) {
  __typename ... on TrainingStarted { run { id status modelName includeAgreed } } ... on InputError { message fields { field message } }
  ... on Error { code message } } }"""
OPEN_NEXT = """mutation($t: String!, $v: String!) { openNextRound(taskCode: $t, modelVersion: $v) {
  __typename ... on NextRoundOpened { round { id number targetModels { name version } } } ... on Error { code message } } }"""
FOLLOW = """subscription($r: ID!) { trainingRunUpdated(runId: $r) {
  status progress modelVersion nValidated metrics statusLog { status message }
  gate { passed currentVersion newVersion heldOut { examples minimum enough better } } } }"""
OVERRIDE = """mutation($r: ID!, $why: String!) { overrideTrainingGate(runId: $r, reason: $why) {
  __typename ... on TrainingGateOverridden { run { status overriddenBy overrideReason } } ... on Error { code message } } }"""
ENDED = ("published", "rejected", "failed", "cancelled")
RUN = """query($id: ID!) { node(id: $id) { ... on TrainingRun { status modelVersion nValidated statusLog { message }
  includeAgreed trainingData { validatedExamples validatedAvailable validatedRead agreedRead validatedHeldOut validatedByLabel { label count } validatedDigest
                 validatedShare minDraws seedExamples steps validatedDev bestStep startedFrom } } } }"""
# Validated examples written straight into round 1 (thousands through validateExample would take minutes);
# $5 = how many, labels: the first $6 positive, then negative and neutral alternately; $7 the status (a closed one did
# not fool the model: the model agreed with its label).
INSERT_VALIDATED = """
INSERT INTO examples (client_id, round, context, "user", input, model_output, fooled, status, retracted, flagged,
                      flag_reason, explanation, pending_reason, model_name, model_version, created_at)
SELECT gen_random_uuid(), $1, $2, $3,
       jsonb_build_object('statement', 'Visit ' || i || ': ' || (ARRAY['the staff smiled all evening.',
           'the soup came cold, twice.', 'we ordered the set menu.'])[CASE WHEN i <= $6 THEN 1 ELSE 2 + i % 2 END],
           'label', (ARRAY['positive', 'negative', 'neutral'])[CASE WHEN i <= $6 THEN 1 ELSE 2 + i % 2 END]),
       '{}', $7 <> 'closed', $7, $8, false, '', '', '', $4, '1', now()
  FROM generate_series(1, $5) AS i
RETURNING id, input->>'label' AS label
"""


def _infer(url, model, version, text):
    client = triton_http.InferenceServerClient(url)
    tensor = triton_http.InferInput("statement", [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[text.encode()]], dtype=object))
    try:
        result = client.infer(model, [tensor], model_version=version)
        return result.as_numpy("label")[0][0].decode(), result.get_response()["model_version"]
    finally:
        client.close()


def _round_one_place(model):
    """(round, first context, author) ids of sentiment's round 1 and the model: INSERT_VALIDATED's first parameters."""
    [where] = run_sql(
        "SELECT r.id AS round, (SELECT min(c.id) FROM contexts c WHERE c.round = r.id) AS context, "
        "(SELECT id FROM users WHERE username = 'author') AS author FROM rounds r JOIN tasks t ON t.id = r.task "
        "WHERE t.code = 'sentiment' AND r.number = 1"
    )
    return where["round"], where["context"], where["author"], model


def _validated_round(api):
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    examples = [
        fooling_example(api, author, round_id, context_id, f"The waiter smiled the whole evening, story {i}.") for i in range(4)
    ]
    for i in range(3):
        voter = api.sign_up(f"voter{i}")
        for example in examples:
            api(VALIDATE, {"e": example["id"]}, token=voter)
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM examples WHERE status = 'validated'")[0]["n"] == 4)
    return author, round_id, examples


def test_retrain_publish_and_open_next_round(stack, api, admin_token, target_models):
    model = target_models["sentiment"]
    model_dir = stack.model_repository / model
    try:
        author, _round_id, examples = _validated_round(api)
        # Examples the model agreed with, which the task does not validate: this run leaves them out (includeAgreed).
        run_sql(INSERT_VALIDATED, *_round_one_place(model), 6, 0, "closed", False)
        sample = [json.loads(line) for line in (SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-test.jsonl").open()]
        sample = [
            {"uid": r["text_id"], "statement": r["sentence"], "label": r["gold_label"]}
            for r in sample
            if r.get("gold_label") in ("positive", "negative", "neutral")
        ][:40]
        created = create_dataset(
            api, admin_token, "sentiment", "dynasent-sample", "\n".join(json.dumps(r) for r in sample).encode()
        )
        assert created["__typename"] == "DatasetCreated", created
        started = api(TRAIN, {"t": "sentiment", "r": [1], "p": "FAST", "a": False}, token=admin_token)["trainTargetModel"]
        assert started["__typename"] == "TrainingStarted" and started["run"]["modelName"] == model, started
        assert started["run"]["includeAgreed"] is False
        again = api(TRAIN, {"t": "sentiment", "r": [1], "p": "FAST"}, token=admin_token)["trainTargetModel"]
        assert again["__typename"] == "ConflictError" and "already running" in again["message"]

        seen = []
        with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {admin_token}"}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
            ws.send(
                json.dumps(
                    {"id": "t", "type": "subscribe", "payload": {"query": FOLLOW, "variables": {"r": started["run"]["id"]}}}
                )
            )
            while not seen or seen[-1]["status"] not in ENDED:
                message = json.loads(ws.recv(timeout=600))
                assert message["type"] == "next" and not message["payload"].get("errors"), message
                seen.append(message["payload"]["data"]["trainingRunUpdated"])
        final = seen[-1]
        # Four validated examples leave too few held out for the gate: rejected, the current target stays.
        held = sum(is_held_out(int(from_base64(e["id"])[1])) for e in examples)
        assert final["status"] == "rejected", final["statusLog"]
        assert final["gate"]["heldOut"] == {"examples": held, "minimum": 30, "enough": False, "better": False}
        assert (final["gate"]["currentVersion"], final["gate"]["newVersion"], final["gate"]["passed"]) == ("1", "2", False)
        assert "Not enough held-out examples" in final["statusLog"][-1]["message"]
        refused = api(OPEN_NEXT, {"t": "sentiment", "v": "2"}, token=admin_token)["openNextRound"]
        assert refused["__typename"] == "ConflictError" and "rejected by the retraining gate" in refused["message"]
        why = "Too few validated examples for the gate yet; this version adds them."
        overridden = api(OVERRIDE, {"r": started["run"]["id"], "why": why}, token=admin_token)["overrideTrainingGate"]
        assert overridden["run"] == {"status": "published", "overriddenBy": "root-admin", "overrideReason": why}, overridden
        assert final["modelVersion"] == "2" and final["nValidated"] == 4 - held and final["progress"] == 1.0
        assert 0.3 < final["metrics"]["heldout"] <= 1.0 and final["metrics"]["heldout_metric"] == "accuracy"
        assert [e["status"] for e in final["statusLog"]][:2] == ["queued", "training"]
        assert len({s["progress"] for s in seen}) >= 3  # progress moved live, not only at the end
        # Scored on the scoring dataset with the evaluation job's metrics, equal to independent calls of version 2.
        [score] = final["metrics"]["scores"]
        independent = (
            100.0
            * sum(_infer(stack.env["TRITON_URL"], model, "2", r["statement"])[0] == r["label"] for r in sample)
            / len(sample)
        )
        assert score["dataset"] == "dynasent-sample" and score["n"] == 40 and abs(score["perf"] - independent) < 1e-9
        assert 0.0 <= score["robustness"] <= 1.0
        assert score["fairness"] is None or 0.0 <= score["fairness"] <= 1.0
        metadata = json.loads((model_dir / "2" / "metadata.json").read_text())
        assert metadata["n_validated_examples"] == 4 - held and metadata["version"] == 2

        # Both versions are served: round 1's examples stay reproducible with version 1.
        assert _infer(stack.env["TRITON_URL"], model, "2", "Lovely staff.")[1] == "2"
        assert _infer(stack.env["TRITON_URL"], model, "1", "Lovely staff.")[1] == "1"

        assert api(OPEN_NEXT, {"t": "sentiment", "v": "9"}, token=admin_token)["openNextRound"]["__typename"] == "InputError"
        assert api(OPEN_NEXT, {"t": "sentiment", "v": "2"}, token=author)["openNextRound"]["code"] == "FORBIDDEN"
        opened = api(OPEN_NEXT, {"t": "sentiment", "v": "2"}, token=admin_token)["openNextRound"]
        assert opened["round"]["number"] == 2 and opened["round"]["targetModels"] == [{"name": model, "version": "2"}]
        assert current_round(api, "sentiment") == opened["round"]["id"]
        counts = run_sql(
            "SELECT r.number, r.end_at IS NOT NULL AS closed, count(c.id) AS contexts FROM rounds r "
            "JOIN tasks t ON t.id = r.task LEFT JOIN contexts c ON c.round = r.id WHERE t.code = 'sentiment' "
            "GROUP BY r.number, r.end_at ORDER BY r.number"
        )
        assert [(c["number"], c["closed"]) for c in counts] == [(1, True), (2, False)]
        assert counts[0]["contexts"] == counts[1]["contexts"] > 0
        context_id = api(NEXT_CONTEXT, {"r": opened["round"]["id"]}, token=author)["nextContext"]["id"]
        written = submit(api, author, opened["round"]["id"], context_id, {"statement": "Lovely staff."}, label="positive")
        assert written["example"]["modelVersion"] == "2"
        assert written["predictions"][0]["label"] == _infer(stack.env["TRITON_URL"], model, "2", "Lovely staff.")[0]
    finally:
        # Later tests expect version 1 alone.
        shutil.rmtree(model_dir / "2", ignore_errors=True)
        client = target_triton(stack)
        client.load_model(model)
        client.close()


def test_training_refusals(api, admin_token, target_models):
    seed_builtin_tasks()
    stranger = api.sign_up("stranger")
    assert api(TRAIN, {"t": "sentiment", "r": [1], "p": "FAST"}, token=stranger)["trainTargetModel"]["code"] == "FORBIDDEN"
    assert api(TRAIN, {"t": "sentiment", "r": [1], "p": "FAST"})["trainTargetModel"]["__typename"] == "AuthenticationError"
    bad = api(TRAIN, {"t": "sentiment", "r": [1, 7], "p": "FAST"}, token=admin_token)["trainTargetModel"]
    assert bad["__typename"] == "InputError" and bad["fields"] == [{"field": "fromRounds", "message": "the task has no round 7"}]
    assert api(TRAIN, {"t": "nope", "r": [], "p": "FAST"}, token=admin_token)["trainTargetModel"]["__typename"] == "NotFoundError"
    assert run_sql("SELECT count(*) AS n FROM training_runs")[0]["n"] == 0
    # A run whose job was lost hours ago no longer blocks the task; a recent active one still does.
    insert = (
        "INSERT INTO training_runs (task, requested_by, status, created_at) SELECT t.id, u.id, 'queued', now() - $1::interval "
        "FROM tasks t, users u WHERE t.code = 'sentiment' AND u.username = 'root-admin'"
    )
    run_sql(insert, timedelta(hours=4))
    run_sql(insert, timedelta(minutes=1))
    busy = api(TRAIN, {"t": "sentiment", "r": [1], "p": "FAST"}, token=admin_token)["trainTargetModel"]
    assert busy["__typename"] == "ConflictError" and "already running" in busy["message"]
    rows = run_sql("SELECT status, status_log::text AS log FROM training_runs ORDER BY created_at")
    assert rows[0]["status"] == "failed" and "Abandoned" in rows[0]["log"] and rows[1]["status"] == "queued"


def test_cli_train_follows_the_run_to_the_end(stack, api, admin_token, target_models):
    import os
    import subprocess
    import sys

    seed_builtin_tasks()
    model_dir = stack.model_repository / target_models["sentiment"]
    env = {**os.environ, **stack.env, "DYNABENCH_TOKEN": admin_token}
    command = [
        sys.executable,
        "-m",
        "server.cli",
        "train",
        "--task",
        "sentiment",
        "--profile",
        "fast",
        "--api-url",
        stack.api_url,
    ]
    refused = subprocess.run([*command, "--rounds", "5"], env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and "the task has no round 5" in refused.stderr
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)  # seed data only
        # No held-out examples: the gate rejects the version; the CLI prints both comparisons and exits 3.
        assert done.returncode == 3, done.stderr
        summary = json.loads(done.stdout.strip().splitlines()[-1])
        assert summary["version"] == "2" and summary["validated_examples"] == 0 and summary["heldout"] > 0.3
        assert summary["status"] == "rejected" and summary["gate"]["passed"] is False
        assert "Not enough held-out examples: 0 in the gate set" in done.stdout
        assert re.search(r"\b(\d+)/\1\b", done.stderr)  # the progress bar reached the end
        assert run_sql("SELECT status, model_version FROM training_runs") == [{"status": "rejected", "model_version": "2"}]
    finally:
        shutil.rmtree(model_dir / "2", ignore_errors=True)
        client = target_triton(stack)
        client.load_model(target_models["sentiment"])
        client.close()


def test_retrain_trains_on_every_validated_example(stack, api, admin_token, target_models):
    """More validated examples of one label than the recipe's per-label cap: the run says it trained on all N, and
    the new version's metadata lists exactly their ids, with the non-fooling ones the model agreed with that nobody
    validated (closed); retracted, open, rejected and flagged examples are not among them."""
    from server.modelbuild.train import PROFILES

    model = target_models["sentiment"]
    model_dir = stack.model_repository / model
    cap = PROFILES["fast"]["sentiment"].max_per_class
    try:
        seed_builtin_tasks()
        api.sign_up("author")
        place = _round_one_place(model)
        # A fifth is held out for the gate and ~12% of the rest as the development split: enough that the trained-on
        # positives alone still exceed the cap.
        inserted = run_sql(INSERT_VALIDATED, *place, cap * 3 // 2 + 150, cap * 3 // 2 + 110, "validated", False)
        agreed = run_sql(INSERT_VALIDATED, *place, 40, 0, "closed", False)  # read with the validated ones
        inserted += agreed
        for status, retracted in (
            ("validated", True),
            ("closed", True),
            ("open", False),
            ("rejected", False),
            ("flagged", False),
        ):
            run_sql(INSERT_VALIDATED, *place, 2, 0, status, retracted)  # never trained on
        n = len(inserted)
        held = sorted(row["id"] for row in inserted if is_held_out(row["id"]))  # the gate's, never trained on
        # The recipe's development split (continuation.py) of the others: model selection, never trained on.
        dev = sorted(row["id"] for row in inserted if not is_held_out(row["id"]) and in_dev_split(row["id"]))
        ids = sorted(row["id"] for row in inserted if not is_held_out(row["id"]) and not in_dev_split(row["id"]))
        by_label: dict[str, int] = {}
        for row in inserted:
            if row["id"] in ids:
                by_label[row["label"]] = by_label.get(row["label"], 0) + 1
        assert len(ids) > cap and by_label["positive"] > cap and len(held) > 30 and len(dev) > 30

        started = api(TRAIN, {"t": "sentiment", "r": [1], "p": "FAST"}, token=admin_token)["trainTargetModel"]
        assert started["__typename"] == "TrainingStarted", started
        run = wait_until(
            lambda: (r := api(RUN, {"id": started["run"]["id"]}, token=admin_token)["node"])["status"] in ENDED and r,
            timeout=1200,
            interval=1.0,
        )
        assert run["status"] in ("published", "rejected"), run["statusLog"]  # the gate's verdict is not this test's
        assert run["nValidated"] == len(ids) and run["includeAgreed"] is True
        data = run["trainingData"]
        assert data["agreedRead"] == len(agreed)
        assert data["validatedExamples"] == len(ids) and data["validatedAvailable"] == len(ids) + len(dev)
        assert data["validatedRead"] == n and data["validatedHeldOut"] == len(held) and data["validatedDev"] == len(dev)
        assert data["startedFrom"] == "version 1" and 0 < data["bestStep"] <= data["steps"]
        assert {c["label"]: c["count"] for c in data["validatedByLabel"]} == by_label
        assert data["validatedDigest"] == hashlib.sha256("\n".join(map(str, ids)).encode()).hexdigest()
        # At least 30% of the draws, each example drawn at least once (the kept checkpoint too): more than 100 steps.
        assert data["validatedShare"] >= 0.3 and data["minDraws"] >= 1
        assert data["steps"] >= len(ids) / (0.3 * 16) > 100 and 0 < data["seedExamples"] <= 3 * cap
        metadata = json.loads((model_dir / "2" / "metadata.json").read_text())
        assert metadata["validated"]["example_ids"] == ids and metadata["n_validated_examples"] == len(ids)
        assert metadata["validated"]["held_out_ids"] == held and metadata["validated"]["dev_ids"] == dev
        assert metadata["recipe"]["name"] == "continue" and metadata["recipe"]["dev"] == len(dev)
        assert metadata["validated"]["digest"] == data["validatedDigest"]
    finally:
        shutil.rmtree(model_dir / "2", ignore_errors=True)
        client = target_triton(stack)
        client.load_model(model)
        client.close()
