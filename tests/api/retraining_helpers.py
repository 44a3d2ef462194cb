"""Helpers for retraining an uploaded classifier (tests/api/test_training_submissions.py and
tests/security/test_hostile_training.py): the naive Bayes test model's archive with its own train.py, a task whose
round it judges, examples written straight into that round, and a training run followed to its end."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

from server.tasks.builtin import BUILTIN_TASKS
from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import create_dataset, model_status, upload_model
from tests.conftest import run_sql
from tests.security.hostile import CONFIG  # the sentiment contract's config.pbtxt

RETRAINABLE = Path(__file__).resolve().parent / "retrainable"
ERR = "... on InputError { message fields { field message } } ... on Error { code message }"
CREATE_ROUND = f"""mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename
  ... on RoundCreated {{ round {{ id number targetModels {{ name version modelId }} }} }} {ERR} }} }}"""
TRAIN = f"""mutation($t: String!, $r: [Int!]!, $m: Int!) {{
  trainTargetModel(taskCode: $t, fromRounds: $r, profile: FAST, minHeldOut: $m) {{ __typename
  ... on TrainingStarted {{ run {{ id status modelName sourceModelId }} }} {ERR} }} }}"""
RUN = """query($id: ID!) { node(id: $id) { ... on TrainingRun { id status modelName modelVersion sourceModelId newModelId
  nValidated cpuSeconds wallSeconds statusLog { status message }
  trainingData { validatedExamples validatedRead validatedHeldOut validatedByLabel { label count } startedFrom }
  gate { passed currentVersion newVersion heldOut { examples enough better currentError newError } } } } }"""
ENDED = ("published", "rejected", "failed", "cancelled")
# Validated examples written straight into a round ($1 round, $2 context, $3 author, $4 the target's Triton name):
# one per {"text", "label"} of $5.
INSERT_VALIDATED = """
INSERT INTO examples (client_id, round, context, "user", input, model_output, fooled, status, retracted, flagged,
                      flag_reason, explanation, pending_reason, model_name, model_version, created_at)
SELECT gen_random_uuid(), $1, $2, $3, jsonb_build_object('statement', s.text, 'label', s.label), '{}', true,
       'validated', false, false, '', '', '', $4, '1', now()
  FROM jsonb_to_recordset($5::jsonb) AS s(text text, label text)
RETURNING id
"""


def retrainable_archive(train_py: str | None = None, name: str = "bayes") -> bytes:
    """The naive Bayes sentiment model (tests/api/retrainable), with its train.py, `train_py` in its place, or none
    ("")."""
    entries = {
        f"{name}/config.pbtxt": CONFIG.format(name=name).encode(),
        f"{name}/1/model.py": (RETRAINABLE / "model.py").read_bytes(),
        f"{name}/1/counts.json": (RETRAINABLE / "counts.json").read_bytes(),
    }
    if train_py != "":
        entries[f"{name}/1/train.py"] = (train_py or (RETRAINABLE / "train.py").read_text()).encode()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path, data in entries.items():
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def task_judged_by_upload(api, admin_token, code: str, archive: bytes) -> dict:
    """A public sentiment task owned by `owner`, a small scoring dataset, and `researcher`'s evaluated, published
    upload of `archive` judging its round 1 (with one context)."""
    owner, researcher = api.sign_up(f"{code}_owner"), api.sign_up(f"{code}_researcher")
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": code, "name": code, "config": BUILTIN_TASKS[0]["config"]}},
        token=owner,
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    run_sql("UPDATE tasks SET status = 'PUBLIC' WHERE code = $1", code)
    scoring = [("great food", "positive"), ("awful service", "negative"), ("we ordered the menu", "neutral")] * 3
    rows = "\n".join(json.dumps({"uid": f"s{i}", "statement": t, "label": label}) for i, (t, label) in enumerate(scoring))
    assert create_dataset(api, admin_token, code, f"{code}-scoring", rows.encode())["__typename"] == "DatasetCreated"
    uploaded = upload_model(api, researcher, code, "naive bayes", archive)
    assert uploaded["__typename"] == "ModelUploaded", uploaded
    model_id = uploaded["model"]["id"]
    wait_until(lambda: model_status(api, researcher, model_id)["status"] in ("evaluated", "failed"), timeout=600, interval=0.5)
    assert model_status(api, researcher, model_id)["status"] == "evaluated", model_status(api, researcher, model_id)
    api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": model_id}, token=researcher)
    world = {"owner": owner, "researcher": researcher, "model": model_id, "code": code}
    world["round"] = open_round(api, world, [{"modelId": model_id}])
    return world


def open_round(api, world: dict, targets: list[dict]) -> dict:
    opened = api(CREATE_ROUND, {"i": {"taskCode": world["code"], "targetModels": targets}}, token=world["owner"])["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": opened["round"]["id"], "contexts": [{"fields": {"context": "Write about a restaurant."}}]}},
        token=world["owner"],
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded"
    return opened["round"]


def insert_validated(world: dict, round_number: int, rows: list[dict]) -> list[int]:
    """`rows` ({"text", "label"}) as validated examples of the task's round, written by the task's owner."""
    [where] = run_sql(
        "SELECT r.id AS round, (SELECT min(c.id) FROM contexts c WHERE c.round = r.id) AS context, r.target_models "
        "FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = $1 AND r.number = $2",
        world["code"],
        round_number,
    )
    [author] = run_sql("SELECT id FROM users WHERE username = $1", f"{world['code']}_owner")
    target = json.loads(where["target_models"])[0]["name"]
    inserted = run_sql(INSERT_VALIDATED, where["round"], where["context"], author["id"], target, json.dumps(rows))
    return [row["id"] for row in inserted]


def train(api, world: dict, rounds: list[int], min_held_out: int = 5) -> dict:
    started = api(TRAIN, {"t": world["code"], "r": rounds, "m": min_held_out}, token=world["owner"])["trainTargetModel"]
    assert started["__typename"] == "TrainingStarted", started
    return started["run"]


def run_of(api, token: str, run_id: str) -> dict:
    return api(RUN, {"id": run_id}, token=token)["node"]


def wait_for_end(api, token: str, run_id: str, timeout: float = 600) -> dict:
    wait_until(lambda: run_of(api, token, run_id)["status"] in ENDED, timeout=timeout, interval=0.5)
    return run_of(api, token, run_id)
