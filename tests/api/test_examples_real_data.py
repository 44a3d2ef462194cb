"""createExample with real annotator-written data: stored verdicts equal an independent Triton call."""

import csv
import json
import random

import pytest

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, triton_predict
from tests.conftest import SHARED_DATA, run_sql, seed_builtin_tasks

N = 25


def _dynasent_rows():
    rows = [json.loads(line) for line in (SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-dev.jsonl").open()]
    return [r for r in random.Random(1).sample(rows, 200) if r.get("gold_label") in ("positive", "negative", "neutral")][:N]


def _snli_rows():
    rows = [json.loads(line) for line in (SHARED_DATA / "nli" / "snli-dev.jsonl").open()]
    return [r for r in random.Random(2).sample(rows, 200) if r["label"] in ("entailment", "neutral", "contradiction")][:N]


def _hatemoji_rows():
    with (SHARED_DATA / "hatemoji" / "test.csv").open() as f:
        rows = list(csv.DictReader(f))
    return random.Random(3).sample(rows, N)


def _check_against_triton(stack, model, stored, model_inputs, intended):
    label, probs = triton_predict(stack.env["TRITON_URL"], model, model_inputs)
    example = stored["example"]
    assert example["modelName"] == model and example["modelVersion"] == "1"
    assert example["modelOutput"]["label"] == label
    assert example["fooled"] == (label != intended)
    assert stored["verdict"] == ("FOOLED" if label != intended else "NOT_FOOLED")
    assert [p["probability"] for p in stored["predictions"][0]["probabilities"]] == pytest.approx(probs.tolist(), abs=1e-5)
    return example["fooled"]


def test_sentiment_replay_of_dynasent(stack, api, target_models):
    seed_builtin_tasks()
    token = api.sign_up("annotator")
    round_id = current_round(api, "sentiment")
    verdicts = []
    for row in _dynasent_rows():
        context = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]
        stored = submit(api, token, round_id, context["id"], {"statement": row["sentence"]}, label=row["gold_label"])
        assert stored["__typename"] == "ExampleSubmitted", stored
        verdicts.append(
            _check_against_triton(stack, target_models["sentiment"], stored, {"statement": row["sentence"]}, row["gold_label"])
        )
    # DynaSent R1 fooled a much stronger model, so both outcomes occur in a sample this size.
    assert any(verdicts) and not all(verdicts)
    counters = run_sql(
        "SELECT total_collected, total_fooled FROM round_totals n JOIN rounds r ON r.id = n.round JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'"
    )[0]
    assert counters == {"total_collected": N, "total_fooled": sum(verdicts)}
    stats = run_sql("SELECT submitted, fooled FROM user_round_stats")[0]
    assert stats == {"submitted": N, "fooled": sum(verdicts)}
    assert run_sql(
        "SELECT sum(c.total_used) AS n, sum(c.total_fooled) AS f FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'"
    )[0] == {"n": N, "f": sum(verdicts)}


def test_nli_replay_of_snli(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    rows = _snli_rows()
    round_id = current_round(api, "nli")
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": r["premise"]}, "tag": "snli"} for r in rows]}},
        token=admin_token,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded"
    contexts = {
        c["context"]: c["id"] for c in run_sql("SELECT id, fields->>'context' AS context FROM contexts WHERE tag = 'snli'")
    }
    token = api.sign_up("annotator")
    from strawberry.relay import to_base64

    verdicts = []
    for row in rows:
        stored = submit(
            api,
            token,
            round_id,
            to_base64("Context", contexts[row["premise"]]),
            {"hypothesis": row["hypothesis"]},
            label=row["label"],
        )
        assert stored["__typename"] == "ExampleSubmitted", stored
        inputs = {"context": row["premise"], "hypothesis": row["hypothesis"]}
        verdicts.append(_check_against_triton(stack, target_models["nli"], stored, inputs, row["label"]))
    assert len(verdicts) == N


def test_hate_speech_replay_of_hatemoji(stack, api, target_models):
    seed_builtin_tasks()
    token = api.sign_up("annotator")
    round_id = current_round(api, "hate_speech")
    for row in _hatemoji_rows():
        intended = "hateful" if row["label_gold"] == "1" else "not_hateful"
        context = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]
        stored = submit(api, token, round_id, context["id"], {"statement": row["text"]}, label=intended)
        assert stored["__typename"] == "ExampleSubmitted", stored
        _check_against_triton(stack, target_models["hate_speech"], stored, {"statement": row["text"]}, intended)
