"""Live feeds of issue #19 point 4 over graphql-transport-ws: `myExampleUpdates` (the viewer's own examples judged,
decided, flagged, retracted) and `taskListChanged` (tasks created, edited, reviewed, shown/hidden, rounds opened and
closed). Each feed says LISTENING first, so a test acts only once the feed is live."""

import copy
import json

from websockets.sync.client import connect

from server.tasks.builtin import BUILTIN_TASKS
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
from tests.api.test_ask_user import _ask_user_task, _claim, _write, qa_model  # noqa: F401 (qa_model: a fixture)
from tests.conftest import seed_builtin_tasks

MINE = "subscription { myExampleUpdates { change example { id status flagged retracted } } }"
TASKS = "subscription { taskListChanged { change task { code status currentRound { number endAt } } } }"
VALIDATE = """mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT, mode: OWNER) {
  __typename ... on Error { code message } } }"""
ERR = "... on Error { code message }"
SENTIMENT = copy.deepcopy(next(t for t in BUILTIN_TASKS if t["code"] == "sentiment")["config"])


class Feed:
    """One subscription over its own socket, as the PWA opens it."""

    def __init__(self, stack, token: str | None, query: str):
        self.ws = connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"])
        init = {"Authorization": f"Bearer {token}"} if token else {}
        self.ws.send(json.dumps({"type": "connection_init", "payload": init}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "connection_ack"
        self.ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query}}))

    def next(self) -> dict:
        while True:
            message = json.loads(self.ws.recv(timeout=60))
            if message["type"] == "ping":
                self.ws.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next" and not message["payload"].get("errors"), message
            (value,) = message["payload"]["data"].values()
            return value

    def close(self) -> None:
        self.ws.close()


def test_my_example_updates_push_outcomes_flags_and_retractions_to_the_author_only(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    author, other = api.sign_up("author"), api.sign_up("other")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    examples = [fooling_example(api, author, round_id, context_id, f"The plot was something else {i}.") for i in range(3)]
    theirs = fooling_example(api, other, round_id, context_id, "Another person's tricky review.")
    mine, others = Feed(stack, author, MINE), Feed(stack, other, MINE)
    assert mine.next() == {"change": "LISTENING", "example": None}
    assert others.next() == {"change": "LISTENING", "example": None}

    # The validators' outcome (an owner vote decides at once), then a flag and a retraction.
    assert api(VALIDATE, {"e": examples[0]["id"]}, token=admin_token)["validateExample"]["__typename"] == "ExampleValidated"
    decided = mine.next()
    assert decided["change"] == "OUTCOME"
    assert decided["example"] == {"id": examples[0]["id"], "status": "validated", "flagged": False, "retracted": False}
    flag = 'mutation($e: ID!) { flagExample(exampleId: $e, reason: "typo") { __typename } }'
    api(flag, {"e": examples[1]["id"]}, token=author)
    assert mine.next() == {
        "change": "FLAGGED",
        "example": {**decided["example"], "id": examples[1]["id"], "status": "open", "flagged": True},
    }
    api("mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }", {"e": examples[2]["id"]}, token=author)
    retracted = mine.next()
    assert (retracted["change"], retracted["example"]["id"], retracted["example"]["retracted"]) == (
        "RETRACTED",
        examples[2]["id"],
        True,
    )

    # The other annotator heard nothing of these: their next push is their own example's.
    api(flag, {"e": theirs["id"]}, token=other)
    assert (others.next()["example"]["id"]) == theirs["id"]
    mine.close()
    others.close()


def test_my_example_updates_push_the_judged_claim(stack, api, qa_model):  # noqa: F811 (the imported fixture)
    _owner, round_id = _ask_user_task(api)
    author = api.sign_up("claimer")
    written = _write(api, author, round_id, "Where was Marie Curie born?")["example"]
    feed = Feed(stack, author, MINE)
    assert feed.next()["change"] == "LISTENING"
    assert _claim(api, author, written["id"], True)["__typename"] == "FoolingClaimed"
    judged = feed.next()
    assert (judged["change"], judged["example"]["id"], judged["example"]["status"]) == ("JUDGED", written["id"], "open")
    feed.close()


def test_my_example_updates_need_an_account(stack, api):
    feed = Feed(stack, None, MINE)
    message = json.loads(feed.ws.recv(timeout=30))
    errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
    assert errors[0]["extensions"]["code"] == "AUTHENTICATION_REQUIRED"
    feed.close()


def test_task_list_changes_are_pushed_with_the_task_when_the_viewer_may_see_it(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    anonymous, owner = Feed(stack, None, TASKS), Feed(stack, admin_token, TASKS)
    assert anonymous.next() == {"change": "LISTENING", "task": None}
    assert owner.next() == {"change": "LISTENING", "task": None}

    def both() -> tuple[dict, dict]:
        return anonymous.next(), owner.next()

    create = f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERR} }} }}"
    assert (
        api(create, {"i": {"code": "movies", "name": "Movies", "config": SENTIMENT}}, token=admin_token)["createTask"][
            "__typename"
        ]
        == "TaskCreated"
    )
    seen, _ = both()
    assert seen == {"change": "CREATED", "task": {"code": "movies", "status": "PUBLIC", "currentRound": None}}

    open_round = f"mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename ... on RoundCreated {{ round {{ id }} }} {ERR} }} }}"
    opened = api(
        open_round, {"i": {"taskCode": "movies", "targetModels": [{"name": target_models["sentiment"]}]}}, token=admin_token
    )
    assert opened["createRound"]["__typename"] == "RoundCreated", opened
    seen, _ = both()
    assert seen == {
        "change": "ROUND_OPENED",
        "task": {"code": "movies", "status": "PUBLIC", "currentRound": {"number": 1, "endAt": None}},
    }

    close = f"mutation($r: ID!) {{ closeRound(roundId: $r) {{ __typename {ERR} }} }}"
    api(close, {"r": opened["createRound"]["round"]["id"]}, token=admin_token)
    seen, _ = both()
    assert seen["change"] == "ROUND_CLOSED" and seen["task"]["currentRound"]["endAt"]

    update = f"mutation($i: UpdateTaskInput!) {{ updateTask(input: $i) {{ __typename {ERR} }} }}"
    api(update, {"i": {"taskCode": "movies", "name": "Movie reviews"}}, token=admin_token)
    assert both()[0]["change"] == "UPDATED"

    # Hidden: the public hears that the list changed, without the task; its owner gets the task.
    visibility = f"mutation($c: String!) {{ setTaskVisibility(taskCode: $c, visibility: HIDDEN) {{ __typename {ERR} }} }}"
    api(visibility, {"c": "movies"}, token=admin_token)
    seen, owners = both()
    assert seen == {"change": "VISIBILITY", "task": None}
    assert owners["change"] == "VISIBILITY" and owners["task"]["status"] == "HIDDEN"

    # A proposal, then its review.
    proposer = api.sign_up("proposer")
    assert (
        api(create, {"i": {"code": "proposal", "name": "Proposal", "config": SENTIMENT}}, token=proposer)["createTask"][
            "__typename"
        ]
        == "TaskCreated"
    )
    assert both()[0] == {"change": "CREATED", "task": None}
    approve = f'mutation($c: String!) {{ approveTask(taskCode: $c, note: "") {{ __typename {ERR} }} }}'
    api(approve, {"c": "proposal"}, token=admin_token)
    seen, _ = both()
    assert seen == {"change": "APPROVED", "task": {"code": "proposal", "status": "PUBLIC", "currentRound": None}}
    anonymous.close()
    owner.close()


