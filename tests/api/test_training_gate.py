"""The retraining gate and cancellation through GraphQL (real fast-profile training in the worker): a version that is
not better on the held-out validated examples is rejected with both comparisons, openNextRound refuses it until an
owner overrides the gate with a reason; a run cancelled while training leaves no version behind."""

import json
import shutil
from datetime import timedelta

from server.modelbuild.continuation import in_dev_split
from server.training.gate import is_held_out
from tests.api.examples_helpers import current_round, wait_until
from tests.api.models_helpers import create_dataset
from tests.api.test_training import INSERT_VALIDATED, OPEN_NEXT, _infer
from tests.conftest import SHARED_DATA, run_sql, seed_builtin_tasks, target_triton

TRAIN = """mutation($t: String!, $r: [Int!]!, $m: Int!) {
  trainTargetModel(taskCode: $t, fromRounds: $r, profile: FAST, minHeldOut: $m) {
  __typename ... on TrainingStarted { run { id status scoringTolerance minHeldOut } } ... on Error { code message } } }"""
GATE_RUN = """query($id: ID!) { node(id: $id) { ... on TrainingRun {
  status progress modelVersion nValidated cancelRequested wallSeconds cpuSeconds statusLog { status message }
  trainingData { validatedExamples validatedRead validatedHeldOut validatedDev }
  gate { passed currentVersion newVersion summary
         heldOut { examples minimum enough currentError newError difference ciLow ciHigh mcnemarP onlyCurrentWrong
                   onlyNewWrong better }
         scoring { dataset currentError newError difference tolerance passed } }
  overriddenBy overrideReason overriddenAt } } }"""
OVERRIDE = """mutation($r: ID!, $why: String!) { overrideTrainingGate(runId: $r, reason: $why) {
  __typename ... on TrainingGateOverridden { run { status overriddenBy overrideReason } }
  ... on InputError { message fields { field message } } ... on Error { code message } } }"""
CANCEL = """mutation($r: ID!) { cancelTrainingRun(runId: $r) {
  __typename ... on TrainingRunCancelled { run { status cancelRequested } } ... on Error { code message } } }"""
ENDED = ("published", "rejected", "failed", "cancelled")


def _run(api, token, run_id):
    return api(GATE_RUN, {"id": run_id}, token=token)["node"]


def _ended(api, token, run_id):
    return wait_until(lambda: (r := _run(api, token, run_id))["status"] in ENDED and r, timeout=1200, interval=1.0)


def _reset(stack, model):
    """Later tests expect version 1 alone."""
    shutil.rmtree(stack.model_repository / model / "2", ignore_errors=True)
    client = target_triton(stack)
    client.load_model(model)
    client.close()


