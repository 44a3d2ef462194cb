"""Notifications through GraphQL: each producer writes exactly one entry for the right user (the real flows:
votes → the aggregation job, uploads → the deploy and evaluation jobs), the live feed pushes it, reading and marking
are the recipient's alone."""

import asyncio
import base64
import io
import json
import os
import zipfile
from datetime import UTC, datetime, timedelta

from websockets.sync.client import connect

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.api.models_helpers import create_dataset, model_status, tar_gz_of, upload_model
from tests.api.notifications_helpers import INBOX, MARK, Feed, inbox, kinds
from tests.conftest import MODEL_CACHE, SHARED_DATA, run_sql, seed_builtin_tasks

VALIDATE = """mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l, mode: OWNER) {
  __typename ... on Error { code message } } }"""


def _examples(api, token, n):
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    return [fooling_example(api, token, round_id, context_id, f"Review {i}: it was quite something.") for i in range(n)]


def _pk(global_id: str) -> int:
    from strawberry.relay import GlobalID

    return int(GlobalID.from_id(global_id).node_id)


def _enqueue(function: str, *args) -> None:
    from arq import create_pool
    from arq.connections import RedisSettings

    async def go():
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        job = await pool.enqueue_job(function, *args)
        await job.result(timeout=120)  # the positive signal: the re-run has finished
        await pool.aclose()

    asyncio.run(go())


