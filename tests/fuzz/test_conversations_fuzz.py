"""Fuzzing the conversations with a generative target (issue #30): sendMessage, stopReply, retryReply, the battles
(issue #31) startBattle, voteBattle and continueBattle and, last (it submits the world's conversations), submitConversation.

The module's world adds alice's generative task `chat` (public: created while she is an admin) with one round whose
target is the built-in demo model, inserted by SQL (no Triton check; the fuzz stack does not load the model, so a reply
started by an allowed case ends failed in the background, which writes only columns the fingerprint leaves out), two
contexts, and conversations inserted as a reply's end leaves them: carol's open one (a done turn), failed one (a done
turn, then a failed one: retryReply's target), generating one (a reply no process writes: stopReply's target) and
submitted one (submitted through the API, so its example exists), alice's and bob's open ones. And alice's battle task
`arena` (two targets, inserted by SQL) with battles as startBattle and the replies leave them: carol's ended one (her
vote's target), voted one (a tie, continued with side B), one still generating, and bob's ended one."""

import json
import uuid

import pytest
from hypothesis import example, given
from strawberry.relay import from_base64

from tests.api.conversations_helpers import generative_config
from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases
from tests.fuzz.world import gid

TARGET = {"name": "generative_demo", "version": "1"}
PARAMS = {"max_tokens": 24, "temperature": 0.0, "seed": 0, "stop": []}
SCENARIOS = ("A quiz about European capitals.", "A chat about the weather.")


def _conversation(world, author: str, name: str, turns: list[tuple[str, str]]) -> None:
    """A conversation of `author` in the chat round with turns of (reply, status); refs conversation:{author}:{name},
    turn:{author}:{name} (its last turn) and clientId:turn:{author}:{name}."""
    users = {row["username"]: row["id"] for row in world.db.fetch("SELECT id, username FROM users")}
    conversation = world.db.fetch(
        'INSERT INTO conversations (client_id, round, context, "user", target, params, created_at) '
        "VALUES ($1, $2, $3, $4, $5, $6, now()) RETURNING id",
        uuid.uuid4(),
        world.refs["pk:round:chat"],
        world.refs["pk:context:chat:0"],
        users[author],
        json.dumps(TARGET),
        json.dumps(PARAMS),
    )[0]["id"]
    world.refs[f"conversation:{author}:{name}"] = gid("Conversation", conversation)
    for position, (reply, status) in enumerate(turns):
        client_id = uuid.uuid4()
        turn = world.db.fetch(
            "INSERT INTO conversation_turns (conversation, position, client_id, message, reply, status, error, model_name, "
            "model_version, started_at, finished_at) VALUES ($1, $2, $3, $4, $5, $6::varchar, $7, $8, '1', now(), "
            "CASE WHEN $6::varchar = 'generating' THEN NULL ELSE now() END) RETURNING id",
            conversation,
            position,
            client_id,
            f"Message {position} of {author}'s {name} conversation.",
            reply,
            status,
            "The target stopped answering." if status == "failed" else "",
            TARGET["name"],
        )[0]["id"]
        world.refs[f"turn:{author}:{name}"] = gid("ConversationTurn", turn)
        world.refs[f"clientId:turn:{author}:{name}"] = str(client_id)
        if position == 0 and len(turns) > 1:
            world.refs[f"turn:{author}:first"] = gid("ConversationTurn", turn)