def _scoring_dataset(api, admin_token):
    rows = [json.loads(line) for line in (SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-test.jsonl").open()]
    rows = [
        {"uid": r["text_id"], "statement": r["sentence"], "label": r["gold_label"]}
        for r in rows
        if r.get("gold_label") in ("positive", "negative", "neutral")
    ][:40]
    created = create_dataset(api, admin_token, "sentiment", "dynasent-sample", "\n".join(json.dumps(r) for r in rows).encode())
    assert created["__typename"] == "DatasetCreated", created


def test_a_version_that_is_not_better_is_rejected_until_an_owner_overrides(stack, api, admin_token, target_models):
    model = target_models["sentiment"]
    try:
        seed_builtin_tasks()
        stranger = api.sign_up("stranger")
        api.sign_up("author")
        [where] = run_sql(
            "SELECT r.id AS round, (SELECT min(c.id) FROM contexts c WHERE c.round = r.id) AS context, "
            "(SELECT id FROM users WHERE username = 'author') AS author FROM rounds r JOIN tasks t ON t.id = r.task "
            "WHERE t.code = 'sentiment' AND r.number = 1"
        )
        # 200 plainly positive visits: the current version already answers them right, so the new one cannot be
        # better on the held-out ones (the paired differences are all >= 0).
        inserted = run_sql(
            INSERT_VALIDATED, where["round"], where["context"], where["author"], model, 200, 200, "validated", False
        )
        held = [row["id"] for row in inserted if is_held_out(row["id"])]
        assert len(held) >= 10
        assert _infer(stack.env["TRITON_URL"], model, "1", "Visit 7: the staff smiled all evening.")[0] == "positive"
        _scoring_dataset(api, admin_token)
        round_before = current_round(api, "sentiment")

        started = api(TRAIN, {"t": "sentiment", "r": [1], "m": 10}, token=admin_token)["trainTargetModel"]
        assert started["run"]["scoringTolerance"] == 0.01 and started["run"]["minHeldOut"] == 10, started
        run_id = started["run"]["id"]
        run = _ended(api, admin_token, run_id)
        assert run["status"] == "rejected", run["statusLog"]
        dev = [row["id"] for row in inserted if not is_held_out(row["id"]) and in_dev_split(row["id"])]
        assert run["trainingData"] == {
            "validatedExamples": 200 - len(held) - len(dev),
            "validatedRead": 200,
            "validatedHeldOut": len(held),
            "validatedDev": len(dev),
        }
        gate = run["gate"]
        assert (gate["passed"], gate["currentVersion"], gate["newVersion"]) == (False, "1", "2")
        held_out = gate["heldOut"]
        assert held_out["examples"] == len(held) and held_out["minimum"] == 10 and held_out["enough"]
        assert held_out["currentError"] == 0.0 and held_out["onlyCurrentWrong"] == 0 and not held_out["better"]
        assert held_out["ciLow"] <= held_out["difference"] <= held_out["ciHigh"] and held_out["ciHigh"] >= 0
        assert held_out["difference"] == held_out["newError"] and 0 < held_out["mcnemarP"] <= 1
        [scoring] = gate["scoring"]
        assert scoring["dataset"] == "dynasent-sample" and scoring["tolerance"] == 0.01
        assert abs(scoring["difference"] - (scoring["newError"] - scoring["currentError"])) < 1e-9
        assert scoring["passed"] == (scoring["difference"] <= 0.01 + 1e-12)
        last = run["statusLog"][-1]["message"]
        assert gate["summary"] in last and "Rejected by the gate." in last and "95% CI" in last and "dynasent-sample" in last
        assert run["wallSeconds"] > 0 and run["cpuSeconds"] > 0 and "s CPU" in last

        # Not offered: openNextRound refuses it, the current round and its target are unchanged, both versions serve.
        refused = api(OPEN_NEXT, {"t": "sentiment", "v": "2"}, token=admin_token)["openNextRound"]
        assert refused["__typename"] == "ConflictError" and "rejected by the retraining gate" in refused["message"]
        assert current_round(api, "sentiment") == round_before
        targets = run_sql("SELECT target_models::text AS t FROM rounds WHERE id = $1", where["round"])[0]["t"]
        assert json.loads(targets) == [{"name": model, "version": "1"}]
        assert _infer(stack.env["TRITON_URL"], model, "1", "Lovely staff.")[1] == "1"

        # Only an owner, only with a reason; then it is offered, with who and why.
        assert api(OVERRIDE, {"r": run_id, "why": "I know better"}, token=stranger)["overrideTrainingGate"]["code"] == "FORBIDDEN"
        empty = api(OVERRIDE, {"r": run_id, "why": "   "}, token=admin_token)["overrideTrainingGate"]
        assert empty["__typename"] == "InputError" and empty["fields"] == [{"field": "reason", "message": "is required"}]
        too_long = api(OVERRIDE, {"r": run_id, "why": "x" * 501}, token=admin_token)["overrideTrainingGate"]
        assert too_long["__typename"] == "InputError"
        assert _run(api, admin_token, run_id)["status"] == "rejected"
        why = "The held-out visits were already easy; round 2 needs the new labels."
        overridden = api(OVERRIDE, {"r": run_id, "why": why}, token=admin_token)["overrideTrainingGate"]
        assert overridden["run"] == {"status": "published", "overriddenBy": "root-admin", "overrideReason": why}, overridden
        after = _run(api, admin_token, run_id)
        assert after["overriddenAt"] and "Gate overridden by root-admin" in after["statusLog"][-1]["message"]
        audit = run_sql(
            "SELECT action, target_type, target_label, reason FROM admin_audit WHERE action = 'training_gate_overridden'"
        )
        assert audit == [
            {"action": "training_gate_overridden", "target_type": "training_run", "target_label": "2", "reason": why}
        ]
        again = api(OVERRIDE, {"r": run_id, "why": why}, token=admin_token)["overrideTrainingGate"]
        assert again["__typename"] == "ConflictError"
        finished = api(CANCEL, {"r": run_id}, token=admin_token)["cancelTrainingRun"]
        assert finished["__typename"] == "ConflictError" and "already ended" in finished["message"]
        opened = api(OPEN_NEXT, {"t": "sentiment", "v": "2"}, token=admin_token)["openNextRound"]
        assert opened["round"]["targetModels"] == [{"name": model, "version": "2"}], opened
    finally:
        _reset(stack, model)


def test_cancelling_a_queued_and_a_training_run(stack, api, admin_token, target_models):
    model = target_models["sentiment"]
    model_dir = stack.model_repository / model
    try:
        seed_builtin_tasks()
        stranger = api.sign_up("stranger")
        # A queued run (its job not yet picked up) is cancelled at once, and cancelling it again is harmless.
        [queued] = run_sql(
            "INSERT INTO training_runs (task, requested_by, status, created_at) SELECT t.id, u.id, 'queued', now() - $1::interval "
            "FROM tasks t, users u WHERE t.code = 'sentiment' AND u.username = 'root-admin' RETURNING id",
            timedelta(minutes=1),
        )
        from strawberry.relay import to_base64

        queued_id = to_base64("TrainingRun", queued["id"])
        assert api(CANCEL, {"r": queued_id}, token=stranger)["cancelTrainingRun"]["code"] == "FORBIDDEN"
        for _ in range(2):
            cancelled = api(CANCEL, {"r": queued_id}, token=admin_token)["cancelTrainingRun"]
            assert cancelled["run"] == {"status": "cancelled", "cancelRequested": True}, cancelled

        # A training run stops at its next step: no version directory, no staging left, version 1 still answers.
        started = api(TRAIN, {"t": "sentiment", "r": [], "m": 30}, token=admin_token)["trainTargetModel"]
        assert started["__typename"] == "TrainingStarted", started
        run_id = started["run"]["id"]
        wait_until(lambda: (r := _run(api, admin_token, run_id))["status"] != "queued" and r["progress"] > 0, timeout=600)
        asked = api(CANCEL, {"r": run_id}, token=admin_token)["cancelTrainingRun"]
        assert asked["__typename"] == "TrainingRunCancelled" and asked["run"]["cancelRequested"], asked
        assert api(CANCEL, {"r": run_id}, token=admin_token)["cancelTrainingRun"]["__typename"] == "TrainingRunCancelled"
        run = _ended(api, admin_token, run_id)
        assert run["status"] == "cancelled", run["statusLog"]
        assert (
            "Cancelled" in run["statusLog"][-1]["message"] and "current target keeps serving" in run["statusLog"][-1]["message"]
        )
        assert run["wallSeconds"] > 0 and run["cpuSeconds"] > 0 and run["gate"] is None
        assert not (model_dir / "2").exists()
        assert not [p.name for p in model_dir.parent.iterdir() if p.name.startswith(f".{model}.")]
        assert _infer(stack.env["TRITON_URL"], model, "1", "Lovely staff.")[1] == "1"
        targets = run_sql(
            "SELECT r.target_models::text AS t FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'"
        )
        assert [json.loads(t["t"]) for t in targets] == [[{"name": model, "version": "1"}]]
        # A cancelled run no longer holds the task.
        again = api(TRAIN, {"t": "sentiment", "r": [], "m": 30}, token=admin_token)["trainTargetModel"]
        assert again["__typename"] == "TrainingStarted", again
        assert (
            api(CANCEL, {"r": again["run"]["id"]}, token=admin_token)["cancelTrainingRun"]["__typename"] == "TrainingRunCancelled"
        )
        assert _ended(api, admin_token, again["run"]["id"])["status"] == "cancelled"
    finally:
        _reset(stack, model)
