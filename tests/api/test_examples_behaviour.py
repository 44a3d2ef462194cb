"""createExample semantics: idempotency, sandbox, batches, QA, own-example actions, contexts, outages."""

import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from server.annotation.fooling import squad_f1
from tests.api.examples_helpers import CREATE, NEXT_CONTEXT, current_round, submit
from tests.conftest import run_sql, seed_builtin_tasks, target_triton_stopped


def _setup(api):
    seed_builtin_tasks()
    token = api.sign_up("annotator")
    round_id = current_round(api, "sentiment")
    context = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]
    return token, round_id, context["id"]


def test_same_client_uuid_returns_the_first_result_and_stores_nothing_new(api, target_models):
    token, round_id, context_id = _setup(api)
    client_id = uuid.uuid4()
    first = submit(
        api, token, round_id, context_id, {"statement": "Great food, awful service."}, label="negative", client_id=client_id
    )
    again = submit(
        api, token, round_id, context_id, {"statement": "Something else entirely."}, label="positive", client_id=client_id
    )
    assert first["duplicate"] is False and again["duplicate"] is True
    assert again["example"]["id"] == first["example"]["id"] and again["verdict"] == first["verdict"]
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 1
    assert run_sql("SELECT total_collected FROM round_totals WHERE total_collected > 0")[0]["total_collected"] == 1
    # Another user reusing the UUID is refused.
    other = submit(api, api.sign_up("other"), round_id, context_id, {"statement": "x y z"}, label="neutral", client_id=client_id)
    assert other["__typename"] == "ConflictError"


def test_concurrent_duplicates_store_exactly_one(api, target_models):
    token, round_id, context_id = _setup(api)
    client_id = uuid.uuid4()
    with ThreadPoolExecutor(8) as pool:
        results = list(
            pool.map(
                lambda _: submit(
                    api, token, round_id, context_id, {"statement": "Not bad at all."}, label="positive", client_id=client_id
                ),
                range(8),
            )
        )
    assert {r["example"]["id"] for r in results} == {results[0]["example"]["id"]}
    assert sum(not r["duplicate"] for r in results) == 1
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 1
    assert run_sql("SELECT submitted FROM user_round_stats")[0]["submitted"] == 1


def test_sandbox_asks_the_model_and_saves_nothing(api, target_models):
    token, round_id, context_id = _setup(api)
    result = submit(api, token, round_id, context_id, {"statement": "I loved every minute."}, label="positive", sandbox=True)
    assert result["__typename"] == "ExampleSubmitted" and result["example"] is None
    assert result["predictions"][0]["label"] in ("negative", "positive", "neutral")
    assert result["message"].startswith("Sandbox")
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0
    assert run_sql("SELECT sum(total_collected) AS n FROM round_totals")[0]["n"] == 0


def test_input_errors_name_fields_and_write_nothing(api, target_models):
    token, round_id, context_id = _setup(api)
    cases = [
        ({"statement": ""}, "positive", "fields.statement"),
        ({"statement": "x" * 1001}, "positive", "fields.statement"),
        ({"statement": "fine", "extra": "y"}, "positive", "fields.extra"),
        ({"statement": "fine"}, "ecstatic", "label"),
        ({"statement": "nul \u0000 byte"}, "positive", "fields.statement"),
    ]
    for fields, label, bad_field in cases:
        result = submit(api, token, round_id, context_id, fields, label=label)
        assert result["__typename"] == "InputError", result
        assert bad_field in [f["field"] for f in result["fields"]]
    no_uuid = api(
        CREATE,
        {"i": {"roundId": round_id, "contextId": context_id, "fields": {"statement": "ok"}, "label": "positive"}},
        token=token,
    )
    assert no_uuid["createExample"]["fields"] == [{"field": "clientId", "message": "is required unless sandbox"}]
    anonymous = submit(api, None, round_id, context_id, {"statement": "ok"}, label="positive")
    assert anonymous["__typename"] == "AuthenticationError"
    nli_round = current_round(api, "nli")
    wrong_round = submit(api, token, nli_round, context_id, {"hypothesis": "ok"}, label="neutral")
    assert wrong_round["__typename"] == "NotFoundError"
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0


