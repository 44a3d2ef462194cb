"""Retraining (issue #35 point 4) takes the same path for every built-in classifier, not only sentiment: NLI (two
model inputs, the premise from the context) and hate speech (two labels, macro-F1), each on real adversarial data the
original platform collected (ANLI round 1, Hatemoji's validation split), continuing from the current version with a
development split, judged by the gate, then the next round's target."""

import csv
import json
import shutil

import numpy as np
import pytest
import tritonclient.http as triton_http
from strawberry.relay import from_base64

from server.modelbuild.continuation import in_dev_split
from server.training.gate import is_held_out
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, wait_until
from tests.api.models_helpers import create_dataset
from tests.conftest import SHARED_DATA, run_sql, seed_builtin_tasks, target_triton

ROWS = 200  # ~40 for the gate, ~19 for the development split, the rest trained on
TRAIN = """mutation($t: String!) { trainTargetModel(taskCode: $t, fromRounds: [1], profile: FAST) {
  __typename ... on TrainingStarted { run { id } } ... on Error { code message } } }"""
RUN = """query($id: ID!) { node(id: $id) { ... on TrainingRun { status modelVersion nValidated statusLog { message }
  trainingData { validatedRead validatedHeldOut validatedDev startedFrom bestStep steps }
  gate { passed currentVersion newVersion heldOut { examples enough currentError newError onlyCurrentWrong onlyNewWrong }
         scoring { dataset currentError newError difference tolerance passed } } } } }"""
ENDED = ("published", "rejected", "failed", "cancelled")
OVERRIDE = """mutation($r: ID!) { overrideTrainingGate(runId: $r, reason: "this test opens the next round either way") {
  __typename ... on Error { code message } } }"""
OPEN_NEXT = """mutation($t: String!, $v: String!) { openNextRound(taskCode: $t, modelVersion: $v) {
  __typename ... on NextRoundOpened { round { id number targetModels { name version } } } ... on Error { code message } } }"""
# One context per example (an NLI example's premise is its context's field), tagged to join them to their example.
INSERT = """
WITH src AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS x(tag text, context jsonb, input jsonb)),
     ctx AS (INSERT INTO contexts (round, fields, tag) SELECT $2, context, tag FROM src RETURNING id, tag)
,
     ins AS (INSERT INTO examples (client_id, round, context, "user", input, model_output, fooled, status, retracted,
                                   flagged, flag_reason, explanation, pending_reason, model_name, model_version, created_at)
             SELECT gen_random_uuid(), $2, ctx.id, $3, src.input, '{}', true, 'validated', false, false, '', '', '', $4,
                    '1', now()
               FROM src JOIN ctx ON ctx.tag = src.tag
             RETURNING id, context, input)
SELECT ins.id, ins.input, src.context FROM ins JOIN ctx ON ctx.id = ins.context JOIN src ON src.tag = ctx.tag
"""
ANLI_LABELS = {"e": "entailment", "n": "neutral", "c": "contradiction"}


def _anli(split: str = "dev", count: int = ROWS) -> list[dict]:
    rows = [json.loads(line) for line in (SHARED_DATA / "anli" / "R1" / f"{split}.jsonl").open()][:count]
    return [
        {"context": {"context": r["context"]}, "input": {"hypothesis": r["hypothesis"], "label": ANLI_LABELS[r["label"]]}}
        for r in rows
    ]


