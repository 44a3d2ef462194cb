"""Rounds and exports through GraphQL, the download link and the CLI: closing a round, exporting every
example with its validations in the original releases' JSONL shape and as an HF-datasets directory,
adding contexts from files."""

import io
import json
import os
import subprocess
import sys
import tarfile

import httpx

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, submit, wait_until
from tests.conftest import SHARED_DATA, run_sql, seed_builtin_tasks

VALIDATE = "mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename } }"
EXPORT = """mutation($r: ID!, $f: ExportFormat!) { exportRound(roundId: $r, format: $f) {
  __typename ... on RoundExport { url format expiresAt } ... on Error { code message } } }"""
CLOSE = "mutation($r: ID!) { closeRound(roundId: $r) { __typename ... on RoundClosed { round { endAt } } ... on Error { code message } } }"


def _round_with_examples(api, admin_token):
    """Round 1 of sentiment: a validated fooling example, a rejected one, one that did not fool, one retracted."""
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    fooled = [fooling_example(api, author, round_id, context_id, f"Honestly the soup was something else {i}.") for i in range(3)]
    predicted = submit(api, author, round_id, context_id, {"statement": "Great food."}, label="positive", sandbox=True)[
        "predictions"
    ][0]["label"]
    not_fooled = submit(api, author, round_id, context_id, {"statement": "Great food."}, label=predicted)["example"]
    api("mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }", {"e": fooled[2]["id"]}, token=author)
    voters = [api.sign_up(f"voter{i}") for i in range(3)]
    for token in voters:
        api(VALIDATE, {"e": fooled[0]["id"], "l": "CORRECT"}, token=token)
        api(VALIDATE, {"e": fooled[1]["id"], "l": "INCORRECT"}, token=token)
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM examples WHERE status IN ('validated', 'rejected')")[0]["n"] == 2)
    return author, round_id, fooled, not_fooled


def _download(stack, api, admin_token, round_id, fmt):
    link = api(EXPORT, {"r": round_id, "f": fmt}, token=admin_token)["exportRound"]
    assert link["__typename"] == "RoundExport" and link["format"] == fmt, link
    response = httpx.get(stack.api_url + link["url"], timeout=120)
    assert response.status_code == 200, response.text
    return response


def test_export_jsonl_has_every_example_in_the_release_shape(stack, api, admin_token, target_models):
    _author, round_id, _fooled, _not_fooled = _round_with_examples(api, admin_token)
    response = _download(stack, api, admin_token, round_id, "JSONL")
    assert response.headers["content-type"].startswith("application/x-ndjson")
    # Named by the task and the round (not a bare round-1.jsonl that a second task's export would overwrite).
    assert response.headers["content-disposition"] == 'attachment; filename="sentiment-round-1.jsonl"'
    rows = [json.loads(line) for line in response.text.splitlines()]  # an independent reader: json per line
    assert len(rows) == 4
    by_outcome = {row["outcome"]: row for row in rows}
    assert set(by_outcome) == {"validated", "rejected", "open", "closed"}

    validated = by_outcome["validated"]
    assert validated["sentence"] == validated["statement"] == "Honestly the soup was something else 0."
    assert validated["fooled"] is True and validated["gold_label"] != validated["model_0_label"]
    assert set(validated["model_0_probs"]) == {"negative", "positive", "neutral"}
    assert validated["model"] == {"name": target_models["sentiment"], "version": "1"}
    # Three CORRECT votes count for the intended label; ids are pseudonyms, the same voter keeps one.
    assert len(validated["label_distribution"][validated["gold_label"]]) == 3
    assert {v["label"] for v in validated["validations"]} == {"correct"}
    assert {v["validator"] for v in validated["validations"]} == set(validated["label_distribution"][validated["gold_label"]])
    rejected = by_outcome["rejected"]
    assert len(rejected["label_distribution"]["incorrect"]) == 3
    assert set(rejected["label_distribution"]["incorrect"]) == {v["validator"] for v in validated["validations"]}
    # Anonymised: no username or database id appears; the author has one stable pseudonym.
    text = response.text
    assert "author" not in text.replace('"sentence_author"', "") and "voter0" not in text
    assert len({row["sentence_author"] for row in rows}) == 1 and rows[0]["sentence_author"].startswith("w")
    retracted = next(row for row in rows if row["retracted"])
    assert retracted["outcome"] == "open" and retracted["text_id"].startswith("sentiment-r1-")
    assert by_outcome["closed"]["fooled"] is False and by_outcome["closed"]["gold_label"] == by_outcome["closed"]["model_0_label"]

    # The same keys, with the same JSON types, as a real DynaSent release row (round 2 used model 1).
    real = json.loads((SHARED_DATA / "dynasent" / "dynasent-v1.1-round02-dynabench-dev.jsonl").open().readline())
    for key, value in real.items():
        if key == "hit_ids":
            continue  # crowdsourcing HIT ids: nothing of the kind here
        ours = key.replace("model_1_", "model_0_")
        assert ours in validated, key
        assert type(validated[ours]) is type(value), (key, validated[ours], value)


