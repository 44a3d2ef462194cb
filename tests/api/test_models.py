"""Researchers' models end to end: upload, sandboxed deploy, evaluation on real data, leaderboard."""

import io
import json
import random
import zipfile

import numpy as np
import tritonclient.http as triton_http

from server.evaluation.leaderboard.dynascore import compute_dynascores, compute_resolved_dynascores
from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import create_dataset, model_status, tar_gz_of, upload_model
from tests.conftest import MODEL_CACHE, SHARED_DATA, run_sql, seed_builtin_tasks, submissions_triton

SENTIMENT_LABELS = ("negative", "positive", "neutral")
NLI_LABELS = {"e": "entailment", "n": "neutral", "c": "contradiction"}


def _jsonl(rows) -> bytes:
    return "\n".join(json.dumps(r) for r in rows).encode()


def _dynasent_test_rows(n=None):
    path = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-test.jsonl"
    rows = [json.loads(line) for line in path.open()]
    rows = [
        {"uid": r["text_id"], "statement": r["sentence"], "label": r["gold_label"]}
        for r in rows
        if r.get("gold_label") in SENTIMENT_LABELS
    ]
    return rows[:n] if n else rows


def _anli_rows():
    rows = [json.loads(line) for line in (SHARED_DATA / "anli" / "R1" / "dev.jsonl").open()]
    return [
        {
            "uid": r["uid"],
            "context": r["context"],
            "hypothesis": r["hypothesis"],
            "label": NLI_LABELS[r["label"]],
            "tags": [r.get("genre") or "none"],
        }
        for r in rows
    ]


def with_rows(board: dict) -> dict:
    """The leaderboard connection's nodes as `rows`."""
    return {**board, "rows": [edge["node"] for edge in board["edges"]]}


def _independent_accuracy(stack, model_name, rows, inputs):
    """Accuracy computed without the platform: the same Triton model, called directly, batch by batch."""
    client = submissions_triton(stack)
    correct = 0
    for start in range(0, len(rows), 64):
        batch = rows[start : start + 64]
        tensors = []
        for name in inputs:
            tensor = triton_http.InferInput(name, [len(batch), 1], "BYTES")
            tensor.set_data_from_numpy(np.array([[r[name].encode()] for r in batch], dtype=object))
            tensors.append(tensor)
        labels = client.infer(model_name, tensors).as_numpy("label")
        correct += sum(label[0].decode() == r["label"] for label, r in zip(labels, batch))
    client.close()
    return 100.0 * correct / len(rows)


def test_upload_deploy_evaluate_on_dynasent_and_anli(stack, api, classifier_models, admin_token):
    seed_builtin_tasks()
    # Seeded slices of the real sets (3,600 and 1,000 rows, and their perturbed copies, took 3.5 minutes to evaluate
    # on two shared cores): the same path, a sixth of the time.
    dynasent = random.Random(29).sample(_dynasent_test_rows(), 600)
    anli_rows = random.Random(29).sample(_anli_rows(), 200)
    sentiment = create_dataset(api, admin_token, "sentiment", "dynasent-r1-test", _jsonl(dynasent))
    assert sentiment["__typename"] == "DatasetCreated" and sentiment["exampleCount"] == len(dynasent)
    anli = create_dataset(api, admin_token, "nli", "anli-r1-dev", _jsonl(anli_rows))
    assert anli["exampleCount"] == len(anli_rows)
    perturbed = run_sql("SELECT perturbation, count(*) AS n FROM dataset_examples GROUP BY perturbation")
    assert {r["perturbation"] for r in perturbed} == {"original", "robustness", "fairness"}

    researcher = api.sign_up("researcher")
    uploaded = {}
    for task, name in (("sentiment", classifier_models["sentiment"]), ("nli", classifier_models["nli"])):
        result = upload_model(
            api,
            researcher,
            task,
            f"my {task} model",
            tar_gz_of(MODEL_CACHE / name),
            card={"description": "MiniLM fine-tuned", "license": "MIT"},
        )
        assert result["__typename"] == "ModelUploaded" and result["model"]["status"] == "uploaded", result
        uploaded[task] = result["model"]["id"]
    for model_id in uploaded.values():
        # The predicate runs inside this iteration: wait_until returns before model_id moves on.
        wait_until(lambda: model_status(api, researcher, model_id)["status"] in ("evaluated", "failed"), timeout=900, interval=2)  # noqa: B023
        status = model_status(api, researcher, model_id)
        assert status["status"] == "evaluated", status["statusLog"]
        assert [e["status"] for e in status["statusLog"]][:3] == ["uploaded", "deploying", "deploying"]
    # The stored accuracy equals an independent computation on the same rows.
    for task, rows, inputs in (
        ("sentiment", dynasent, ["statement"]),
        ("nli", anli_rows, ["context", "hypothesis"]),
    ):
        triton_name = run_sql("SELECT triton_name FROM models WHERE name = $1", f"my {task} model")[0]["triton_name"]
        score = model_status(api, researcher, uploaded[task])["scores"][0]
        expected = _independent_accuracy(stack, triton_name, rows, inputs)
        assert abs(score["perf"] - expected) < 1e-6, (task, score, expected)
        assert 0 <= score["robustness"] <= 1 and score["throughput"] > 0 and score["memoryGb"] > 0
        assert score["fairness"] is None or 0 <= score["fairness"] <= 1
    # Unpublished: only the owner sees it on the leaderboard.
    query = '{ leaderboard(taskCode: "sentiment") { totalCount edges { node { rank dynascore model { name } } } } }'
    assert api(query)["leaderboard"]["totalCount"] == 0
    assert api(query, token=researcher)["leaderboard"]["edges"][0]["node"]["model"]["name"] == "my sentiment model"


