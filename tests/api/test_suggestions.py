"""Suggestions for the adversary (issue #31 point 4, docs/design.md §4.1e) through GraphQL against the real demo
models: a sentiment classifier task whose generator is the demo generative model served by Triton and whose
perturbation search asks the real sentiment target; the example records its assistance (edited or not), a forged
suggestion id is refused, the round's numbers split assisted / unassisted, the export carries them; a generative task's
suggested opening message."""

from __future__ import annotations

import json
import uuid

import httpx
from strawberry.relay import GlobalID

from tests.api.conversations_helpers import SUBMIT, ReplyFeed, demo_copy, generative_config, generative_task, send
from tests.api.examples_helpers import CREATE, NEXT_CONTEXT, current_round, triton_predict
from tests.conftest import run_sql, seed_builtin_tasks

SUGGEST = """mutation($i: SuggestExamplesInput!) { suggestExamples(input: $i) { __typename
  ... on SuggestionsIssued { suggestions { id kind source sourceVersion fields label
      target { label confidence flipped edits } } }
  ... on InputError { message fields { field message } }
  ... on Error { code message } } }"""
ASSISTED = """query($id: ID!) { node(id: $id) { ... on Example { id assistance { suggestionId kind source edited } } } }"""
STATS = """query($c: String!) { task(code: $c) { currentRound { assistance {
  assisted collected fooled validatedFooled foolingRate validatedFoolingRate medianMsToFool edited } } } }"""
EXPORT = """mutation($r: ID!) { exportRound(roundId: $r, format: JSONL) { __typename ... on RoundExport { url } } }"""
CREATE_TASK = """mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename
  ... on InputError { fields { field message } } ... on Error { message } } }"""
OPEN_ROUND = """mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on RoundCreated { round { id } }
  ... on InputError { fields { field message } } ... on Error { message } } }"""
LABELS = ["negative", "positive", "neutral"]


def _sentiment_config(generator: dict) -> dict:
    return {
        "kind": "classification",
        "context_fields": [{"name": "context", "display_name": "Prompt", "max_length": 5000}],
        "input_fields": [{"name": "statement", "max_length": 300}],
        "model_inputs": ["statement"],
        "labels": LABELS,
        "output_fields": ["label", "probs"],
        "fooling": {"metric": "exact_match"},
        "performance_metric": "accuracy",
        "suggestions": {
            "generator": {"temperature": 0.0, "max_tokens": 48, **generator},
            "perturbation": True,
            "query_budget": 24,
        },
    }


def _suggest(api, token, round_id, context_id, kind, fields=None, client_id=None):
    variables = {"i": {"roundId": round_id, "contextId": context_id, "kind": kind, "fields": fields,
                       "clientId": str(client_id or uuid.uuid4())}}  # fmt: skip
    return api(SUGGEST, variables, token=token)["suggestExamples"]


def _create(api, token, round_id, context_id, text, label, suggestion_id=None):
    variables = {"i": {"roundId": round_id, "contextId": context_id, "fields": {"statement": text}, "label": label,
                       "clientId": str(uuid.uuid4()), "timeSpentMs": 30_000, "suggestionId": suggestion_id}}  # fmt: skip
    return api(CREATE, variables, token=token)["createExample"]


def _sentiment_task(api, target_models, code: str, generator: dict) -> tuple[str, str]:
    owner = api.sign_up(f"owner_{code}")
    run_sql("UPDATE users SET is_admin = true WHERE username = $1", f"owner_{code}")  # may name any served model
    document = {"code": code, "name": f"Suggest {code}", "description": "Fool the sentiment model with everyday reviews."}
    created = api(CREATE_TASK, {"i": {**document, "config": _sentiment_config(generator)}}, token=owner)["createTask"]
    assert created["__typename"] == "TaskCreated", created
    opened = api(OPEN_ROUND, {"i": {"taskCode": code, "targetModels": [{"name": target_models["sentiment"]}]}}, token=owner)
    round_id = opened["createRound"]["round"]["id"]
    contexts = [{"fields": {"context": "Reviews of a small seaside restaurant and its seafood."}}]
    api("mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": contexts}}, token=owner)  # fmt: skip
    return owner, round_id


