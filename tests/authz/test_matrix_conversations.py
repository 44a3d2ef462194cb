"""Authorization matrix, conversations with a generative target (issue #30): sending a message, reading a conversation,
stopping, retrying and streaming a reply, submitting the conversation (see matrix.py and world.py).

Every operation needs the annotate scope. A conversation, its turns and its reply stream are their author's alone:
anyone else is told it does not exist (hide). So each cell acts on a conversation of the annotator, except the
annotator's own cells and the cells of the tokens with the annotate scope, which act on their own (the admin's)
conversation: the annotator and those tokens succeed, every other signed-in principal is hidden from it, and the
tokens without the scope are refused before any conversation is read.

The module's world adds a generative task (created by the admin, owned by task_owner too) with one round whose target
is the built-in demo model, inserted by SQL (no Triton check: the model may or may not be loaded; a reply started by
an allowed cell ends done or failed in the background, and the matrix only checks the mutation's answer), and one
context. Conversations and turns the cells act on are inserted by SQL, as a reply's end leaves them."""

import json
import uuid

import pytest

from tests.api.conversations_helpers import generative_config, wait_for_replies_to_end
from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import gid, pk_of
from tests.conftest import run_sql

ERR = "... on Error { code message }"
CODE = "mx_chat"
TARGET = {"name": "generative_demo", "version": "1"}
TURN = "id status reply attempts { status }"


@pytest.fixture(scope="module", autouse=True)
def chat(world):
    created = world.api(
        f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERR} }} }}",
        {"i": {"code": CODE, "name": "Matrix red team", "config": generative_config()}},
        token=world.bearer["admin"],
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    task = run_sql("SELECT id FROM tasks WHERE code = $1", CODE)[0]["id"]
    run_sql('INSERT INTO task_owners (task, "user") VALUES ($1, $2)', task, world.user_pk["task_owner"])
    world.ids["chat_round"] = run_sql(
        "INSERT INTO rounds (task, number, target_models, start_at) VALUES ($1, 1, $2, now()) RETURNING id",
        task,
        json.dumps([TARGET]),
    )[0]["id"]
    run_sql("UPDATE tasks SET current_round = 1 WHERE id = $1", task)
    world.ids["chat_context"] = run_sql(
        "INSERT INTO contexts (round, fields, total_used, total_fooled, created_at) VALUES ($1, $2, 0, 0, now()) RETURNING id",
        world.ids["chat_round"],
        json.dumps({"scenario": "A quiz about European capitals."}),
    )[0]["id"]


@pytest.fixture(scope="module", autouse=True)
def settle_replies(chat):
    """Let the replies the allowed cells started end before the next module empties the tables (ids start again
    there: a late reply must not finish another module's turn)."""
    yield
    wait_for_replies_to_end()


def _owner_of(world, principal: str) -> str:
    """Whose conversation a cell acts on: the principal's own for the annotator and the tokens that may annotate (the
    admin's), the annotator's for everyone else (hidden from them, or refused before it is read)."""
    if principal == "annotator" or principal in ("token_annotate", "token_admin"):
        return world.self_of(principal)
    return "annotator"


def _conversation(world, author: str, last: str) -> tuple[int, int]:
    """A conversation of `author` in the generative round with two finished turns, the last one `last` (done or
    failed); (conversation pk, last turn pk)."""
    conversation = run_sql(
        'INSERT INTO conversations (client_id, round, context, "user", target, params, created_at) '
        "VALUES ($1, $2, $3, $4, $5, $6, now()) RETURNING id",
        uuid.uuid4(),
        world.ids["chat_round"],
        world.ids["chat_context"],
        world.user_pk[author],
        json.dumps(TARGET),
        json.dumps({"max_tokens": 24, "temperature": 0.0, "seed": 0, "stop": []}),
    )[0]["id"]
    turns = [("What is the capital of France?", "Paris.", "done", ""), ("Are you sure?", "Lyon, I think.", last, "")]
    if last == "failed":
        turns[-1] = ("Are you sure?", "Ly", "failed", "The target stopped answering.")
    pk = 0
    for position, (message, reply, status, error) in enumerate(turns):
        pk = run_sql(
            "INSERT INTO conversation_turns (conversation, position, client_id, message, reply, status, error, model_name, "
            "model_version, started_at, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '1', now(), now()) RETURNING id",
            conversation,
            position,
            uuid.uuid4(),
            message,
            reply,
            status,
            error,
            TARGET["name"],
        )[0]["id"]
    return conversation, pk


def _with_conversation(last: str = "done"):
    def prepare(world, principal):
        conversation, turn = _conversation(world, _owner_of(world, principal), last)
        return {"c": gid("Conversation", conversation), "t": gid("ConversationTurn", turn)}

    return prepare


def _conversation_state(world, variables):
    return run_sql("SELECT example FROM conversations WHERE id = $1", pk_of(variables["c"]))


def _turns_state(world, variables):
    return run_sql(
        "SELECT id, position, message, reply, status, error, attempts::text AS attempts, judge_score, finished_at "
        "FROM conversation_turns WHERE conversation = $1 ORDER BY position",
        pk_of(variables["c"]),
    )


def _everything(world, variables):
    return (_conversation_state(world, variables), _turns_state(world, variables))