def test_qa_uses_the_squad_f1_rule(stack, api, target_models):
    seed_builtin_tasks()
    token = api.sign_up("annotator")
    round_id = current_round(api, "qa")
    context = run_sql(
        "SELECT c.id, c.fields->>'context' AS passage FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task WHERE t.code = 'qa' AND c.fields->>'context' LIKE 'Marie Curie%'"
    )[0]
    from strawberry.relay import to_base64

    context_id = to_base64("Context", context["id"])
    for question, answer in [
        ("Where was Marie Curie born?", "Warsaw"),
        ("In which year did she move to Paris?", "1891"),
        ("Who shared the 1903 prize with her?", "Pierre Curie and Henri Becquerel"),
    ]:
        result = submit(api, token, round_id, context_id, {"question": question}, answer=answer)
        assert result["__typename"] == "ExampleSubmitted", result
        prediction = result["predictions"][0]
        assert context["passage"][prediction["answerStart"] : prediction["answerEnd"]] == prediction["answer"]
        assert result["example"]["fooled"] == (squad_f1(prediction["answer"], answer) < 0.4)
        assert result["example"]["input"]["answer_start"] == context["passage"].index(answer)
    not_a_span = submit(api, token, round_id, context_id, {"question": "Where?"}, answer="Berlin")
    assert not_a_span["fields"] == [{"field": "answer", "message": "must be a span of the passage"}]
    wrong_position = submit(api, token, round_id, context_id, {"question": "Where?"}, answer="Warsaw", answerStart=3)
    assert wrong_position["fields"][0]["field"] == "answerStart"


def test_submit_examples_returns_one_result_per_item(api, target_models):
    token, round_id, context_id = _setup(api)
    items = [
        {
            "roundId": round_id,
            "contextId": context_id,
            "fields": {"statement": "Wonderful."},
            "label": "positive",
            "clientId": str(uuid.uuid4()),
        },
        {
            "roundId": round_id,
            "contextId": context_id,
            "fields": {"statement": ""},
            "label": "positive",
            "clientId": str(uuid.uuid4()),
        },
        {
            "roundId": round_id,
            "contextId": context_id,
            "fields": {"statement": "Dreadful."},
            "label": "negative",
            "clientId": str(uuid.uuid4()),
        },
    ]
    query = "mutation($x: [CreateExampleInput!]!) { submitExamples(inputs: $x) { __typename ... on ExampleSubmitted { duplicate example { clientId } } } }"
    results = api(query, {"x": items}, token=token)["submitExamples"]
    assert [r["__typename"] for r in results] == ["ExampleSubmitted", "InputError", "ExampleSubmitted"]
    again = api(query, {"x": items}, token=token)["submitExamples"]  # the outbox retried after a lost reply
    assert [r.get("duplicate") for r in again] == [True, None, True]
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2


def test_retract_flag_explain_own_examples_only(api, target_models):
    token, round_id, context_id = _setup(api)
    example = submit(api, token, round_id, context_id, {"statement": "Meh."}, label="neutral")["example"]
    stranger = api.sign_up("stranger")
    for mutation, extra in [
        ("retractExample", ""),
        ("flagExample", ', reason: "typo"'),
        ("explainExample", ', explanation: "sarcasm"'),
    ]:
        query = f"mutation($e: ID!) {{ {mutation}(exampleId: $e{extra}) {{ __typename ... on ExampleChanged {{ example {{ retracted flagged flagReason explanation }} }} }} }}"
        assert api(query, {"e": example["id"]}, token=stranger)[mutation]["__typename"] == "PermissionError"
        assert api(query, {"e": example["id"]}, token=token)[mutation]["__typename"] == "ExampleChanged"
    final = run_sql("SELECT retracted, flagged, flag_reason, explanation FROM examples")[0]
    assert final == {"retracted": True, "flagged": True, "flag_reason": "typo", "explanation": "sarcasm"}
    assert (
        run_sql("SELECT total_collected FROM round_totals WHERE round = (SELECT round FROM examples)")[0]["total_collected"] == 0
    )
    retract = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }"
    api(retract, {"e": example["id"]}, token=token)  # twice: counters unchanged
    assert (
        run_sql("SELECT total_collected FROM round_totals WHERE round = (SELECT round FROM examples)")[0]["total_collected"] == 0
    )
    mine = api("{ myExamples { edges { node { id retracted verdict } } } }", token=token)["myExamples"]["edges"]
    assert [e["node"]["id"] for e in mine] == [example["id"]]


def test_next_context_spreads_annotators_over_the_pool(api):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    pool_size = run_sql(
        "SELECT count(*) AS n FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'"
    )[0]["n"]
    with ThreadPoolExecutor(8) as pool:
        picks = list(pool.map(lambda _: api(NEXT_CONTEXT, {"r": round_id})["nextContext"]["id"], range(8)))
    assert len(set(picks)) == 8 <= pool_size
    by_strategy = "query($r: ID!, $s: ContextStrategy!) { nextContext(roundId: $r, strategy: $s) { id } }"
    # Concurrent picks by the least fooled are serialized too, each marking its pick served: all different.
    with ThreadPoolExecutor(8) as pool:
        fooled_picks = list(
            pool.map(lambda _: api(by_strategy, {"r": round_id, "s": "LEAST_FOOLED"})["nextContext"]["id"], range(8))
        )
    assert len(set(fooled_picks)) == 8
    served = run_sql("SELECT count(*) AS n FROM contexts WHERE last_used_at IS NOT NULL")[0]["n"]
    assert served == len(set(picks) | set(fooled_picks))
    assert api(by_strategy, {"r": round_id, "s": "UNIFORM"})["nextContext"]["id"]