def test_suggestions_on_a_classifier_task_are_recorded_and_counted(stack, api, target_models):
    sentiment, generator = target_models["sentiment"], target_models["chat_demo"]
    owner = api.sign_up("suggest_admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'suggest_admin'")
    # A generator the target Triton does not serve, or an endpoint nobody registered: an InputError on the field.
    for bad, field in (({"model": "no_such_model"}, "model"), ({"endpoint": "nowhere"}, "endpoint")):
        document = {"code": f"bad_{field}", "name": "Bad", "config": _sentiment_config(bad)}
        refused = api(CREATE_TASK, {"i": document}, token=owner)["createTask"]
        assert refused["__typename"] == "InputError", refused
        assert [f["field"] for f in refused["fields"]] == [f"config.suggestions.generator.{field}"], refused

    task_owner, round_id = _sentiment_task(api, target_models, "suggest_sent", {"model": generator})
    # Editing the config: another generator is checked live; the one it already names is not checked again.
    update = """mutation($i: UpdateTaskInput!) { updateTask(input: $i) { __typename
      ... on InputError { fields { field message } } } }"""
    bad = {"taskCode": "suggest_sent", "config": _sentiment_config({"model": "no_such_model"})}
    refused = api(update, {"i": bad}, token=task_owner)["updateTask"]
    assert [f["field"] for f in refused["fields"]] == ["config.suggestions.generator.model"], refused
    same = {"taskCode": "suggest_sent", "config": _sentiment_config({"model": generator}), "description": "Reviews."}
    assert api(update, {"i": same}, token=task_owner)["updateTask"]["__typename"] == "TaskUpdated"
    writer, other = api.sign_up("inspired"), api.sign_up("someone_else")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=writer)["nextContext"]["id"]

    # Perturbation: every candidate's label is the real target's on that text (an independent plain Triton call).
    draft = "The fish was wonderful and the staff were lovely."
    draft_label, _ = triton_predict(stack.env["TRITON_URL"], sentiment, {"statement": draft})
    request_id = uuid.uuid4()
    perturbed = _suggest(api, writer, round_id, context_id, "PERTURBATION", {"statement": draft}, request_id)
    assert perturbed["__typename"] == "SuggestionsIssued", perturbed
    found = perturbed["suggestions"]
    assert 1 <= len(found) <= 3
    for suggestion in found:
        text = suggestion["fields"]["statement"]
        label, probs = triton_predict(stack.env["TRITON_URL"], sentiment, {"statement": text})
        target = suggestion["target"]
        assert text != draft and suggestion["kind"] == "PERTURBATION" and suggestion["source"] == sentiment
        assert target["label"] == label and target["flipped"] == (label != draft_label) and target["edits"]
        assert abs(target["confidence"] - float(probs[LABELS.index(draft_label)])) < 2e-3
    again = _suggest(api, writer, round_id, context_id, "PERTURBATION", {"statement": draft}, request_id)
    assert [s["id"] for s in again["suggestions"]] == [s["id"] for s in found]  # a retry answers the same ones

    # Generator: the demo generative model through Triton, prompted with the task's goal, context and labels.
    generated = _suggest(api, writer, round_id, context_id, "GENERATOR")
    assert generated["__typename"] == "SuggestionsIssued", generated
    assert 1 <= len(generated["suggestions"]) <= 3, generated
    for suggestion in generated["suggestions"]:
        assert suggestion["source"] == generator and suggestion["sourceVersion"]
        assert 3 <= len(suggestion["fields"]["statement"]) <= 300 and suggestion["label"] in (None, *LABELS)
    stored = run_sql("SELECT count(*) AS n FROM suggestions WHERE \"user\" = (SELECT id FROM users WHERE username = 'inspired')")
    assert stored[0]["n"] == len(found) + len(generated["suggestions"])

    # Submitted as suggested (not edited), and edited; an unassisted example beside them.
    first = found[0]
    wrong = next(label for label in LABELS if label != first["target"]["label"])  # so that it fools the target
    as_given = _create(api, writer, round_id, context_id, first["fields"]["statement"], wrong, first["id"])
    edited_text = generated["suggestions"][0]["fields"]["statement"] + " Really."
    edited = _create(api, writer, round_id, context_id, edited_text, "neutral", generated["suggestions"][0]["id"])
    plain = _create(api, writer, round_id, context_id, "An ordinary plate of chips.", "neutral")
    assert as_given["verdict"] == "FOOLED", as_given
    shown = {
        key: api(ASSISTED, {"id": result["example"]["id"]}, token=writer)["node"]["assistance"]
        for key, result in (("as_given", as_given), ("edited", edited), ("plain", plain))
    }
    assert shown["as_given"] == {"suggestionId": first["id"], "kind": "perturbation", "source": sentiment, "edited": False}
    assert shown["edited"]["kind"] == "generator" and shown["edited"]["edited"] is True
    assert shown["plain"] is None

    # A suggestion issued to someone else, or none at all, cannot be claimed; nothing is stored.
    forged = _create(api, other, round_id, context_id, first["fields"]["statement"], wrong, first["id"])
    assert forged["__typename"] == "InputError" and [f["field"] for f in forged["fields"]] == ["suggestionId"], forged
    missing = _create(api, other, round_id, context_id, "Fine.", "neutral", str(GlobalID("Suggestion", "999999")))
    assert missing["__typename"] == "InputError", missing
    assert run_sql("SELECT count(*) AS n FROM examples WHERE round = (SELECT max(id) FROM rounds)")[0]["n"] == 3

    # The round's numbers, unassisted then assisted, and the export's rows.
    rows = api(STATS, {"c": "suggest_sent"}, token=writer)["task"]["currentRound"]["assistance"]
    assert [r["assisted"] for r in rows] == [False, True]
    assert rows[0]["collected"] == 1 and rows[1]["collected"] == 2 and rows[1]["edited"] == 1
    assert rows[1]["fooled"] >= 1 and rows[1]["foolingRate"] == rows[1]["fooled"] / 2
    assert rows[1]["medianMsToFool"] == 30_000 and rows[1]["validatedFoolingRate"] == 0
    link = api(EXPORT, {"r": round_id}, token=task_owner)["exportRound"]
    lines = [json.loads(line) for line in httpx.get(stack.api_url + link["url"], timeout=60).text.splitlines()]
    exported = {line["text_id"].rsplit("-", 1)[1]: line["assistance"] for line in lines}
    assert sorted((a or {}).get("kind", "none") for a in exported.values()) == ["generator", "none", "perturbation"]

    # Its own rate limit per account (10 a minute): the 11th request waits; a retried request UUID is free.
    eager = api.sign_up("eager_inspired")
    for _ in range(10):
        assert _suggest(api, eager, round_id, context_id, "PERTURBATION", {"statement": "Good."})["__typename"] == (
            "SuggestionsIssued"
        )
    limited = _suggest(api, eager, round_id, context_id, "PERTURBATION", {"statement": "Good."})
    assert limited["__typename"] == "RateLimitedError" and limited["code"] == "RATE_LIMITED", limited

    # A task without a generator says so; a generator that is down is a clear error and nothing is stored.
    seed_builtin_tasks()
    plain_round = current_round(api, "sentiment")
    plain_context = api(NEXT_CONTEXT, {"r": plain_round}, token=writer)["nextContext"]["id"]
    none = _suggest(api, writer, plain_round, plain_context, "GENERATOR")
    assert none["__typename"] == "InputError" and "no generator" in none["message"], none
    with demo_copy(stack, generator, "suggest_gen_copy") as copy:
        _down_owner, down_round = _sentiment_task(api, target_models, "suggest_down", {"model": copy})
        down_context = api(NEXT_CONTEXT, {"r": down_round}, token=writer)["nextContext"]["id"]
    before = run_sql("SELECT count(*) AS n FROM suggestions")[0]["n"]
    down = _suggest(api, writer, down_round, down_context, "GENERATOR")
    assert down["__typename"] == "ModelUnavailableError" and "generator" in down["message"], down
    assert run_sql("SELECT count(*) AS n FROM suggestions")[0]["n"] == before


