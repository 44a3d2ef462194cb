"""Shared steps of the LLM endpoint tests: register an endpoint through the API, a user and a task to count for,
and collecting a stream."""

from __future__ import annotations

import time
from typing import Any

from server.generation.params import ChatMessage, GenerationParams, GenerationRequest
from tests.conftest import run_sql

ERR = "... on Error { code message } ... on InputError { fields { field message } }"
ENDPOINT_FIELDS = """name baseUrl model hasKey timeoutS maxConcurrency tokensPerUserPerDay tokensPerTaskPerDay
  pricePer1kPromptTokens pricePer1kCompletionTokens enabled"""
REGISTER = f"""mutation($i: RegisterLlmEndpointInput!) {{ registerLlmEndpoint(input: $i) {{ __typename
  ... on LlmEndpointRegistered {{ endpoint {{ {ENDPOINT_FIELDS} }} }} {ERR} }} }}"""
UPDATE = f"""mutation($i: UpdateLlmEndpointInput!) {{ updateLlmEndpoint(input: $i) {{ __typename
  ... on LlmEndpointUpdated {{ endpoint {{ {ENDPOINT_FIELDS} }} }} {ERR} }} }}"""
REMOVE = """mutation($n: String!) { removeLlmEndpoint(name: $n) { __typename ... on LlmEndpointRemoved { name }
  ... on Error { code message } } }"""
LIST = f"{{ llmEndpoints {{ {ENDPOINT_FIELDS} }} }}"
USAGE = """query($t: String, $d: Int) { generationUsage(taskCode: $t, days: $d) { days promptTokens completionTokens calls
  errors estimatedCost lines { day endpoint taskCode users calls errors promptTokens completionTokens estimatedCost } } }"""


def register(api, admin_token: str, **fields: Any) -> dict:
    result = api(REGISTER, {"i": fields}, token=admin_token)["registerLlmEndpoint"]
    assert result["__typename"] == "LlmEndpointRegistered", result
    return result["endpoint"]


def user_id(username: str) -> int:
    return run_sql("SELECT id FROM users WHERE username = $1", username)[0]["id"]


async def builtin_task_ids() -> dict[str, int]:
    from server.tasks.builtin import seed_builtin_tasks

    await seed_builtin_tasks()
    return {row["code"]: row["id"] for row in run_sql("SELECT id, code FROM tasks")}


def request(text: str = "Hello there, how are you?", max_tokens: int = 24, **params: Any) -> GenerationRequest:
    return GenerationRequest((ChatMessage("user", text),), GenerationParams(max_tokens=max_tokens, temperature=0.7, **params))


async def collect(stream) -> list[tuple[float, str]]:
    """(arrival time, text) of every piece."""
    pieces = []
    async for piece in stream:
        pieces.append((time.monotonic(), piece.text))
    return pieces


def usage_rows(endpoint: str) -> list[dict]:
    return run_sql(
        'SELECT "user", task, calls, errors, prompt_tokens, completion_tokens, estimated_cost FROM generation_usage '
        'WHERE endpoint = $1 ORDER BY "user" NULLS FIRST, task',
        endpoint,
    )