def test_hostile_and_wrong_archives_are_refused_with_reasons(api, admin_token, tmp_path):
    seed_builtin_tasks()
    researcher = api.sign_up("researcher")

    def zip_with(entries):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, content in entries.items():
                archive.writestr(name, content)
        return buffer.getvalue()

    good_config = (MODEL_CACHE / "sentiment_minilm" / "config.pbtxt").read_text()
    cases = {
        "zip slip": zip_with({"m/config.pbtxt": good_config, "m/1/model.py": "x", "../../evil.py": "x"}),
        "not an archive": b"hello, this is plain text",
        "bad config": zip_with({"m/config.pbtxt": "name: 'm' backend: {{{", "m/1/model.py": "x"}),
        "wrong tensors": zip_with(
            {
                "sentiment_minilm/config.pbtxt": good_config.replace('name: "statement"', 'name: "text"'),
                "sentiment_minilm/1/model.py": "x",
            }
        ),
        "no config": zip_with({"m/1/model.py": "x"}),
    }
    for label, archive in cases.items():
        result = upload_model(api, researcher, "sentiment", label, archive, filename="m.zip")
        assert result["__typename"] == "ArchiveRejectedError", (label, result)
        assert result["message"], label
    assert "statement" in upload_model(api, researcher, "sentiment", "x", cases["wrong tensors"], "m.zip")["message"]
    assert run_sql("SELECT count(*) AS n FROM models")[0]["n"] == 0
    assert (
        upload_model(api, api.sign_up("reader"), "sentiment", "x", cases["no config"], "m.zip")["__typename"]
        == "ArchiveRejectedError"
    )


def test_dataset_rules(api, admin_token):
    seed_builtin_tasks()
    stranger = api.sign_up("stranger")
    rows = _jsonl(_dynasent_test_rows(5))
    assert create_dataset(api, stranger, "sentiment", "d", rows)["__typename"] == "PermissionError"
    bad = create_dataset(api, admin_token, "sentiment", "d", b'{"statement": "ok", "label": "great"}\nnot json\n')
    assert bad["__typename"] == "InputError" and [f["field"] for f in bad["fields"]] == ["line 1", "line 2"]
    assert create_dataset(api, admin_token, "sentiment", "d", rows)["exampleCount"] == 5
    assert create_dataset(api, admin_token, "sentiment", "d", rows)["__typename"] == "ConflictError"