def test_a_generative_task_suggests_an_opening_message(stack, api, target_models):
    demo = target_models["chat_demo"]
    config = generative_config(max_turns=1)
    config["suggestions"] = {"generator": {"model": demo, "temperature": 0.0, "max_tokens": 32, "count": 2}}
    _owner, round_id = generative_task(api, "suggest_chat", demo, config)
    writer = api.sign_up("chat_inspired")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=writer)["nextContext"]["id"]
    issued = _suggest(api, writer, round_id, context_id, "GENERATOR")
    assert issued["__typename"] == "SuggestionsIssued" and 1 <= len(issued["suggestions"]) <= 2, issued
    suggestion = issued["suggestions"][0]
    assert set(suggestion["fields"]) == {"message"} and suggestion["target"] is None
    # The author opens with the suggestion, edited, and submits: the example records it, edited.
    sent = send(api, writer, round_id, suggestion["fields"]["message"] + " Please.", context_id=context_id)
    assert sent["__typename"] == "MessageSent", sent
    ReplyFeed(stack, writer, sent["turn"]["id"]).all()
    variables = {"i": {"conversationId": sent["conversation"]["id"], "clientId": str(uuid.uuid4()),
                       "modelFailed": True, "suggestionId": suggestion["id"]}}  # fmt: skip
    submitted = api(SUBMIT, variables, token=writer)["submitConversation"]
    assert submitted["__typename"] == "ExampleSubmitted", submitted
    shown = api(ASSISTED, {"id": submitted["example"]["id"]}, token=writer)["node"]["assistance"]
    assert shown == {"suggestionId": suggestion["id"], "kind": "generator", "source": demo, "edited": True}
