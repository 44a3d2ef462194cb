"""Per-user submission rate limit (SUBMISSIONS_PER_MINUTE), on a second API process started with the limit on."""

import uuid

from tests.api.examples_helpers import NEXT_CONTEXT, current_round
from tests.api.recovery_helpers import api_with
from tests.api.test_observability import scrape, value
from tests.conftest import GraphQLClient, run_sql, seed_builtin_tasks

SUBMIT = """mutation($i: [CreateExampleInput!]!) { submitExamples(inputs: $i) {
  __typename ... on ExampleSubmitted { duplicate } ... on Error { code message } } }"""


def test_submissions_beyond_the_per_minute_limit_are_refused_and_not_stored(stack, api, target_models, tmp_path):
    seed_builtin_tasks()
    process, origin = api_with(stack, tmp_path, SUBMISSIONS_PER_MINUTE="3")
    limited = GraphQLClient(origin)
    try:
        writer, other = limited.sign_up("fast-writer"), limited.sign_up("other-writer")
        round_id = current_round(limited, "sentiment")
        context_id = limited(NEXT_CONTEXT, {"r": round_id}, token=writer)["nextContext"]["id"]
        items = [
            {
                "roundId": round_id,
                "contextId": context_id,
                "fields": {"statement": f"Meal number {i}."},
                "label": "positive",
                "clientId": str(uuid.uuid4()),
            }
            for i in range(5)
        ]
        results = limited(SUBMIT, {"i": items}, token=writer)["submitExamples"]
        assert [r["__typename"] for r in results] == ["ExampleSubmitted"] * 3 + ["RateLimitedError"] * 2
        assert "At most 3 examples per minute" in results[3]["message"] and "outbox" in results[3]["message"]
        # A retried client UUID is answered from the stored example, not counted and not refused.
        again = limited(SUBMIT, {"i": items[:1]}, token=writer)["submitExamples"]
        assert again == [{"__typename": "ExampleSubmitted", "duplicate": True}]
        assert limited(SUBMIT, {"i": items[3:4]}, token=other)["submitExamples"][0]["__typename"] == "ExampleSubmitted"
        # Refused attempts never reached the model: one call for each of the four examples stored, none for the others.
        metrics = scrape(origin + "/metrics")
        calls = value(metrics, "dynabench_triton_request_duration_seconds_count", model=target_models["sentiment"], outcome="ok")
        assert calls == 4, calls
        counts = run_sql(
            'SELECT u.username, count(*) AS n FROM examples e JOIN users u ON u.id = e."user" GROUP BY u.username ORDER BY 1'
        )
        assert counts == [{"username": "fast-writer", "n": 3}, {"username": "other-writer", "n": 1}]
        # The session API (no limit configured) is unaffected.
        assert (
            api(SUBMIT, {"i": [{**items[4], "clientId": str(uuid.uuid4())}]}, token=writer)["submitExamples"][0]["__typename"]
            == "ExampleSubmitted"
        )
    finally:
        limited.http.close()
        process.terminate()
        process.wait(timeout=60)