def test_triton_down_keeps_examples_pending_then_judges_them_once(stack, api, target_models):
    token, round_id, context_id = _setup(api)
    with target_triton_stopped(stack):
        results = [
            submit(api, token, round_id, context_id, {"statement": f"Example number {i} was fine."}, label="positive")
            for i in range(3)
        ]
    assert all(r["verdict"] == "PENDING" and r["example"]["status"] == "pending" for r in results)
    assert "pending" in results[0]["message"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rows = run_sql("SELECT status, fooled, model_version FROM examples")
        if all(r["status"] != "pending" for r in rows):
            break
        time.sleep(0.5)
    assert all(r["status"] in ("open", "closed") and r["fooled"] is not None and r["model_version"] == "1" for r in rows), rows
    fooled = sum(r["fooled"] for r in rows)
    assert run_sql("SELECT total_collected, total_fooled FROM round_totals WHERE total_collected > 0")[0] == {
        "total_collected": 3,
        "total_fooled": fooled,
    }


def test_target_model_status_shows_heldout_accuracy(api, target_models):
    seed_builtin_tasks()
    data = api(
        "{ tasks { edges { node { code currentRound { targetModels { name status { ready profile nTrain heldoutAccuracy heldoutF1 } } } } } } }"
    )
    status = {e["node"]["code"]: e["node"]["currentRound"]["targetModels"][0]["status"] for e in data["tasks"]["edges"]}
    assert status["sentiment"]["ready"] and status["sentiment"]["profile"] == "fast"
    assert 0.5 < status["sentiment"]["heldoutAccuracy"] <= 1.0 and status["sentiment"]["nTrain"] > 100
    assert status["qa"]["heldoutF1"] is not None and status["qa"]["heldoutAccuracy"] is None


def test_a_session_whose_account_is_gone_is_refused_and_writes_nothing(api, stack, target_models):
    # Sessions are checked by signature alone on the write path; an account that no longer exists
    # (a validly signed token for an unknown user) must still be refused, not crash.
    from server.accounts.credentials import issue_session_token

    _token, round_id, context_id = _setup(api)
    ghost = issue_session_token(987654, stack.env["JWT_SECRET"], 3600)
    result = submit(api, ghost, round_id, context_id, {"statement": "Nobody wrote this."}, label="positive")
    assert result["__typename"] == "AuthenticationError" and "log in again" in result["message"]
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0
    assert run_sql("SELECT sum(total_collected) AS n FROM round_totals")[0]["n"] == 0
    # Queries that need the account say so too.
    response = api.raw("{ me { username } }", token=ghost)
    assert response.json()["errors"][0]["extensions"]["code"] == "AUTHENTICATION_FAILED"


def test_a_changed_target_is_asked_even_right_after_writing_against_the_old_one(api, target_models):
    # The API asks the model while it reads the round; an answer from the remembered (old) target must
    # never be stored once the round's rows say otherwise.
    token, round_id, context_id = _setup(api)
    first = submit(api, token, round_id, context_id, {"statement": "A fine day."}, label="positive")
    assert first["example"]["modelName"] == "sentiment_minilm"
    run_sql("""UPDATE rounds SET target_models = '[{"name": "sentiment_retired", "version": ""}]'::jsonb""")
    second = submit(api, token, round_id, context_id, {"statement": "A fine day again."}, label="positive")
    assert second["verdict"] == "PENDING" and second["example"]["modelName"] == "sentiment_retired"
    assert run_sql("SELECT model_output FROM examples WHERE model_name = 'sentiment_retired'")[0]["model_output"] is None


def test_rows_changed_after_a_write_are_read_afresh_before_the_next(api, target_models):
    # The API writes against the round, config and context it last read, in a statement that holds only
    # if they are still current; any change must lead to the precise answer of a fresh read.
    token, round_id, context_id = _setup(api)
    assert submit(api, token, round_id, context_id, {"statement": "Lovely."}, label="positive")["verdict"] != "PENDING"
    # The version the round runs with (docs/design.md §12) changes under the API.
    run_sql("""UPDATE task_config_versions v SET config = jsonb_set(v.config, '{input_fields,0,max_length}', '10')
               FROM tasks t WHERE t.code = 'sentiment' AND v.task = t.id""")
    too_long = submit(api, token, round_id, context_id, {"statement": "Longer than ten characters."}, label="positive")
    assert too_long["__typename"] == "InputError" and "statement" in str(too_long), too_long
    short = submit(api, token, round_id, context_id, {"statement": "Fine."}, label="positive")
    assert short["__typename"] == "ExampleSubmitted"
    run_sql("UPDATE rounds SET end_at = now()")
    closed = submit(api, token, round_id, context_id, {"statement": "Late."}, label="positive")
    assert closed["__typename"] == "RoundClosedError"
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2
    assert run_sql("SELECT sum(total_collected) AS n FROM round_totals")[0]["n"] == 2