def test_export_hf_dataset_loads_with_load_from_disk(stack, api, admin_token, target_models, tmp_path):
    import datasets

    _round_with_examples(api, admin_token)
    response = _download(stack, api, admin_token, current_round(api, "sentiment"), "HF_DATASET")
    assert 'filename="sentiment-round-1-hf.tar.gz"' in response.headers["content-disposition"]
    with tarfile.open(fileobj=io.BytesIO(response.content), mode="r:gz") as archive:
        archive.extractall(tmp_path, filter="data")
    dataset = datasets.load_from_disk(str(tmp_path / "sentiment-round-1"))
    assert dataset.num_rows == 4
    assert sorted(dataset["outcome"]) == ["closed", "open", "rejected", "validated"]
    validated = dataset.filter(lambda row: row["outcome"] == "validated")[0]
    assert json.loads(validated["input"]) == {"statement": "Honestly the soup was something else 0."}
    assert [v["label"] for v in validated["validations"]] == ["correct"] * 3
    assert json.loads(validated["label_distribution"])["incorrect"] == []


def test_export_refusals(stack, api, admin_token, target_models):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    stranger = api.sign_up("stranger")
    assert api(EXPORT, {"r": round_id, "f": "JSONL"}, token=stranger)["exportRound"]["code"] == "FORBIDDEN"
    assert api(EXPORT, {"r": round_id, "f": "JSONL"})["exportRound"]["__typename"] == "AuthenticationError"
    bogus = httpx.get(stack.api_url + "/exports/not-a-token", timeout=30)
    assert bogus.status_code == 403 and bogus.json() == {"error": "This export link is not valid."}
    # A link signed with another secret, or expired, is refused too.
    from server.annotation.exports.service import issue_link_token

    forged, _ = issue_link_token(1, "jsonl", 1, "another secret that is long enough......")
    assert httpx.get(stack.api_url + f"/exports/{forged}", timeout=30).status_code == 403
    expired, _ = issue_link_token(1, "jsonl", 1, stack.env["JWT_SECRET"], now=0)
    response = httpx.get(stack.api_url + f"/exports/{expired}", timeout=30)
    assert response.status_code == 403 and "expired" in response.json()["error"]
    # An empty round exports zero lines, not an error.
    assert _download(stack, api, admin_token, round_id, "JSONL").text == ""


def test_close_round_stops_collection_and_only_owners_may(api, admin_token, target_models):
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    assert api(CLOSE, {"r": round_id}, token=author)["closeRound"]["code"] == "FORBIDDEN"
    closed = api(CLOSE, {"r": round_id}, token=admin_token)["closeRound"]
    assert closed["__typename"] == "RoundClosed" and closed["round"]["endAt"]
    again = api(CLOSE, {"r": round_id}, token=admin_token)["closeRound"]
    assert again["round"]["endAt"] == closed["round"]["endAt"]  # idempotent
    refused = submit(api, author, round_id, context_id, {"statement": "Too late."}, label="positive")
    assert refused["__typename"] == "RoundClosedError"
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0
    assert api(CLOSE, {"r": "Um91bmQ6OTk5OTk="}, token=admin_token)["closeRound"]["__typename"] == "NotFoundError"