def _hatemoji(split: str = "validation", count: int = ROWS) -> list[dict]:
    with (SHARED_DATA / "hatemoji" / f"{split}.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))[:count]
    return [
        {
            "context": {"context": "Write a statement."},
            "input": {"statement": r["text"], "label": ["not_hateful", "hateful"][int(r["label_gold"])]},
        }
        for r in rows
    ]


TASKS = {"nli": (_anli, ("context", "hypothesis")), "hate_speech": (_hatemoji, ("statement",))}
SCORING_ROWS = 60  # of the same source's test split: the gate's scoring comparison


def _scoring_rows(task: str) -> list[dict]:
    read, _ = TASKS[task]
    rows = read("test", SCORING_ROWS)
    return [{"uid": f"test-{i}", **row["context"], **row["input"]} for i, row in enumerate(rows)]


def _perf(task: str, gold: list[str], predicted: list[str]) -> float:
    """The task's metric in percent, computed here with scikit-learn (accuracy for NLI, macro-F1 for hate speech)."""
    from sklearn.metrics import accuracy_score, f1_score

    if task == "nli":
        return 100 * accuracy_score(gold, predicted)
    return 100 * f1_score(gold, predicted, average="macro", labels=["not_hateful", "hateful"], zero_division=0)


def _labels(url: str, model: str, version: str, rows: list[dict], names: tuple[str, ...]) -> list[str]:
    """The version's labels for the rows (raw Triton calls pinned to it), in batches."""
    client = triton_http.InferenceServerClient(url)
    labels: list[str] = []
    try:
        for start in range(0, len(rows), 32):
            batch = rows[start : start + 32]
            tensors = []
            for name in names:
                tensor = triton_http.InferInput(name, [len(batch), 1], "BYTES")
                tensor.set_data_from_numpy(np.array([[r[name].encode()] for r in batch], dtype=object))
                tensors.append(tensor)
            result = client.infer(model, tensors, model_version=version)
            labels += [x[0].decode() for x in result.as_numpy("label")]
    finally:
        client.close()
    return labels


@pytest.mark.parametrize("task", sorted(TASKS))
def test_each_builtin_classifier_retrains_on_real_adversarial_data_and_judges_the_next_round(
    stack, api, admin_token, target_models, task
):
    read, names = TASKS[task]
    model = target_models[task]
    model_dir = stack.model_repository / model
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, task)
    [user] = run_sql("SELECT id FROM users WHERE username = 'author'")
    source = [{**row, "tag": f"retrain-{i}"} for i, row in enumerate(read())]
    inserted = run_sql(INSERT, json.dumps(source), int(from_base64(round_id)[1]), user["id"], model)
    assert len(inserted) == ROWS
    examples = {row["id"]: {**json.loads(row["context"]), **json.loads(row["input"])} for row in inserted}
    held = sorted(i for i in examples if is_held_out(i))
    dev = [i for i in examples if not is_held_out(i) and in_dev_split(i)]
    trained = ROWS - len(held) - len(dev)
    assert len(held) >= 30 and len(dev) >= 8  # the gate has enough, the recipe selects on a split
    scoring = _scoring_rows(task)
    created = create_dataset(api, admin_token, task, "test-split", "\n".join(map(json.dumps, scoring)).encode())
    assert created["__typename"] == "DatasetCreated", created
    try:
        started = api(TRAIN, {"t": task}, token=admin_token)["trainTargetModel"]
        assert started["__typename"] == "TrainingStarted", started
        run_id = started["run"]["id"]
        run = wait_until(
            lambda: (r := api(RUN, {"id": run_id}, token=admin_token)["node"])["status"] in ENDED and r,
            timeout=1200,
            interval=1.0,
        )
        assert run["status"] in ("published", "rejected"), run["statusLog"]  # the gate's verdict is the data's
        data = run["trainingData"]
        assert (data["validatedRead"], data["validatedHeldOut"], data["validatedDev"]) == (ROWS, len(held), len(dev))
        assert run["nValidated"] == trained and data["startedFrom"] == "version 1" and 0 < data["bestStep"] <= data["steps"]

        # The gate asked both versions every held-out example: its errors equal raw calls pinned to each version.
        gate = run["gate"]
        assert (gate["currentVersion"], gate["newVersion"]) == ("1", "2") and gate["heldOut"]["enough"]
        gold = [examples[i]["label"] for i in held]
        wrong = {
            version: [
                p != g
                for p, g in zip(
                    _labels(stack.env["TRITON_URL"], model, version, [examples[i] for i in held], names), gold, strict=True
                )
            ]
            for version in ("1", "2")
        }
        assert gate["heldOut"]["examples"] == len(held)
        assert gate["heldOut"]["currentError"] == pytest.approx(sum(wrong["1"]) / len(held))
        assert gate["heldOut"]["newError"] == pytest.approx(sum(wrong["2"]) / len(held))
        fixed = sum(old and not new for old, new in zip(wrong["1"], wrong["2"], strict=True))
        assert gate["heldOut"]["onlyCurrentWrong"] == fixed
        # ...and both versions' error on the scoring dataset is the task's metric over its rows, asked the same way.
        [compared] = gate["scoring"]
        scoring_gold = [row["label"] for row in scoring]
        for version, key in (("1", "currentError"), ("2", "newError")):
            predicted = _labels(stack.env["TRITON_URL"], model, version, scoring, names)
            assert compared[key] == pytest.approx(1 - _perf(task, scoring_gold, predicted) / 100, abs=1e-4), compared
        assert compared["dataset"] == "test-split" and compared["passed"] == (compared["difference"] <= compared["tolerance"])

        if run["status"] == "rejected":
            assert (
                api(OVERRIDE, {"r": run_id}, token=admin_token)["overrideTrainingGate"]["__typename"] == "TrainingGateOverridden"
            )
        opened = api(OPEN_NEXT, {"t": task, "v": "2"}, token=admin_token)["openNextRound"]
        assert opened["round"]["targetModels"] == [{"name": model, "version": "2"}], opened
        # The next round's examples are judged by the retrained version.
        context = api(NEXT_CONTEXT, {"r": opened["round"]["id"]}, token=author)["nextContext"]
        row = json.loads(context["fields"]) if isinstance(context["fields"], str) else context["fields"]
        text = "The committee postponed the vote until every member had read the report."
        fields = {names[-1]: text}
        written = submit(api, author, opened["round"]["id"], context["id"], fields, label=gold[0])
        assert written["example"]["modelVersion"] == "2"
        expected = _labels(stack.env["TRITON_URL"], model, "2", [{**row, **fields}], names)
        assert written["predictions"][0]["label"] == expected[0]
    finally:
        # Later tests expect version 1 alone.
        shutil.rmtree(model_dir / "2", ignore_errors=True)
        client = target_triton(stack)
        client.load_model(model)
        client.close()