def test_my_example_updates_push_an_explanation_and_the_owners_actions(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    author = api.sign_up("explainer")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    flagged, retracted = (fooling_example(api, author, round_id, context_id, f"A slow film, lovely nap {i}.") for i in range(2))
    api('mutation($e: ID!) { flagExample(exampleId: $e, reason: "typo") { __typename } }', {"e": flagged["id"]}, token=author)
    feed = Feed(stack, author, MINE)
    assert feed.next()["change"] == "LISTENING"

    explain = 'mutation($e: ID!) { explainExample(exampleId: $e, explanation: "sarcasm") { __typename } }'
    assert api(explain, {"e": retracted["id"]}, token=author)["explainExample"]["__typename"] == "ExampleChanged"
    pushed = feed.next()
    assert (pushed["change"], pushed["example"]["id"]) == ("EXPLAINED", retracted["id"])

    # The task's owner resolves the author's flag, then retracts the other example (actOnExamples).
    act = """mutation($ids: [ID!]!, $a: ExampleBulkAction!) { actOnExamples(exampleIds: $ids, action: $a) {
      __typename ... on ExamplesActedOn { outcomes { done } } } }"""
    assert api(act, {"ids": [flagged["id"]], "a": "RESOLVE_FLAG"}, token=admin_token)["actOnExamples"]["outcomes"] == [
        {"done": True}
    ]
    resolved = feed.next()
    assert (resolved["change"], resolved["example"]["id"], resolved["example"]["flagged"]) == ("FLAGGED", flagged["id"], False)
    assert api(act, {"ids": [retracted["id"]], "a": "RETRACT"}, token=admin_token)["actOnExamples"]["outcomes"] == [
        {"done": True}
    ]
    gone = feed.next()
    assert (gone["change"], gone["example"]["id"], gone["example"]["retracted"]) == ("RETRACTED", retracted["id"], True)
    feed.close()


def test_task_list_changed_tells_of_a_rejected_proposal(stack, api, admin_token):
    proposer = api.sign_up("rejected-proposer")
    create = f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERR} }} }}"
    created = api(create, {"i": {"code": "rejected_one", "name": "Rejected one", "config": SENTIMENT}}, token=proposer)
    assert created["createTask"]["__typename"] == "TaskCreated", created
    feed = Feed(stack, proposer, TASKS)
    assert feed.next()["change"] == "LISTENING"
    reject = f'mutation($c: String!) {{ rejectTask(taskCode: $c, note: "Add labels.") {{ __typename {ERR} }} }}'
    assert api(reject, {"c": "rejected_one"}, token=admin_token)["rejectTask"]["__typename"] == "TaskRejected"
    seen = feed.next()  # the proposer owns it: the task comes along
    assert seen == {"change": "REJECTED", "task": {"code": "rejected_one", "status": "REJECTED", "currentRound": None}}
    feed.close()