@pytest.fixture(scope="module", autouse=True)
def chat(world):
    world.db.fetch("UPDATE users SET is_admin = true WHERE username = 'alice'")
    created = world.gql(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "chat", "name": "Task chat", "config": generative_config()}},
        "alice",
    )
    world.db.fetch("UPDATE users SET is_admin = false WHERE username = 'alice'")
    assert created["createTask"]["__typename"] == "TaskCreated", created
    task = world.db.fetch("SELECT id FROM tasks WHERE code = 'chat'")[0]["id"]
    round_pk = world.db.fetch(
        "INSERT INTO rounds (task, number, target_models, start_at) VALUES ($1, 1, $2, now()) RETURNING id",
        task,
        json.dumps([TARGET]),
    )[0]["id"]
    world.db.fetch("UPDATE tasks SET current_round = 1 WHERE id = $1", task)
    world.refs["code:chat"], world.refs["round:chat"], world.refs["pk:round:chat"] = "chat", gid("Round", round_pk), round_pk
    added = world.gql(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": world.refs["round:chat"], "contexts": [{"fields": {"scenario": s}} for s in SCENARIOS]}},
        "alice",
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded", added
    for i, row in enumerate(world.db.fetch("SELECT id FROM contexts WHERE round = $1 ORDER BY id", round_pk)):
        world.refs[f"context:chat:{i}"], world.refs[f"pk:context:chat:{i}"] = gid("Context", row["id"]), row["id"]
    _conversation(world, "carol", "open", [("Paris.", "done")])
    _conversation(world, "carol", "failed", [("Paris.", "done"), ("Ly", "failed")])
    _conversation(world, "carol", "generating", [("Par", "generating")])
    _conversation(world, "carol", "submitted", [("Paris.", "done")])
    _conversation(world, "alice", "open", [("Paris.", "done")])
    _conversation(world, "bob", "open", [("Paris.", "done")])
    client_id = str(uuid.uuid4())
    submitted = world.gql(
        "mutation($i: SubmitConversationInput!) { submitConversation(input: $i) { __typename } }",
        {"i": {"conversationId": world.refs["conversation:carol:submitted"], "clientId": client_id, "categories": ["insult"]}},
        "carol",
    )
    assert submitted["submitConversation"]["__typename"] == "ExampleSubmitted", submitted
    world.refs["clientId:conversation:carol:submitted"] = client_id


ARENA_TARGETS = [TARGET, {"name": "generative_demo_b", "version": "1"}]


def _battle(world, author: str, name: str, status: str = "done", vote: str | None = None) -> None:
    """A battle of `author` in the arena round whose sides' replies are `status` (and its vote); refs
    battle:{author}:{name}, clientId:battle:{author}:{name} and clientId:vote:{author}:{name}."""
    users = {row["username"]: row["id"] for row in world.db.fetch("SELECT id, username FROM users")}
    client_id = uuid.uuid4()
    battle = world.db.fetch(
        'INSERT INTO battles (client_id, round, context, "user", prompt, created_at) VALUES ($1, $2, $3, $4, $5, now()) '
        "RETURNING id",
        client_id,
        world.refs["pk:round:arena"],
        world.refs["pk:context:arena:0"],
        users[author],
        "Which city is the capital of France?",
    )[0]["id"]
    world.refs[f"battle:{author}:{name}"] = gid("Battle", battle)
    world.refs[f"clientId:battle:{author}:{name}"] = str(client_id)
    for position, target in enumerate(ARENA_TARGETS):
        conversation = world.db.fetch(
            'INSERT INTO conversations (client_id, round, context, "user", target, params, created_at) '
            "VALUES ($1, $2, $3, $4, $5, $6, now()) RETURNING id",
            uuid.uuid4(),
            world.refs["pk:round:arena"],
            world.refs["pk:context:arena:0"],
            users[author],
            json.dumps(target),
            json.dumps(PARAMS),
        )[0]["id"]
        world.db.fetch(
            "INSERT INTO conversation_turns (conversation, position, client_id, message, reply, status, model_name, "
            "model_version, started_at, finished_at) VALUES ($1, 0, $2, $3, $4, $5::varchar, $6, '1', now(), "
            "CASE WHEN $5::varchar = 'generating' THEN NULL ELSE now() END)",
            conversation,
            uuid.uuid4(),
            "Which city is the capital of France?",
            "Paris.",
            status,
            target["name"],
        )
        world.db.fetch(
            "INSERT INTO battle_sides (battle, position, conversation) VALUES ($1, $2, $3)", battle, position, conversation
        )
    if vote is not None:
        vote_id = uuid.uuid4()
        world.db.fetch(
            'INSERT INTO battle_votes (battle, "user", choice, client_id, created_at) VALUES ($1, $2, $3, $4, now())',
            battle,
            users[author],
            vote,
            vote_id,
        )
        world.refs[f"clientId:vote:{author}:{name}"] = str(vote_id)


@pytest.fixture(scope="module", autouse=True)
def arena(world, chat):
    world.db.fetch("UPDATE users SET is_admin = true WHERE username = 'alice'")
    created = world.gql(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "arena", "name": "Task arena", "config": generative_config(battle={"votes_per_user_per_day": 50})}},
        "alice",
    )
    world.db.fetch("UPDATE users SET is_admin = false WHERE username = 'alice'")
    assert created["createTask"]["__typename"] == "TaskCreated", created
    task = world.db.fetch("SELECT id FROM tasks WHERE code = 'arena'")[0]["id"]
    round_pk = world.db.fetch(
        "INSERT INTO rounds (task, number, target_models, start_at) VALUES ($1, 1, $2, now()) RETURNING id",
        task,
        json.dumps(ARENA_TARGETS),
    )[0]["id"]
    world.db.fetch("UPDATE tasks SET current_round = 1 WHERE id = $1", task)
    world.refs["round:arena"], world.refs["pk:round:arena"] = gid("Round", round_pk), round_pk
    added = world.gql(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": world.refs["round:arena"], "contexts": [{"fields": {"scenario": SCENARIOS[0]}}]}},
        "alice",
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded", added
    context = world.db.fetch("SELECT id FROM contexts WHERE round = $1", round_pk)[0]["id"]
    world.refs["context:arena:0"], world.refs["pk:context:arena:0"] = gid("Context", context), context
    _battle(world, "carol", "ended")
    _battle(world, "carol", "voted", vote="tie")
    _battle(world, "carol", "generating", status="generating")
    _battle(world, "bob", "ended")
    # carol's tied battle goes on with side B (its continuation's UUID for the cases to reuse).
    continue_id = uuid.uuid4()
    world.db.fetch(
        'INSERT INTO battle_continuations (battle, position, "user", client_id, created_at) '
        'SELECT b.id, 1, b."user", $2, now() FROM battles b WHERE b.id = $1',
        int(from_base64(world.refs["battle:carol:voted"])[1]),
        continue_id,
    )
    world.refs["clientId:continue:carol:voted"] = str(continue_id)


CAROL = {"roundId": Ref("round:chat"), "contextId": Ref("context:chat:0"), "clientId": "6a0f2b34-57a0-4c3e-9d51-0d1c2f3e4a5b"}


@FUZZ
@example(Case("sendMessage", "carol", {"input": {**CAROL, "message": "Hello \ud800"}}))
@example(Case("sendMessage", "carol", {"input": {**CAROL, "message": "   "}}))
@example(Case("sendMessage", "bob", {"input": {**CAROL, "conversationId": Ref("conversation:carol:open"), "message": "Hi"}}))
@given(case=cases("sendMessage"))
def test_send_message(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("stopReply", "bob", {"turnId": Ref("turn:carol:generating")}))
@given(case=cases("stopReply"))
def test_stop_reply(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("retryReply", "carol", {"turnId": Ref("turn:carol:first")}))
@given(case=cases("retryReply"))
def test_retry_reply(fuzzer, case):
    fuzzer.send(case)


ARENA = {"roundId": Ref("round:arena"), "contextId": Ref("context:arena:0"), "message": "Which city is the capital?"}


@FUZZ
@example(Case("startBattle", "carol", {"input": {**ARENA, "clientId": "2d9a1c6e-0b7f-4a8e-9c3d-5e6f7a8b9c0d"}}))
@example(Case("startBattle", "bob", {"input": {**ARENA, "clientId": Ref("clientId:battle:carol:ended")}}))
@example(Case("startBattle", "carol", {"input": {**ARENA, "roundId": Ref("round:chat"), "contextId": Ref("context:chat:0")}}))
@given(case=cases("startBattle"))
def test_start_battle(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(
    Case(
        "voteBattle", "bob", {"input": {"battleId": Ref("battle:carol:ended"), "clientId": str(uuid.UUID(int=8)), "choice": "A"}}
    )
)
@example(
    Case(
        "voteBattle",
        "carol",
        {"input": {"battleId": Ref("battle:carol:generating"), "clientId": str(uuid.UUID(int=9)), "choice": "B"}},
    )
)
@example(
    Case(
        "voteBattle",
        "carol",
        {"input": {"battleId": Ref("battle:carol:ended"), "clientId": Ref("clientId:vote:carol:voted"), "choice": "A"}},
    )
)
@example(
    Case(
        "voteBattle",
        "carol",
        {"input": {"battleId": Ref("battle:carol:ended"), "clientId": str(uuid.UUID(int=10)), "choice": "C"}},
    )
)
@given(case=cases("voteBattle"))
def test_vote_battle(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(
    Case(
        "continueBattle",
        "bob",
        {"input": {"battleId": Ref("battle:carol:voted"), "clientId": str(uuid.UUID(int=11)), "side": "B"}},
    )
)
@example(
    Case(
        "continueBattle",
        "carol",
        {"input": {"battleId": Ref("battle:carol:ended"), "clientId": str(uuid.UUID(int=12)), "side": "A"}},
    )
)
@example(
    Case(
        "continueBattle",
        "carol",
        {"input": {"battleId": Ref("battle:carol:voted"), "clientId": str(uuid.UUID(int=13)), "side": "A"}},
    )
)
@example(
    Case(
        "continueBattle",
        "carol",
        {"input": {"battleId": Ref("battle:carol:voted"), "clientId": Ref("clientId:continue:carol:voted"), "side": "B"}},
    )
)
@given(case=cases("continueBattle"))
def test_continue_battle(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(
    Case(
        "submitConversation",
        "carol",
        {"input": {"conversationId": Ref("conversation:carol:open"), "clientId": str(uuid.UUID(int=7)), "explanation": "\udfff"}},
    )
)
@example(
    Case(
        "submitConversation",
        "carol",
        {"input": {"conversationId": Ref("conversation:carol:open"), "clientId": Ref("clientId:carol:alpha")}},
    )
)
@given(case=cases("submitConversation"))
def test_submit_conversation(fuzzer, case):
    fuzzer.send(case)
