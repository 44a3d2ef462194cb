"""explainPrediction (issue #19 point 8): per-word attributions of the round's real target model by leave-one-out
occlusion in one batched Triton call, checked against independent plain calls of the same model; drafts checked like
a trial, hidden tasks' rounds refused, its own rate limit."""

import pytest
from strawberry.relay import GlobalID

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, triton_predict
from tests.api.recovery_helpers import api_with
from tests.conftest import GraphQLClient, run_sql, seed_builtin_tasks

EXPLAIN = """query($r: ID!, $f: JSON!, $c: ID) { explainPrediction(roundId: $r, fields: $f, contextId: $c) {
  prediction { modelName label probabilities { label probability } } modelCalls
  tokens { field text start end attribution } } }"""
LABELS = ["negative", "positive", "neutral"]


def _explain(api, token, round_id, fields, context_id=None):
    return api(EXPLAIN, {"r": round_id, "f": fields, "c": context_id}, token=token)["explainPrediction"]


def _probability(probs, label):
    return probs[LABELS.index(label)]


def test_attributions_match_plain_calls_of_the_same_model(stack, api, target_models):
    seed_builtin_tasks()
    writer = api.sign_up("explainer")
    round_id = current_round(api, "sentiment")
    text = "The movie was terrible."
    explained = _explain(api, writer, round_id, {"statement": text})
    assert explained["modelCalls"] == 1
    prediction = explained["prediction"]
    assert prediction["modelName"] == "sentiment_minilm"
    label, probs = triton_predict(stack.env["TRITON_URL"], "sentiment_minilm", {"statement": text})
    assert prediction["label"] == label
    assert [p["probability"] for p in prediction["probabilities"]] == pytest.approx(probs.tolist(), abs=1e-5)

    tokens = explained["tokens"]
    assert [t["text"] for t in tokens] == ["The", "movie", "was", "terrible", "."]
    assert all(text[t["start"] : t["end"]] == t["text"] and t["field"] == "statement" for t in tokens)
    for token in tokens:  # each attribution is the fall in the label's probability without that word
        occluded = " ".join((text[: token["start"]] + text[token["end"] :]).split())
        _, without = triton_predict(stack.env["TRITON_URL"], "sentiment_minilm", {"statement": occluded})
        expected = _probability(probs, label) - _probability(without, label)
        assert token["attribution"] == pytest.approx(expected, abs=2e-3), token
    assert max(tokens, key=lambda t: t["attribution"])["text"] == "terrible"


def test_the_context_is_read_when_the_model_reads_it_and_long_texts_fit_one_call(api, target_models):
    seed_builtin_tasks()
    writer = api.sign_up("nli-explainer")
    round_id = current_round(api, "nli")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=writer)["nextContext"]["id"]
    errors = api.errors(EXPLAIN, {"r": round_id, "f": {"hypothesis": "Someone sleeps."}}, token=writer)
    assert errors and "context" in errors[0]["message"], errors
    long = " ".join(["word"] * 150) + " sleeps."
    explained = _explain(api, writer, round_id, {"hypothesis": long}, context_id)
    assert explained["modelCalls"] == 1 and len(explained["tokens"]) <= 63
    assert {t["field"] for t in explained["tokens"]} == {"hypothesis"}  # only what the writer wrote
    assert explained["tokens"][0]["start"] == 0 and explained["tokens"][-1]["end"] == len(long)  # end to end


def test_drafts_are_checked_and_hidden_rounds_refused(api, admin_token, target_models):
    seed_builtin_tasks()
    writer = api.sign_up("careful-explainer")
    round_id = current_round(api, "sentiment")
    hostile = ({"statement": ""}, {"statement": "x" * 2001}, {"statement": 3}, {}, {"statement": "a\x00b"},
               {"statement": ["a"]}, {"statement": {"$gt": ""}})  # fmt: skip
    for fields in hostile:
        errors = api.errors(EXPLAIN, {"r": round_id, "f": fields}, token=writer)
        assert errors and errors[0]["extensions"]["code"] == "INVALID_INPUT", (fields, errors)
    for not_an_object in ("The movie.", ["The movie."], 7):
        errors = api.errors(EXPLAIN, {"r": round_id, "f": not_an_object}, token=writer)
        assert errors and errors[0]["message"] == "`fields` must be an object.", errors
    assert api.errors(EXPLAIN, {"r": round_id, "f": {"statement": "Fine."}})  # anonymous
    missing = str(GlobalID("Round", "999999"))
    assert api.errors(EXPLAIN, {"r": missing, "f": {"statement": "Fine."}}, token=writer)[0]["message"] == (
        "That round does not exist."
    )
    run_sql("UPDATE tasks SET status = 'HIDDEN' WHERE code = 'sentiment'")
    assert api.errors(EXPLAIN, {"r": round_id, "f": {"statement": "Fine."}}, token=writer)[0]["message"] == (
        "That round does not exist."
    )
    assert _explain(api, admin_token, round_id, {"statement": "Fine."})["tokens"]  # its owners (admins) still can


def test_explanations_have_their_own_rate_limit(stack, api, tmp_path, target_models):
    seed_builtin_tasks()  # (`api` empties the tables first)
    process, origin = api_with(stack, tmp_path, EXPLANATIONS_PER_MINUTE="2")
    try:
        limited = GraphQLClient(origin)
        writer = limited.sign_up("eager-explainer")
        round_id = current_round(limited, "sentiment")
        for _ in range(2):
            assert _explain(limited, writer, round_id, {"statement": "Quite good."})["tokens"]
        errors = limited.errors(EXPLAIN, {"r": round_id, "f": {"statement": "Quite good."}}, token=writer)
        assert errors and errors[0]["extensions"]["code"] == "RATE_LIMITED", errors
    finally:
        process.terminate()
        process.wait(timeout=30)