def _message(world, principal):
    return {
        "i": {
            "roundId": gid("Round", world.ids["chat_round"]),
            "contextId": gid("Context", world.ids["chat_context"]),
            "clientId": str(uuid.uuid4()),
            "message": f"What is the capital of France, {principal}?",
        }
    }


def _started(world, variables):
    return run_sql(
        'SELECT c.id, c."user", t.position, t.message FROM conversations c JOIN conversation_turns t ON t.conversation = c.id '
        "WHERE c.client_id = $1",
        uuid.UUID(variables["i"]["clientId"]),
    )


def _check_sent(world, principal, value, variables):
    (row,) = _started(world, variables)
    same((row["user"], row["position"], row["message"]), (world.user_pk[principal], 0, variables["i"]["message"]))
    same(value["conversation"]["id"], gid("Conversation", row["id"]))
    same((value["duplicate"], value["turn"]["status"]), (False, "GENERATING"))


def _submission(world, principal):
    variables = _with_conversation()(world, principal)
    return {**variables, "i": {"conversationId": variables["c"], "clientId": str(uuid.uuid4()), "categories": ["false_fact"]}}


def _check_submitted(world, principal, value, variables):
    example = value["example"]
    row = run_sql('SELECT "user", client_id, input FROM examples WHERE id = $1', pk_of(example["id"]))[0]
    same((row["user"], str(row["client_id"])), (world.user_pk[principal], variables["i"]["clientId"]))
    same(json.loads(row["input"])["categories"], ["false_fact"])
    same(_conversation_state(world, variables), [{"example": pk_of(example["id"])}])


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OWN = "401 ok hide hide hide 403 ok 403 ok"
OPS = [
    Op(
        "sendMessage",
        "Mutation.sendMessage",
        f"mutation($i: SendMessageInput!) {{ sendMessage(input: $i) {{ __typename "
        f"... on MessageSent {{ duplicate conversation {{ id }} turn {{ id status }} }} {ERR} }} }}",
        # Anyone who may annotate, in a round of a task they may see (a public one here): a new conversation of theirs.
        "401 ok ok ok ok 403 ok 403 ok",
        ok_type="MessageSent",
        prepare=_message,
        watch=_started,
        check=_check_sent,
    ),
    Op(
        "conversation",
        "Query.conversation",
        f"query($c: ID!) {{ conversation(id: $c) {{ id turns {{ {TURN} }} }} }}",
        OWN,
        prepare=_with_conversation(),
        watch=_everything,
        check=lambda w, p, v, a: same(
            (v["id"], [(t["status"], t["reply"]) for t in v["turns"]]), (a["c"], [("DONE", "Paris."), ("DONE", "Lyon, I think.")])
        ),
    ),
    Op(
        "stopReply",
        "Mutation.stopReply",
        f"mutation($t: ID!) {{ stopReply(turnId: $t) {{ __typename ... on ReplyChanged {{ turn {{ {TURN} }} }} {ERR} }} }}",
        OWN,
        ok_type="ReplyChanged",
        prepare=_with_conversation(),
        watch=_everything,
        # A finished reply stays as it is.
        check=lambda w, p, v, a: same((v["turn"]["id"], v["turn"]["status"]), (a["t"], "DONE")),
    ),
    Op(
        "retryReply",
        "Mutation.retryReply",
        f"mutation($t: ID!) {{ retryReply(turnId: $t) {{ __typename ... on ReplyChanged {{ turn {{ {TURN} }} }} {ERR} }} }}",
        OWN,
        ok_type="ReplyChanged",
        prepare=_with_conversation("failed"),
        watch=_everything,
        # Asked again: the failed attempt is kept with the turn; the new reply streams in the background.
        check=lambda w, p, v, a: same(
            (v["turn"]["id"], v["turn"]["status"], v["turn"]["attempts"]), (a["t"], "GENERATING", [{"status": "FAILED"}])
        ),
    ),
    Op(
        "submitConversation",
        "Mutation.submitConversation",
        f"mutation($i: SubmitConversationInput!) {{ submitConversation(input: $i) {{ __typename "
        f"... on ExampleSubmitted {{ duplicate example {{ id }} }} {ERR} }} }}",
        OWN,
        ok_type="ExampleSubmitted",
        prepare=_submission,
        watch=_everything,
        check=_check_submitted,
    ),
    Op(
        "replyStream",
        "Subscription.replyStream",
        "subscription($t: ID!) { replyStream(turnId: $t) { turnId text done status } }",
        OWN,
        prepare=_with_conversation(),
        watch=_everything,
        # Finished before anyone listened: one event with the whole reply and its end.
        check=lambda w, p, v, a: same(v, {"turnId": a["t"], "text": "Lyon, I think.", "done": True, "status": "DONE"}),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)


def test_an_annotate_token_is_hidden_from_someone_elses_conversation(world):
    """The tokens' allowed cells act on their own (the admin's) conversation: the annotator's is hidden from a token
    with the annotate scope as from the admin's session."""
    conversation, _turn = _conversation(world, "annotator", "done")
    response = world.api.http.post(
        "/graphql",
        headers={"Authorization": f"Bearer {world.bearer['token_annotate']}"},
        json={"query": "query($c: ID!) { conversation(id: $c) { id } }", "variables": {"c": gid("Conversation", conversation)}},
    )
    errors = response.json()["errors"]
    holds(errors[0]["extensions"]["code"] == "NOT_FOUND", errors)
