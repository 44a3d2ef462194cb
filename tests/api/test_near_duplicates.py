"""The near-duplicate guard at submission through GraphQL (docs/design.md §4.1): createExample and the offline
submitExamples refuse an example that repeats the worker's own earlier example or a validated example of the round,
name the example it repeats, store nothing, and count the refusal for the task's owners."""

import json
import uuid
from concurrent.futures import ThreadPoolExecutor

from tests.api.examples_helpers import NEXT_CONTEXT, current_round
from tests.conftest import run_sql, seed_builtin_tasks

DUPLICATE = "... on DuplicateExampleError { code message repeatsExampleId repeatsExcerpt own kind similarity }"
CREATE = (
    "mutation($i: CreateExampleInput!) { createExample(input: $i) { __typename "
    "... on ExampleSubmitted { duplicate example { id } } " + DUPLICATE + " ... on Error { code message } } }"
)
BATCH = (
    "mutation($i: [CreateExampleInput!]!) { submitExamples(inputs: $i) { __typename "
    "... on ExampleSubmitted { duplicate example { id } } " + DUPLICATE + " ... on Error { code message } } }"
)
FIRST = "This movie was a slow, beautiful and utterly heartbreaking journey through grief."


def _world(api, enabled=True, **settings):
    seed_builtin_tasks()
    if enabled:
        run_sql(
            # The task's config and the version its round runs with (docs/design.md §12).
            "WITH t AS (UPDATE tasks SET config = jsonb_set(config, '{duplicates}', $1::jsonb) WHERE code = 'sentiment' "
            "RETURNING id, config, config_version) "
            "UPDATE task_config_versions v SET config = t.config FROM t WHERE v.task = t.id AND v.version = t.config_version",
            json.dumps({"enabled": True, "jaccard": 0.6, **settings}),
        )
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    return author, round_id, context_id


def _create(api, token, round_id, context_id, text, client_id=None):
    variables = {
        "i": {
            "roundId": round_id,
            "contextId": context_id,
            "fields": {"statement": text},
            "label": "positive",
            "clientId": str(client_id or uuid.uuid4()),
        }
    }
    return api(CREATE, variables, token=token)["createExample"]


def _count_examples() -> int:
    return run_sql("SELECT count(*) AS n FROM examples")[0]["n"]


def test_exact_and_near_repeats_of_own_examples_are_refused(api, target_models):
    author, round_id, context_id = _world(api)
    first = _create(api, author, round_id, context_id, FIRST)
    assert first["__typename"] == "ExampleSubmitted", first
    # A retry of the same client UUID is not a repeat: it answers from the stored example.
    client_id = uuid.uuid4()
    second = _create(api, author, round_id, context_id, "A different review about a dull film.", client_id)
    retried = _create(api, author, round_id, context_id, "A different review about a dull film.", client_id)
    assert retried["__typename"] == "ExampleSubmitted" and retried["duplicate"] is True
    assert retried["example"]["id"] == second["example"]["id"]

    exact = _create(
        api,
        author,
        round_id,
        context_id,
        "  this MOVIE was a slow, beautiful, and utterly heartbreaking journey through grief!! ",
    )
    assert exact["__typename"] == "DuplicateExampleError", exact
    assert exact["code"] == "DUPLICATE_EXAMPLE" and exact["kind"] == "exact" and exact["own"] is True
    assert exact["repeatsExampleId"] == first["example"]["id"]
    assert exact["repeatsExcerpt"].startswith("This movie was a slow")
    assert "your earlier example" in exact["message"] and "Please write something new" in exact["message"]

    near = _create(
        api, author, round_id, context_id, "This movie was a slow, beautiful and utterly heartbreaking journey through loss."
    )
    assert near["__typename"] == "DuplicateExampleError" and near["kind"] == "near", near
    assert 0.6 <= near["similarity"] < 1.0
    assert _count_examples() == 2  # nothing was stored for the refusals

    # Another worker may write the same text (it is not validated yet); a different text passes.
    other = api.sign_up("other")
    assert _create(api, other, round_id, context_id, FIRST)["__typename"] == "ExampleSubmitted"
    assert _create(api, author, round_id, context_id, "Completely new words about acting.")["__typename"] == "ExampleSubmitted"
    # Each refused client UUID counts once for the owners.
    assert run_sql("SELECT count(*) AS n FROM duplicate_refusals")[0]["n"] == 2


def test_validated_examples_of_the_round_are_protected(api, target_models):
    author, round_id, context_id = _world(api)
    first = _create(api, author, round_id, context_id, FIRST)
    run_sql("UPDATE examples SET status = 'validated'")
    other = api.sign_up("other")
    refused = _create(api, other, round_id, context_id, FIRST.upper())
    assert refused["__typename"] == "DuplicateExampleError", refused
    assert refused["own"] is False and refused["repeatsExampleId"] == first["example"]["id"]
    assert "the validated example" in refused["message"]


def test_guard_is_off_unless_the_task_turns_it_on(api, target_models):
    author, round_id, context_id = _world(api, enabled=False)
    assert _create(api, author, round_id, context_id, FIRST)["__typename"] == "ExampleSubmitted"
    assert _create(api, author, round_id, context_id, FIRST)["__typename"] == "ExampleSubmitted"


