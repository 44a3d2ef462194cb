"""Helpers of the generative-task tests: a task talking to the built-in demo model, sending messages and reading a
reply's stream over a websocket as the PWA does."""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from websockets.sync.client import connect

from tests.api.examples_helpers import NEXT_CONTEXT, wait_until
from tests.conftest import MODEL_CACHE, run_sql, target_triton

ERR = "... on Error { code message } ... on InputError { fields { field message } }"
TURN = "id position message reply status error modelName modelVersion judgeScore attempts { reply status error }"
SEND = f"""mutation($i: SendMessageInput!) {{ sendMessage(input: $i) {{ __typename
  ... on MessageSent {{ duplicate turn {{ {TURN} }} conversation {{ id targetModel params messagesLeft turns {{ id }} }} }}
  {ERR} }} }}"""
CONVERSATION = f"query($id: ID!) {{ conversation(id: $id) {{ id targetModel messagesLeft exampleId turns {{ {TURN} }} }} }}"
STREAM = "subscription($t: ID!) { replyStream(turnId: $t) { turnId text done status error judgeScore modelVersion truncated } }"
SUBMIT = f"""mutation($i: SubmitConversationInput!) {{ submitConversation(input: $i) {{ __typename
  ... on ExampleSubmitted {{ verdict message duplicate example {{ id input modelOutput modelName modelVersion fooled status }} }}
  {ERR} }} }}"""


def generative_config(**generative) -> dict:
    return {
        "kind": "generative",
        "context_fields": [{"name": "scenario", "display_name": "Scenario", "max_length": 2000}],
        "model_inputs": ["scenario"],
        "output_fields": ["text_output"],
        "fooling": {"metric": "ask_user"},
        "performance_metric": "token_f1",
        "generative": {
            "mode": "chat",
            "max_turns": 3,
            "goal": "Make the model state a false fact.",
            "attack_categories": ["false_fact", "insult"],
            "max_tokens": 24,
            "temperature": 0.0,
            "system_prompt": "You are a helpful assistant.",
            **generative,
        },
    }


def generative_task(
    api, code: str, target: str, config: dict | None = None, owner_name: str | None = None, also: tuple[str, ...] = ()
) -> tuple[str, str]:
    """An admin's generative task (public at once) with one open round judged by `target` (and the models `also`
    names); (owner token, round id)."""
    owner_name = owner_name or f"owner_{code}"
    owner = api.sign_up(owner_name)
    run_sql("UPDATE users SET is_admin = true WHERE username = $1", owner_name)
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on InputError { fields { field message } } "
        "... on Error { message } } }",
        {"i": {"code": code, "name": f"Red team {code}", "config": config or generative_config()}},
        token=owner,
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    opened = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on RoundCreated { round { id } } "
        "... on InputError { fields { field message } } ... on Error { message } } }",
        {"i": {"taskCode": code, "targetModels": [{"name": name} for name in (target, *also)]}},
        token=owner,
    )["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    round_id = opened["round"]["id"]
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"scenario": "A quiz about European capitals."}}]}},
        token=owner,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded", added
    return owner, round_id


def send(api, token, round_id, text, conversation_id=None, client_id=None, context_id=None):
    if context_id is None:
        context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    variables = {
        "i": {
            "roundId": round_id,
            "contextId": context_id,
            "conversationId": conversation_id,
            "clientId": str(client_id or uuid.uuid4()),
            "message": text,
        }
    }
    return api(SEND, variables, token=token)["sendMessage"]


class ReplyFeed:
    """replyStream over its own socket: every chunk until the stream completes."""

    def __init__(self, stack, token: str, turn_id: str):
        self.ws = connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"])
        self.ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "connection_ack"
        self.ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": STREAM, "variables": {"t": turn_id}}}))

    def next(self) -> dict | None:
        """The next chunk; None once the stream completed. An error payload is returned as {"errors": [...]}."""
        while True:
            message = json.loads(self.ws.recv(timeout=120))
            if message["type"] == "ping":
                self.ws.send(json.dumps({"type": "pong"}))
                continue
            if message["type"] == "complete":
                return None
            if message["type"] == "error":
                return {"errors": message["payload"]}
            assert message["type"] == "next", message
            if message["payload"].get("errors"):
                return {"errors": message["payload"]["errors"]}
            return message["payload"]["data"]["replyStream"]

    def all(self) -> list[dict]:
        chunks = []
        while (chunk := self.next()) is not None:
            chunks.append(chunk)
        self.ws.close()
        return chunks

    def close(self) -> None:
        self.ws.close()


@contextmanager
def demo_copy(stack, demo: str, name: str) -> Iterator[str]:
    """The demo generative model under another name in the stack's target Triton (a second battle target; nothing
    trained), loaded for the block, then unloaded and removed: later files list the served models."""
    destination = stack.model_repository / name
    if not destination.exists():
        shutil.copytree(MODEL_CACHE / demo, destination, ignore=shutil.ignore_patterns("__pycache__"))
        config = destination / "config.pbtxt"
        config.write_text(config.read_text().replace(f'name: "{demo}"', f'name: "{name}"'))
    client = target_triton(stack)
    client.load_model(name)
    try:
        yield name
    finally:
        client.unload_model(name)
        client.close()
        shutil.rmtree(destination, ignore_errors=True)


def wait_for_replies_to_end(timeout: float = 120) -> None:
    """Every reply started in the background has ended (done, stopped or failed): a module that started some waits for
    this before the next one empties the tables (ids start again there: a late reply must not finish another's turn)."""
    generating = "SELECT id FROM conversation_turns WHERE status = 'generating'"
    wait_until(lambda: not run_sql(generating), timeout=timeout, interval=0.5)