def _cli(stack, *args, token=None):
    env = {**os.environ, **stack.env}
    if token:
        env["DYNABENCH_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "server.cli", *args], env=env, capture_output=True, text=True, timeout=600)


def test_cli_export_matches_the_api_and_writes_hf(stack, api, admin_token, target_models, tmp_path):
    import datasets

    _round_with_examples(api, admin_token)
    out = _cli(stack, "export", "--task", "sentiment", "--output", str(tmp_path / "r1.jsonl"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])["rows"] == 4
    api_rows = _download(stack, api, admin_token, current_round(api, "sentiment"), "JSONL").text
    assert (tmp_path / "r1.jsonl").read_text() == api_rows  # same rows, same pseudonyms
    out = _cli(stack, "export", "--task", "sentiment", "--format", "hf_dataset", "--output", str(tmp_path / "hf"))
    assert out.returncode == 0, out.stderr
    assert datasets.load_from_disk(str(tmp_path / "hf")).num_rows == 4
    missing = _cli(stack, "export", "--task", "sentiment", "--round", "7", "--output", str(tmp_path / "x.jsonl"))
    assert missing.returncode == 1 and "has no round 7" in missing.stderr


def test_cli_contexts_add_from_jsonl_and_csv(stack, api, admin_token, tmp_path):
    seed_builtin_tasks()
    before = run_sql(
        "SELECT count(*) AS n FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task WHERE t.code = 'nli'"
    )[0]["n"]
    jsonl = tmp_path / "premises.jsonl"
    jsonl.write_text(
        "\n".join(json.dumps({"context": f"A dog runs on the beach number {i}.", "tag": "beach"}) for i in range(1203)) + "\n"
    )
    out = _cli(stack, "contexts", "add", "--task", "nli", "--api-url", stack.api_url, str(jsonl), token=admin_token)
    assert out.returncode == 0, out.stderr
    assert "Added 1203 contexts" in out.stdout and "1203/1203" in out.stderr  # the progress bar reached the end
    csv_file = tmp_path / "premises.csv"
    csv_file.write_text("context,tag\nA cat sleeps.,home\nTwo people talk.,\n")
    assert (
        _cli(stack, "contexts", "add", "--task", "nli", "--api-url", stack.api_url, str(csv_file), token=admin_token).returncode
        == 0
    )
    count = run_sql(
        "SELECT count(*) AS n FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task WHERE t.code = 'nli'"
    )[0]["n"]
    assert count == before + 1205
    assert run_sql("SELECT tag FROM contexts WHERE fields->>'context' = 'Two people talk.'")[0]["tag"] is None

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"context": "Fine."}) + "\n" + json.dumps({"contxt": "Typo."}) + "\n")
    out = _cli(stack, "contexts", "add", "--task", "nli", "--api-url", stack.api_url, str(bad), token=admin_token)
    assert out.returncode == 1 and "line 2" in out.stderr and "0 contexts were added" in out.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"context": "ok"}\n{not json\n')
    out = _cli(stack, "contexts", "add", "--task", "nli", "--api-url", stack.api_url, str(broken), token=admin_token)
    assert out.returncode == 2 and "line 2: not JSON" in out.stderr
    stranger = api.sign_up("stranger")
    out = _cli(stack, "contexts", "add", "--task", "nli", "--api-url", stack.api_url, str(csv_file), token=stranger)
    assert out.returncode == 1 and "owners" in out.stderr
    assert (
        run_sql(
            "SELECT count(*) AS n FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task WHERE t.code = 'nli'"
        )[0]["n"]
        == count
    )


def test_several_target_models_all_by_majority_or_one_at_random(api, admin_token, target_models):
    """`target_selection: all` asks every target and is fooled only when most are wrong; `random` asks one."""
    import copy

    from server.tasks.builtin import BUILTIN_TASKS

    sentiment, hate = target_models["sentiment"], target_models["hate_speech"]
    author = api.sign_up("author")
    for selection in ("all", "random"):
        config = copy.deepcopy(BUILTIN_TASKS[0]["config"])
        config["target_selection"] = selection
        code = f"multi_{selection}"
        assert (
            api(
                "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
                {"i": {"code": code, "name": code, "config": config}},
                token=admin_token,
            )["createTask"]["__typename"]
            == "TaskCreated"
        )
        # The hate-speech model answers with labels sentiment does not have: it is always wrong here.
        targets = [{"name": sentiment}, {"name": sentiment, "version": "1"}, {"name": hate}]
        round_id = api(
            "mutation($i: CreateRoundInput!) { createRound(input: $i) { ... on RoundCreated { round { id } } } }",
            {"i": {"taskCode": code, "targetModels": targets}},
            token=admin_token,
        )["createRound"]["round"]["id"]
        api(
            "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
            {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Write a review."}}]}},
            token=admin_token,
        )
        context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
        if selection == "all":
            predicted = submit(
                api, author, round_id, context_id, {"statement": "A wonderful, warm evening."}, label="positive", sandbox=True
            )
            labels = [p["label"] for p in predicted["predictions"]]
            assert [p["modelName"] for p in predicted["predictions"]] == [sentiment, sentiment, hate]
            right = submit(api, author, round_id, context_id, {"statement": "A wonderful, warm evening."}, label=labels[0])
            assert right["verdict"] == "NOT_FOOLED"  # one wrong model of three is not a majority
            assert (
                right["example"]["modelName"] == f"{sentiment}+{sentiment}+{hate}" and right["example"]["modelVersion"] == "1+1+1"
            )
            assert len(right["example"]["modelOutput"]["by_model"]) == 3
            wrong_label = next(label for label in ("negative", "positive", "neutral") if label != labels[0])
            wrong = submit(api, author, round_id, context_id, {"statement": "A wonderful, warm evening."}, label=wrong_label)
            assert wrong["verdict"] == "FOOLED"  # all three are wrong
        else:
            names = {
                submit(api, author, round_id, context_id, {"statement": f"Dinner number {i} was fine."}, label="positive")[
                    "example"
                ]["modelName"]
                for i in range(30)
            }
            assert names <= {sentiment, hate} and len(names) == 2  # one target per example, chosen at random