def test_offline_batch_answers_per_item_and_stores_the_rest(api, target_models):
    author, round_id, context_id = _world(api)
    texts = [FIRST, "Another idea entirely: the soundtrack carried it.", FIRST.lower()]
    inputs = [
        {
            "roundId": round_id,
            "contextId": context_id,
            "fields": {"statement": t},
            "label": "positive",
            "clientId": str(uuid.uuid4()),
        }
        for t in texts
    ]
    results = api(BATCH, {"i": inputs}, token=author)["submitExamples"]
    assert [r["__typename"] for r in results] == ["ExampleSubmitted", "ExampleSubmitted", "DuplicateExampleError"]
    assert results[2]["repeatsExampleId"] == results[0]["example"]["id"]
    # The sync is replayed (a lost reply): the same answers, nothing written twice.
    again = api(BATCH, {"i": inputs}, token=author)["submitExamples"]
    assert [r["__typename"] for r in again] == ["ExampleSubmitted", "ExampleSubmitted", "DuplicateExampleError"]
    assert _count_examples() == 2
    assert run_sql("SELECT count(*) AS n FROM duplicate_refusals")[0]["n"] == 1


def test_task_quality_counts_refused_duplicates(api, target_models):
    author, round_id, context_id = _world(api)
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")
    quality = "query($c: String!) { taskQuality(taskCode: $c) { duplicatesRefused } }"
    assert api(quality, {"c": "sentiment"}, token=owner)["taskQuality"]["duplicatesRefused"] == 0
    assert _create(api, author, round_id, context_id, FIRST)["__typename"] == "ExampleSubmitted"
    refused_id = uuid.uuid4()
    for _ in range(2):  # a retried refusal (same client UUID) counts once
        assert _create(api, author, round_id, context_id, FIRST, refused_id)["__typename"] == "DuplicateExampleError"
    assert _create(api, author, round_id, context_id, FIRST.upper())["__typename"] == "DuplicateExampleError"
    assert api(quality, {"c": "sentiment"}, token=owner)["taskQuality"]["duplicatesRefused"] == 2


# The same sentence with its clauses swapped: too few shared word 3-grams for the n-gram test (Jaccard 0.56 < 0.7),
# the same meaning to the model (cosine 0.99 with the test stack's sentiment model).
MEANT = "The food was absolutely wonderful and the waiters were kind to every one of us tonight."
REORDERED = "Tonight the waiters were kind to every one of us and the food was absolutely wonderful."


def test_a_repeat_in_other_words_is_refused_by_the_models_vectors(api, target_models):
    author, round_id, context_id = _world(api, jaccard=0.7)
    first = _create(api, author, round_id, context_id, MEANT)
    assert first["__typename"] == "ExampleSubmitted", first
    # The target model's vector of each stored example is kept, by encoder (model and version).
    [stored] = run_sql("SELECT encoder, length(vector) AS n FROM example_vectors")
    assert stored["encoder"].startswith(target_models["sentiment"] + "@") and stored["n"] > 0

    reordered = _create(api, author, round_id, context_id, REORDERED)
    assert reordered["__typename"] == "DuplicateExampleError", reordered
    assert reordered["kind"] == "semantic" and reordered["own"] is True
    assert reordered["repeatsExampleId"] == first["example"]["id"]
    assert 0.98 <= reordered["similarity"] <= 1.0 and "the same meaning" in reordered["message"]
    # Something else passes: the semantic test does not refuse every review of the same kind.
    other = _create(api, author, round_id, context_id, "Cold soup, a forty-minute wait and nobody said sorry.")
    assert other["__typename"] == "ExampleSubmitted", other
    assert _count_examples() == 2 and run_sql("SELECT count(*) AS n FROM example_vectors")[0]["n"] == 2


def test_the_semantic_test_follows_the_tasks_threshold(api, target_models):
    author, round_id, context_id = _world(api, jaccard=0.7, cosine=None)  # off: the text tests alone decide
    assert _create(api, author, round_id, context_id, MEANT)["__typename"] == "ExampleSubmitted"
    assert _create(api, author, round_id, context_id, REORDERED)["__typename"] == "ExampleSubmitted"
    assert run_sql("SELECT count(*) AS n FROM example_vectors")[0]["n"] == 0  # nothing to keep vectors for


def test_the_same_text_sent_at_once_is_stored_once(api, target_models):
    # Four tabs (or a sync and a tab) send one text at the same moment, each with its own client UUID: one is stored
    # and the others are told what they repeat; checking before storing must not let them all pass.
    author, round_id, context_id = _world(api)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: _create(api, author, round_id, context_id, FIRST), range(4)))
    kinds = sorted(r["__typename"] for r in results)
    assert kinds == ["DuplicateExampleError"] * 3 + ["ExampleSubmitted"], results
    [stored] = [r["example"]["id"] for r in results if r["__typename"] == "ExampleSubmitted"]
    assert {r["repeatsExampleId"] for r in results if r["__typename"] == "DuplicateExampleError"} == {stored}
    assert _count_examples() == 1
