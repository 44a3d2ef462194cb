"""Whole replies of a generative submission (a decoupled model behind the sandbox's relay, streamed through Triton's
generate extension): the evaluation's and the smoke test's inference for generative tasks (docs/design.md §4.4).

Each prompt is one user message in the plain chat format (server/generation/prompt.py `render_plain`), answered at
temperature 0 (seed 0) with the task's `max_tokens` and stop strings, two prompts in flight. A reply is read to its
end or to `MAX_REPLY_CHARS` (scored on what came); its pieces (one per response: tokens, for a token-by-token model)
are counted for the throughput."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.core.inference import ModelTimedOut, ModelUnavailable
from server.core.services import Services
from server.evaluation.records import GENERATIVE_PROMPT
from server.generation.params import ChatMessage, GenerationParams
from server.generation.prompt import DEFAULT_STOP, render_plain
from server.generation.streaming import GenerationFailed, GenerationTimedOut
from server.generation.triton_stream import stream_triton
from server.tasks.config import TaskConfig
from server.tasks.generative_config import MAX_REPLY_CHARS

PARALLEL_PROMPTS = 2


@dataclass(frozen=True)
class Reply:
    text: str
    pieces: int


def evaluation_params(config: TaskConfig) -> GenerationParams:
    """The task's length and stop strings, at temperature 0: the same prompt gets the same reply."""
    generative = config.generative
    max_tokens = generative.max_tokens if generative is not None else 128
    stops = tuple(generative.stop) if generative is not None and generative.stop else (DEFAULT_STOP,)
    return GenerationParams(max_tokens=max_tokens, temperature=0.0, seed=0, stop=stops)


async def reply(
    services: Services, client: Any, name: str, version: str, prompt: str, params: GenerationParams, timeout_s: float
) -> Reply:
    """The model's whole reply to one prompt. ModelTimedOut when it does not end within ``timeout_s`` or goes silent
    past the generation timeouts; ModelUnavailable when it fails (refused, broke the contract, stopped by the sandbox)."""
    settings = services.settings
    stream = stream_triton(
        client,
        name,
        version,
        render_plain([ChatMessage("user", prompt)]),
        params,
        first_token_timeout_s=min(timeout_s, settings.generation_first_token_timeout_s),
        idle_timeout_s=min(timeout_s, settings.generation_idle_timeout_s),
    )
    parts: list[str] = []
    count = size = 0

    async def read() -> None:
        nonlocal count, size
        async with contextlib.aclosing(stream):
            async for piece in stream:
                parts.append(piece.text)
                count, size = count + 1, size + len(piece.text)
                if size >= MAX_REPLY_CHARS:
                    break  # closing the stream cancels the rest

    try:
        await asyncio.wait_for(read(), timeout_s)
    except TimeoutError:
        raise ModelTimedOut(f"model {name} did not finish a reply within {timeout_s:g} s") from None
    except GenerationTimedOut as exc:
        raise ModelTimedOut(str(exc)) from None
    except GenerationFailed as exc:  # stream_triton names the model first: the status log says "your model" itself
        raise ModelUnavailable(str(exc).removeprefix(f"model {name}: ")) from None
    return Reply("".join(parts)[:MAX_REPLY_CHARS], count)


async def replies_all(
    services: Services,
    config: TaskConfig,
    name: str,
    rows: Sequence[Mapping[str, Any]],
    client: Any = None,
    version: str = "",
    timeout_s: float | None = None,
) -> tuple[list[str], float, int]:
    """Replies in row order, the wall seconds spent generating them and their pieces in all (default: the submissions
    Triton, the evaluation's time limit per reply)."""
    client = client or services.triton_submissions
    params = evaluation_params(config)
    limit = timeout_s or services.settings.evaluation_batch_timeout_s
    semaphore = asyncio.Semaphore(PARALLEL_PROMPTS)
    replies: list[Reply | None] = [None] * len(rows)

    async def run(index: int, row: Mapping[str, Any]) -> None:
        async with semaphore:
            replies[index] = await reply(services, client, name, version, str(row["fields"][GENERATIVE_PROMPT]), params, limit)

    started = time.perf_counter()
    tasks = [asyncio.ensure_future(run(i, row)) for i, row in enumerate(rows)]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:  # one reply failed: the others stop too (their streams close)
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    seconds = time.perf_counter() - started
    done = [r for r in replies if r is not None]
    return [r.text for r in done], seconds, sum(r.pieces for r in done)
