"""Streaming a reply from a registered OpenAI-compatible endpoint (chat completions, `stream=True`) with the `openai`
client, the way triton_stream.py streams from Triton: pieces as they come, `first_token_timeout_s` for the first,
`idle_timeout_s` for each later gap, and the endpoint's own `timeout_s` for the whole call.

Before the call: the endpoint must be registered and enabled, the user's and the task's daily token budgets not used
up (usage.py), and one of its concurrency slots free (slots.py, shared by every process; waited for up to the
first-token timeout). During: the slot is held and renewed. After (also when the call fails midway or the caller
closes the generator, which closes the HTTP stream): the slot is given back and the tokens are recorded: the server's
own count when it sends one (`stream_options.include_usage`, asked for unless the server refused it once), else an
estimate (a token per streamed chunk, four characters per prompt token). Every failure is a GenerationFailed whose
message names the endpoint, never its address or key (failures.py)."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from server.core.i18n import tr
from server.core.services import Services
from server.generation.endpoints import crypto, failures, slots, usage
from server.generation.endpoints.records import EndpointRow
from server.generation.endpoints.service import endpoint_row
from server.generation.params import HARD_MAX_TOKENS, ChatMessage, GenerationParams, GenerationRequest
from server.generation.streaming import GenerationFailed, GenerationTimedOut, Piece

if TYPE_CHECKING:  # imported where a call is made: a third of a second at every process start otherwise
    import openai

log = logging.getLogger("dynabench.generation")

NO_KEY = "EMPTY"  # sent as the bearer when the endpoint has no key (vLLM's convention): the client never reads env keys
CHARS_PER_TOKEN = 4
TOKENS_PER_MESSAGE = 4  # a chat template's role markers, roughly
_NO_STREAM_OPTIONS: set[str] = set()  # endpoints (by base URL) that refused `stream_options` once, in this process


async def stream_endpoint(
    services: Services,
    endpoint_name: str,
    request: GenerationRequest,
    *,
    user_id: int,
    task_id: int,
    first_token_timeout_s: float,
    idle_timeout_s: float,
) -> AsyncIterator[Piece]:
    """Yield the endpoint's reply to `request` piece by piece, counted against `user_id` and `task_id`'s budgets."""
    endpoint = await _usable(endpoint_name)
    await usage.check_budgets(endpoint, user_id, task_id)
    # aclosing: closing this generator closes the inner one now (its finally closes the HTTP stream, frees the slot).
    async with aclosing(_stream(services, endpoint, request, user_id, task_id, first_token_timeout_s, idle_timeout_s)) as pieces:
        async for piece in pieces:
            yield piece


async def smoke_test(services: Services, endpoint_name: str, task_id: int, timeout_s: float) -> str | None:
    """Why the endpoint cannot answer now, or None: one tiny request (a token), counted for the task (no user)."""
    try:
        endpoint = await _usable(endpoint_name)
        request = GenerationRequest((ChatMessage("user", "Say hello."),), GenerationParams(max_tokens=1, temperature=0.0))
        async with aclosing(_stream(services, endpoint, request, None, task_id, timeout_s, timeout_s)) as pieces:
            async for _ in pieces:
                break
    except GenerationFailed as failed:
        return failed.args[0] if failed.args else type(failed).__name__
    return None


async def _usable(name: str) -> EndpointRow:
    try:
        endpoint = await endpoint_row(name)
    except Exception:  # noqa: BLE001 — NOT_FOUND, or a name that is no endpoint's: the same answer
        raise failures.EndpointUnavailable(tr("There is no LLM endpoint named '{name}' any more.", name=name)) from None
    if not endpoint["enabled"]:
        raise failures.EndpointUnavailable(tr("The model '{name}' is switched off by an admin.", name=endpoint["name"]))
    return endpoint


def _key(services: Services, endpoint: EndpointRow) -> str:
    try:
        return crypto.open_sealed(services.settings, endpoint["name"], endpoint["api_key_sealed"])
    except (crypto.KeyUnreadable, crypto.KeySecretMissing) as problem:
        log.error("LLM endpoint %s: its API key cannot be opened: %s", endpoint["name"], problem)
        raise failures.EndpointUnavailable(
            tr("The model '{name}' cannot be used: its API key cannot be read; an admin enters it again.", name=endpoint["name"])
        ) from None


def _arguments(endpoint: EndpointRow, request: GenerationRequest, with_usage: bool) -> dict[str, Any]:
    params = request.params
    arguments: dict[str, Any] = {
        "model": endpoint["model"],
        "messages": [m.as_dict() for m in request.messages],
        "stream": True,
        "max_tokens": max(1, min(params.max_tokens, HARD_MAX_TOKENS)),
        "temperature": params.temperature,
    }
    if params.seed is not None:
        arguments["seed"] = params.seed
    if params.stop:
        arguments["stop"] = list(params.stop)[:4]
    if with_usage:
        arguments["stream_options"] = {"include_usage": True}
    return arguments


async def _open(client: openai.AsyncOpenAI, endpoint: EndpointRow, request: GenerationRequest, wait_s: float) -> Any:
    """The stream, asking for usage unless this server refused `stream_options` before (then once more without)."""
    import openai

    with_usage = endpoint["base_url"] not in _NO_STREAM_OPTIONS
    try:
        return await asyncio.wait_for(client.chat.completions.create(**_arguments(endpoint, request, with_usage)), wait_s)
    except (openai.BadRequestError, openai.UnprocessableEntityError) as refused:
        if not with_usage or "stream_options" not in str(refused.body or refused.message):
            raise
        _NO_STREAM_OPTIONS.add(endpoint["base_url"])
        return await asyncio.wait_for(client.chat.completions.create(**_arguments(endpoint, request, False)), wait_s)


async def _stream(
    services: Services,
    endpoint: EndpointRow,
    request: GenerationRequest,
    user_id: int | None,
    task_id: int,
    first_token_timeout_s: float,
    idle_timeout_s: float,
) -> AsyncIterator[Piece]:
    name, loop = endpoint["name"], asyncio.get_running_loop()
    key = _key(services, endpoint)
    slot = await slots.take(services.redis, name, endpoint["max_concurrency"], min(first_token_timeout_s, endpoint["timeout_s"]))
    if slot is None:
        raise failures.EndpointBusy(
            tr(
                "The model '{name}' is answering {limit} conversations at once already: try again in a moment.",
                name=name,
                limit=endpoint["max_concurrency"],
            )
        )
    import openai

    client = openai.AsyncOpenAI(
        base_url=endpoint["base_url"],
        api_key=key or NO_KEY,
        organization="",
        project="",
        timeout=endpoint["timeout_s"],
        max_retries=0,
    )
    deadline = loop.time() + endpoint["timeout_s"]
    stream, reported, chunks, failed = None, None, 0, True
    timeout, bound = first_token_timeout_s, "token"  # what a timeout now would be: the token wait, or the call's limit
    try:
        if deadline - loop.time() < timeout:
            bound = "call"
        stream = await _open(client, endpoint, request, max(0.001, min(timeout, deadline - loop.time())))
        pieces = stream.__aiter__()
        while True:
            left = deadline - loop.time()
            bound = "call" if left < timeout else "token"
            if left <= 0:
                raise TimeoutError
            try:
                chunk = await asyncio.wait_for(pieces.__anext__(), min(timeout, left))
            except StopAsyncIteration:
                break
            if getattr(chunk, "usage", None) is not None:
                reported = (chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0)
            delta = chunk.choices[0].delta if chunk.choices else None
            text = getattr(delta, "content", None) if delta is not None else None
            if text:
                chunks += 1
                timeout = idle_timeout_s
                await slot.keep()
                yield Piece(text, (chunk.model or endpoint["model"]) if chunks == 1 else "")
        failed = False
    except GenerationFailed:
        raise
    except TimeoutError:
        raise GenerationTimedOut(_timeout_message(name, bound, endpoint["timeout_s"] if bound == "call" else timeout)) from None
    except (asyncio.CancelledError, GeneratorExit):
        failed = False  # the caller stopped listening: not the endpoint's error
        raise
    except Exception as error:  # noqa: BLE001 — every openai / HTTP error becomes a readable failure (failures.py)
        problem = failures.failure(error, name, failures.secrets_of(key, endpoint["base_url"]), midway=chunks > 0)
        log.warning("LLM endpoint %s failed after %d chunks: %s", name, chunks, problem)
        raise problem from None
    finally:
        await _finish(stream, client, slot)
        prompt, completion = reported or (_estimated_prompt(request), chunks)
        try:
            await usage.record(endpoint, user_id, task_id, prompt, completion, failed=failed)
        except Exception as error:  # noqa: BLE001 — counting must not hide the reply's own outcome
            log.warning("LLM endpoint %s: usage not recorded (%s)", name, type(error).__name__)


def _timeout_message(name: str, which: str, seconds: float) -> str:
    if which == "call":
        return tr(
            "The model '{name}' took longer than its limit of {seconds} s for one reply.", name=name, seconds=f"{seconds:g}"
        )
    return tr("The model '{name}' stopped answering (no token within {seconds} s).", name=name, seconds=f"{seconds:g}")


async def _finish(stream: Any, client: openai.AsyncOpenAI, slot: slots.Slot) -> None:
    """Close the HTTP stream and the client, give the slot back; none of it may fail the caller."""
    for closing in (stream.close if stream is not None else None, client.close, slot.release):
        if closing is None:
            continue
        try:
            await asyncio.shield(closing())
        except Exception as error:  # noqa: BLE001 — cleaning up after a reply that has its outcome already
            log.debug("LLM stream clean-up: %s", type(error).__name__)


def _estimated_prompt(request: GenerationRequest) -> int:
    return sum(math.ceil(len(m.content) / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE for m in request.messages)