def test_leaderboard_ranks_by_dynascore_with_custom_weights(stack, api, classifier_models, admin_token):
    seed_builtin_tasks()
    rows = random.Random(3).sample(_dynasent_test_rows(), 300)
    create_dataset(api, admin_token, "sentiment", "slice-a", _jsonl(rows[:150]))
    create_dataset(api, admin_token, "sentiment", "slice-b", _jsonl(rows[150:]))
    researcher = api.sign_up("researcher")
    ids = []
    for name in ("alpha", "beta"):
        result = upload_model(api, researcher, "sentiment", name, tar_gz_of(MODEL_CACHE / classifier_models["sentiment"]))
        ids.append(result["model"]["id"])
    for model_id in ids:
        wait_until(lambda: model_status(api, researcher, model_id)["status"] == "evaluated", timeout=900, interval=2)  # noqa: B023 (runs in this iteration)
        api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": model_id}, token=researcher)
    weights = [
        {"metric": "PERF", "weight": 1},
        {"metric": "THROUGHPUT", "weight": 3},
        {"metric": "MEMORY", "weight": 0},
        {"metric": "ROBUSTNESS", "weight": 2},
        {"metric": "FAIRNESS", "weight": 0},
    ]
    query = """query($w: [MetricWeightInput!], $exact: Boolean!) {
        leaderboard(taskCode: "sentiment", metricWeights: $w, exactDynaboard: $exact) { totalCount exactDynaboard
        edges { node { rank dynascore model { id name } metrics { perf throughput memory robustness fairness }
               contributions { metric points share } } } } }"""
    as_weights = {"perf": 1, "throughput": 3, "memory": 0, "robustness": 2, "fairness": 0}
    exact = with_rows(api(query, {"w": weights, "exact": True})["leaderboard"])
    board = with_rows(api(query, {"w": weights, "exact": False})["leaderboard"])
    assert board["totalCount"] == exact["totalCount"] == 2 and not board["exactDynaboard"] and exact["exactDynaboard"]
    # Independent recomputation from the stored metrics with the same weights, in both modes.
    table = {row["model"]["id"]: dict(row["metrics"]) for row in board["rows"]}
    resolved = compute_resolved_dynascores(table, as_weights)
    dynaboard = compute_dynascores(table, as_weights)
    for row, exact_row in zip(board["rows"], exact["rows"], strict=True):
        assert abs(row["dynascore"] - resolved[row["model"]["id"]].dynascore) < 1e-9
        assert abs(exact_row["dynascore"] - dynaboard[exact_row["model"]["id"]].dynascore) < 1e-9
        assert abs(sum(c["points"] for c in row["contributions"]) - row["dynascore"]) < 1e-9
        shares = [c["share"] for c in row["contributions"]]
        assert all(0 <= share <= 1 for share in shares) and abs(sum(shares) - 1) < 1e-9
    assert [r["rank"] for r in board["rows"]] == [1, 2]
    assert board["rows"][0]["dynascore"] >= board["rows"][1]["dynascore"]
    saved = api(
        'mutation($w: [MetricWeightInput!]!) { saveLeaderboardConfig(taskCode: "sentiment", name: "speed first", metricWeights: $w) { __typename } }',
        {"w": weights},
        token=researcher,
    )
    assert saved["saveLeaderboardConfig"]["__typename"] == "LeaderboardConfigSaved"
    shared = api('{ leaderboard(taskCode: "sentiment", configName: "speed first") { edges { node { dynascore } } } }')
    assert [e["node"]["dynascore"] for e in shared["leaderboard"]["edges"]] == [r["dynascore"] for r in board["rows"]]


def test_cli_upload_of_a_directory(stack, api, classifier_models):
    import subprocess
    import sys

    seed_builtin_tasks()
    session = api.sign_up("researcher")
    token = api(
        'mutation { createApiToken(input: {name: "cli", scopes: [MODELS]}) { ... on ApiTokenCreated { token } } }', token=session
    )["createApiToken"]["token"]

    def upload(task):
        command = [
            sys.executable,
            "-m",
            "server.cli",
            "model",
            "upload",
            str(MODEL_CACHE / classifier_models["hate_speech"]),
            "--task",
            task,
            "--name",
            "from the cli",
            "--api-url",
            stack.api_url,
            "--token",
            token,
        ]
        return subprocess.run(command, capture_output=True, text=True, timeout=600)

    done = upload("hate_speech")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "uploaded: model" in done.stdout
    wrong_task = upload("sentiment")  # a hate speech model does not follow the sentiment contract
    assert wrong_task.returncode == 1 and "refused (ARCHIVE_REJECTED)" in wrong_task.stdout
    assert run_sql("SELECT count(*) AS n FROM models")[0]["n"] == 1