def test_outcomes_and_badges_reach_their_authors_once_and_live(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    alice, bob = api.sign_up("alice"), api.sign_up("bob")
    alice_examples, bob_examples = _examples(api, alice, 3), _examples(api, bob, 1)
    # alice wrote on three days in a row: the next aggregation of one of her examples finds her 3-day streak badge.
    today = datetime.now(UTC)
    for days_ago, example in enumerate(alice_examples):
        run_sql("UPDATE examples SET created_at = $1 WHERE id = $2", today - timedelta(days=days_ago), _pk(example["id"]))
    alice_feed, bob_feed = Feed(stack, alice), Feed(stack, bob)
    try:
        api(VALIDATE, {"e": alice_examples[0]["id"], "l": "CORRECT"}, token=admin_token)
        api(VALIDATE, {"e": bob_examples[0]["id"], "l": "INCORRECT"}, token=admin_token)
        api(VALIDATE, {"e": alice_examples[1]["id"], "l": "INCORRECT"}, token=admin_token)
        live = [alice_feed.next() for _ in range(3)]
        assert sorted(n["kind"] for n in live) == ["BADGE_EARNED", "EXAMPLE_REJECTED", "EXAMPLE_VALIDATED"]
        assert all(not n["read"] for n in live)
        # bob's feed carries bob's notification only: the first it pushes is his, though alice's came before.
        bobs = bob_feed.next()
        assert bobs["kind"] == "EXAMPLE_REJECTED" and bobs["title"] == "Your example for Sentiment analysis was rejected"
    finally:
        alice_feed.close()
        bob_feed.close()
    badge = next(n for n in live if n["kind"] == "BADGE_EARNED")
    assert badge["badge"] == "3-day streak" and badge["title"] == "Badge earned: 3-day streak"
    validated = next(n for n in live if n["kind"] == "EXAMPLE_VALIDATED")
    assert validated["body"] == "“Review 0: it was quite something.”"

    # Re-runs of the jobs write nothing new: the aggregation again, the badge check again, another aggregation.
    _enqueue("aggregate_example", _pk(alice_examples[0]["id"]))
    _enqueue("check_badges", run_sql("SELECT id FROM tasks WHERE code = 'sentiment'")[0]["id"], [_pk_user("alice")])
    api(VALIDATE, {"e": alice_examples[2]["id"], "l": "CORRECT"}, token=admin_token)
    wait_until(
        lambda: "EXAMPLE_VALIDATED" in [n["kind"] for n in inbox(api, alice)[0] if n["subjectId"] == alice_examples[2]["id"]]
    )
    _enqueue("check_badges", run_sql("SELECT id FROM tasks WHERE code = 'sentiment'")[0]["id"], [_pk_user("alice")])
    assert kinds(api, alice) == ["BADGE_EARNED", "EXAMPLE_REJECTED", "EXAMPLE_VALIDATED", "EXAMPLE_VALIDATED"]
    assert kinds(api, bob) == ["EXAMPLE_REJECTED"]
    assert kinds(api, admin_token) == []


def _pk_user(username: str) -> int:
    return run_sql("SELECT id FROM users WHERE username = $1", username)[0]["id"]


def test_reading_and_marking_are_the_recipients_alone(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    alice, mallory = api.sign_up("alice"), api.sign_up("mallory")
    examples = _examples(api, alice, 3)
    for example, label in zip(examples, ("CORRECT", "INCORRECT", "CORRECT")):
        api(VALIDATE, {"e": example["id"], "l": label}, token=admin_token)
    wait_until(lambda: inbox(api, alice)[1] == 3)
    entries = inbox(api, alice)[0]
    ids = [n["id"] for n in entries]
    assert _pk(ids[0]) > _pk(ids[1]) > _pk(ids[2])  # newest first

    # Worded again for each reader's language (the facts inside, here the task's name, stay as stored).
    headers = {"Authorization": f"Bearer {alice}", "Accept-Language": "fr"}
    french = api.http.post("/graphql", json={"query": INBOX}, headers=headers).json()["data"]["notifications"]["edges"]
    titles = {entry["node"]["title"] for entry in french}
    assert titles == {"Votre exemple pour Sentiment analysis a été validé", "Votre exemple pour Sentiment analysis a été rejeté"}
    assert {n["title"] for n in entries} == {
        "Your example for Sentiment analysis was validated",
        "Your example for Sentiment analysis was rejected",
    }

    # Pages: two, then one, through the cursor.
    first_page = api("{ notifications(first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }", token=alice)[
        "notifications"
    ]
    assert [e["node"]["id"] for e in first_page["edges"]] == ids[:2] and first_page["pageInfo"]["hasNextPage"]
    assert [n["id"] for n in inbox(api, alice, after=first_page["pageInfo"]["endCursor"])[0]] == ids[2:]

    # mallory sees none of it, cannot read it by id and cannot mark it.
    assert inbox(api, mallory) == ([], 0)
    assert api("query($i: ID!) { node(id: $i) { id } }", {"i": ids[0]}, token=mallory)["node"] is None
    assert api("query($i: ID!) { node(id: $i) { ... on Notification { kind } } }", {"i": ids[0]}, token=alice)["node"]
    refused = api(MARK, {"ids": ids}, token=mallory)["markNotificationsRead"]
    assert refused == {"__typename": "NotificationsMarked", "markedIds": [], "unreadCount": 0}
    assert api(MARK, {"all": True}, token=mallory)["markNotificationsRead"]["markedIds"] == []
    assert inbox(api, alice)[1] == 3

    # alice marks one, then the rest; unreadOnly follows.
    marked = api(MARK, {"ids": [ids[1]]}, token=alice)["markNotificationsRead"]
    assert marked == {"__typename": "NotificationsMarked", "markedIds": [ids[1]], "unreadCount": 2}
    assert [n["id"] for n in inbox(api, alice, unread_only=True)[0]] == [ids[0], ids[2]]
    assert api(MARK, {"ids": [ids[1]]}, token=alice)["markNotificationsRead"]["markedIds"] == []  # already read
    assert api(MARK, {"all": True}, token=alice)["markNotificationsRead"]["unreadCount"] == 0
    assert inbox(api, alice, unread_only=True) == ([], 0)
    assert all(n["read"] for n in inbox(api, alice)[0])

    # Wrong shapes are input errors.
    for variables in ({}, {"ids": ids[:1], "all": True}, {"ids": ["bm9wZToxMg=="]}, {"ids": [ids[0]] * 101}):
        result = api(MARK, variables, token=alice)["markNotificationsRead"]
        assert result["__typename"] == "InputError", (variables, result)

    # The live feed catches up from `since`, and refuses the anonymous.
    feed = Feed(stack, alice, since=ids[2])
    try:
        assert [feed.next()["id"], feed.next()["id"]] == [ids[1], ids[0]]
    finally:
        feed.close()
    feed = Feed(stack, alice, since=base64.b64encode(b"Notification:0").decode())  # after an empty read: all of them
    try:
        assert [feed.next()["id"] for _ in range(3)] == ids[::-1]
    finally:
        feed.close()
    with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        ws.recv(timeout=30)
        ws.send(
            json.dumps({"id": "n", "type": "subscribe", "payload": {"query": "subscription { notificationReceived { id } }"}})
        )
        message = json.loads(ws.recv(timeout=30))
        error = message["payload"][0] if message["type"] == "error" else message["payload"]["errors"][0]
        assert error["extensions"]["code"] == "AUTHENTICATION_REQUIRED"


def _jsonl(rows) -> bytes:
    return "\n".join(json.dumps(r) for r in rows).encode()


def _scoring_rows(n):
    path = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-test.jsonl"
    rows = []
    for line in path.open():
        r = json.loads(line)
        if r.get("gold_label") in ("negative", "positive", "neutral"):
            rows.append({"uid": r["text_id"], "statement": r["sentence"], "label": r["gold_label"]})
        if len(rows) == n:
            return rows
    return rows


def _broken_model(template) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "broken/config.pbtxt", (template / "config.pbtxt").read_text().replace('name: "sentiment_minilm"', 'name: "broken"')
        )
        archive.writestr("broken/1/model.py", "raise RuntimeError('weights missing on purpose')\n")
    return buffer.getvalue()


def test_a_models_deployment_scores_and_failure_reach_its_owner(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    create_dataset(api, admin_token, "sentiment", "small", _jsonl(_scoring_rows(40)))
    researcher, other = api.sign_up("researcher"), api.sign_up("other")
    feed = Feed(stack, researcher)
    try:
        good = upload_model(api, researcher, "sentiment", "good", tar_gz_of(MODEL_CACHE / target_models["sentiment"]))
        live = [feed.next(timeout=600), feed.next(timeout=600)]
        assert [n["kind"] for n in live] == ["MODEL_DEPLOYED", "MODEL_SCORED"]
        assert live[0]["title"] == "Model “good” deployed" and live[0]["body"].startswith("Smoke test passed")
        broken = upload_model(
            api, researcher, "sentiment", "broken", _broken_model(MODEL_CACHE / target_models["sentiment"]), filename="broken.zip"
        )
        failed = feed.next(timeout=600)
        assert failed["kind"] == "MODEL_FAILED" and "weights missing on purpose" in failed["body"]
    finally:
        feed.close()
    assert model_status(api, researcher, good["model"]["id"])["status"] == "evaluated"
    assert model_status(api, researcher, broken["model"]["id"])["status"] == "failed"
    # A re-run of the evaluation logs a second "evaluated" status and notifies nobody again.
    _enqueue("evaluate_model", _pk(good["model"]["id"]))
    statuses = [e["status"] for e in model_status(api, researcher, good["model"]["id"])["statusLog"]]
    assert statuses.count("evaluated") == 2
    entries, unread = inbox(api, researcher)
    assert sorted(n["kind"] for n in entries) == ["MODEL_DEPLOYED", "MODEL_FAILED", "MODEL_SCORED"] and unread == 3
    assert {n["subjectId"] for n in entries} == {good["model"]["id"], broken["model"]["id"]}
    assert inbox(api, other) == ([], 0)


def test_a_decision_on_a_proposed_task_reaches_each_of_its_owners(stack, api, admin_token):
    from server.tasks.builtin import BUILTIN_TASKS

    seed_builtin_tasks()
    owner, co_owner, stranger = api.sign_up("owner"), api.sign_up("co-owner"), api.sign_up("stranger")
    config = next(t for t in BUILTIN_TASKS if t["code"] == "sentiment")["config"]
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on Error { message } } }",
        {"i": {"code": "movies", "name": "Movie sentiment", "config": config}},
        token=owner,
    )["createTask"]
    assert created["__typename"] == "TaskCreated", created
    added = api(
        'mutation { addTaskOwner(taskCode: "movies", username: "co-owner") { __typename ... on Error { message } } }',
        token=owner,
    )["addTaskOwner"]
    assert added["__typename"] == "TaskOwnerAdded", added
    feed = Feed(stack, co_owner)
    try:
        api('mutation { rejectTask(taskCode: "movies", note: "Add instructions, please.") { __typename } }', token=admin_token)
        rejected = feed.next()
        assert (rejected["kind"], rejected["title"], rejected["body"]) == (
            "TASK_REJECTED",
            "Your task Movie sentiment was rejected",
            "Add instructions, please.",
        )
        api('mutation { updateTask(input: {taskCode: "movies", instructions: "Write a review."}) { __typename } }', token=owner)
        api('mutation { approveTask(taskCode: "movies", note: "Thanks!") { __typename } }', token=admin_token)
        approved = feed.next()
        assert (approved["kind"], approved["body"]) == ("TASK_APPROVED", "Thanks!")
    finally:
        feed.close()
    assert kinds(api, owner) == kinds(api, co_owner) == ["TASK_APPROVED", "TASK_REJECTED"]
    assert inbox(api, owner)[0][0]["link"] == "/owner/movies"
    assert kinds(api, stranger) == [] and kinds(api, admin_token) == []
