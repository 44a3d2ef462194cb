"""The same red-teaming task against an OpenAI-compatible server (issue #30 point 4), end to end through GraphQL: a
generative round whose target is a registered endpoint (a real `transformers serve`); a message's reply streams
through replyStream; the example records the endpoint as its model; the usage is counted for the author and the
task; a user's daily budget refuses the next reply with a readable reason; and the endpoint's key appears in no API
answer, no log of the stack and no export."""

from __future__ import annotations

import uuid

import httpx

from tests.api.conversations_helpers import CONVERSATION, SEND, SUBMIT, ReplyFeed, generative_config
from tests.api.examples_helpers import NEXT_CONTEXT
from tests.llm_endpoints.helpers import UPDATE, USAGE, register

KEY = "sk-endpoint-secret-" + uuid.uuid4().hex
EXPORT = """mutation($r: ID!, $f: ExportFormat!) { exportRound(roundId: $r, format: $f) {
  __typename ... on RoundExport { url } ... on Error { code message } } }"""


class Recording:
    """The GraphQL client, keeping every answer's text to look for the key in."""

    def __init__(self, api) -> None:
        self.api, self.bodies = api, []

    def __call__(self, query, variables=None, token=None):
        response = self.api.raw(query, variables, token)
        self.bodies.append(response.text)
        assert response.status_code == 200 and not response.json().get("errors"), response.text
        return response.json()["data"]


def test_a_conversation_with_an_endpoint_streams_counts_and_keeps_the_key_secret(stack, api, admin_token, llm_server):
    gql = Recording(api)
    register(api, admin_token, name="redteam-llm", baseUrl=llm_server.base_url, model=llm_server.model, apiKey=KEY)
    created = gql(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "redllm", "name": "Red team an LLM", "config": generative_config(max_tokens=16)}},
        admin_token,
    )
    assert created["createTask"]["__typename"] == "TaskCreated"
    opened = gql(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on RoundCreated { round { id "
        "targetModels { name version status { ready } } } } ... on InputError { fields { field message } } } }",
        {"i": {"taskCode": "redllm", "targetModels": [{"endpoint": "redteam-llm"}]}},
        admin_token,
    )["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    assert opened["round"]["targetModels"] == [{"name": "endpoint:redteam-llm", "version": "", "status": {"ready": True}}]
    round_id = opened["round"]["id"]
    gql(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"scenario": "A quiz about European capitals."}}]}},
        admin_token,
    )
    author = api.sign_up("llm_author")
    context_id = gql(NEXT_CONTEXT, {"r": round_id}, author)["nextContext"]["id"]

    def send(text: str, conversation_id: str | None = None) -> dict:
        variables = {"roundId": round_id, "contextId": context_id, "conversationId": conversation_id}
        variables |= {"clientId": str(uuid.uuid4()), "message": text}
        return gql(SEND, {"i": variables}, author)["sendMessage"]

    sent = send("What is the capital of France?")
    assert sent["__typename"] == "MessageSent", sent
    chunks = ReplyFeed(stack, author, sent["turn"]["id"]).all()
    assert chunks[-1]["done"] and chunks[-1]["status"] == "DONE", chunks[-1]
    streamed = "".join(c["text"] for c in chunks)
    assert streamed.strip() and len(chunks) >= 2
    assert "\nUser:" not in streamed  # the stop string ends the reply and is not shown (transformers serve keeps it)
    conversation = gql(CONVERSATION, {"id": sent["conversation"]["id"]}, author)["conversation"]
    assert conversation["targetModel"] == "endpoint:redteam-llm"
    assert conversation["turns"][0]["reply"] == streamed and conversation["turns"][0]["modelName"] == "endpoint:redteam-llm"

    # The author's daily budget: what the first reply used; the next reply is refused, saying which budget.
    update = {"name": "redteam-llm", "tokensPerUserPerDay": 1}
    assert api(UPDATE, {"i": update}, token=admin_token)["updateLlmEndpoint"]["__typename"] == "LlmEndpointUpdated"
    second = send("And of Spain?", sent["conversation"]["id"])
    end = ReplyFeed(stack, author, second["turn"]["id"]).all()[-1]
    assert end["status"] == "FAILED" and "daily budget" in end["error"], end

    submitted = gql(
        SUBMIT,
        {"i": {"conversationId": sent["conversation"]["id"], "clientId": str(uuid.uuid4()), "modelFailed": True}},
        author,
    )["submitConversation"]
    assert submitted["__typename"] == "ExampleSubmitted", submitted
    assert submitted["example"]["modelName"] == "endpoint:redteam-llm"
    assert submitted["example"]["input"]["messages"][2] == {"role": "assistant", "content": streamed}

    usage = gql(USAGE, {"t": "redllm", "d": 1}, admin_token)["generationUsage"]
    assert usage["calls"] >= 2 and usage["completionTokens"] >= 1  # the round's smoke request and the reply

    link = gql(EXPORT, {"r": round_id, "f": "JSONL"}, admin_token)["exportRound"]
    export = httpx.get(stack.api_url + link["url"], timeout=120).text
    assert "endpoint:redteam-llm" in export
    for text in [*gql.bodies, export, *(path.read_text(errors="replace") for path in stack.logs.glob("*.log"))]:
        assert KEY not in text