def test_failed_deploy_is_explained_live_on_model_updated(stack, api, classifier_models):
    """A repository without weights passes the archive checks but cannot load: the owner watches it fail."""
    from websockets.sync.client import connect

    seed_builtin_tasks()
    researcher = api.sign_up("researcher")
    template = MODEL_CACHE / classifier_models["sentiment"]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "broken/config.pbtxt", (template / "config.pbtxt").read_text().replace('name: "sentiment_minilm"', 'name: "broken"')
        )
        archive.writestr("broken/1/model.py", "raise RuntimeError('weights missing on purpose')\n")
    result = upload_model(api, researcher, "sentiment", "broken", buffer.getvalue(), filename="broken.zip")
    assert result["__typename"] == "ModelUploaded", result
    with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {researcher}"}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
        ws.send(
            json.dumps(
                {
                    "id": "m",
                    "type": "subscribe",
                    "payload": {
                        "query": "subscription($m: ID!) { modelUpdated(modelId: $m) { status statusLog { status message } } }",
                        "variables": {"m": result["model"]["id"]},
                    },
                }
            )
        )
        seen = []
        while not seen or seen[-1]["status"] != "failed":
            try:
                message = json.loads(ws.recv(timeout=300))
            except TimeoutError:
                raise AssertionError(
                    f"no 'failed' status within 300 s; seen {seen}; stored "
                    f"{run_sql('SELECT status, status_log FROM models')}; worker log: {_worker_log_tail(stack)}"
                ) from None
            assert message["type"] == "next" and not message["payload"].get("errors"), message
            seen.append(message["payload"]["data"]["modelUpdated"])
    assert "weights missing on purpose" in seen[-1]["statusLog"][-1]["message"]
    assert seen[-1]["statusLog"][-1]["message"].startswith("Triton refused to load the model")
    # Someone else cannot follow it.
    with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {api.sign_up('snoop')}"}}))
        ws.recv(timeout=30)
        ws.send(
            json.dumps(
                {
                    "id": "m",
                    "type": "subscribe",
                    "payload": {
                        "query": "subscription($m: ID!) { modelUpdated(modelId: $m) { status } }",
                        "variables": {"m": result["model"]["id"]},
                    },
                }
            )
        )
        message = json.loads(ws.recv(timeout=30))
        errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
        assert "only your own models" in errors[0]["message"]


def _follow_model(stack, token: str, model_id: str, selection: str, until: str) -> list[dict]:
    """Every modelUpdated message from now until the model's status is `until` (or failed)."""
    from websockets.sync.client import connect

    with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
        query = f"subscription($m: ID!) {{ modelUpdated(modelId: $m) {selection} }}"
        ws.send(json.dumps({"id": "m", "type": "subscribe", "payload": {"query": query, "variables": {"m": model_id}}}))
        seen: list[dict] = []
        while not seen or seen[-1]["status"] not in (until, "failed"):
            message = json.loads(ws.recv(timeout=600))
            assert message["type"] == "next" and not message["payload"].get("errors"), message
            seen.append(message["payload"]["data"]["modelUpdated"])
        return seen


def _worker_log_tail(stack, lines=40):
    logs = sorted(stack.logs.glob("worker-*.log"), key=lambda p: p.stat().st_mtime)
    return "\n".join(logs[-1].read_text(errors="replace").splitlines()[-lines:]) if logs else "(none)"


def test_new_scoring_dataset_triggers_evaluation_and_reruns_are_idempotent(stack, api, classifier_models, admin_token):
    import asyncio
    import os

    from arq import create_pool
    from arq.connections import RedisSettings

    seed_builtin_tasks()
    rows = _dynasent_test_rows(120)
    create_dataset(api, admin_token, "sentiment", "first", _jsonl(rows[:60]))
    researcher = api.sign_up("researcher")
    archive = tar_gz_of(MODEL_CACHE / classifier_models["sentiment"])
    model_id = upload_model(api, researcher, "sentiment", "m", archive)["model"]["id"]
    # Followed live from upload: the message that says "evaluated" carries the scores (a long-lived subscription
    # re-reads them for each message instead of repeating the first message's empty list).
    seen = _follow_model(stack, researcher, model_id, "{ status scores { dataset { name } perf } }", until="evaluated")
    assert seen[0]["status"] != "evaluated" and seen[0]["scores"] == [], seen[0]
    assert [s["dataset"]["name"] for s in seen[-1]["scores"]] == ["first"] and seen[-1]["scores"][0]["perf"] > 0
    assert len(model_status(api, researcher, model_id)["scores"]) == 1
    create_dataset(api, admin_token, "sentiment", "second", _jsonl(rows[60:]))
    wait_until(
        lambda: (
            len(model_status(api, researcher, model_id)["scores"]) == 2
            and model_status(api, researcher, model_id)["status"] == "evaluated"
        ),
        timeout=600,
        interval=1,
    )
    before = {s["dataset"]["name"]: s["perf"] for s in model_status(api, researcher, model_id)["scores"]}
    pk = run_sql("SELECT id FROM models")[0]["id"]

    async def rerun():
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        await pool.enqueue_job("evaluate_model", pk)
        await pool.aclose()

    evaluated_entries = len([e for e in model_status(api, researcher, model_id)["statusLog"] if e["status"] == "evaluated"])
    asyncio.run(rerun())
    wait_until(
        lambda: (
            len([e for e in model_status(api, researcher, model_id)["statusLog"] if e["status"] == "evaluated"])
            > evaluated_entries
        ),
        timeout=600,
        interval=1,
    )
    after = {s["dataset"]["name"]: s["perf"] for s in model_status(api, researcher, model_id)["scores"]}
    assert after == before
    assert run_sql("SELECT count(*) AS n FROM scores")[0]["n"] == 2
