"""Streaming from a decoupled Triton model through Triton's generate extension
(`POST /v2/models/<name>[/versions/<v>]/generate_stream`, server-sent events), following the contract in
triton_models/README.md: `text_input`, `sampling_parameters` (JSON), `stream` in; `text_output` deltas out.

HTTP, not gRPC, so submissions in the sandboxed Triton are reached through the same unix-socket relay as
every other call (the tritonclient session is reused, connector and control key included)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import aiohttp
from tritonclient.http.aio import InferenceServerClient

from server.core.triton_clients import plain_session
from server.generation.params import GenerationParams
from server.generation.streaming import GenerationFailed, GenerationTimedOut, Piece
from server.observability.metrics import observe_triton

MAX_EVENT_BYTES = 1 << 20  # one SSE line; a model sending more per delta breaks the contract


async def stream_triton(
    client: InferenceServerClient,
    model_name: str,
    model_version: str,
    prompt: str,
    params: GenerationParams,
    *,
    first_token_timeout_s: float,
    idle_timeout_s: float,
) -> AsyncIterator[Piece]:
    """Yield the model's deltas as Triton sends them. `first_token_timeout_s` bounds the wait for the first
    event, `idle_timeout_s` each later gap; closing the generator closes the request, which Triton passes on
    to the model as a cancellation."""
    session, base, headers = plain_session(client)
    path = f"/v2/models/{model_name}" + (f"/versions/{model_version}" if model_version else "") + "/generate_stream"
    body = {"text_input": prompt, "sampling_parameters": params.sampling_parameters(), "stream": True}
    started, outcome = time.perf_counter(), "error"
    try:
        async with session.post(base + path, json=body, headers=headers, timeout=aiohttp.ClientTimeout(total=None)) as response:
            if response.status != 200:
                outcome = "unavailable"
                raise GenerationFailed(_refusal(model_name, await response.text()))
            timeout = first_token_timeout_s
            while True:
                try:
                    line = await asyncio.wait_for(response.content.readuntil(b"\n"), timeout)
                except asyncio.IncompleteReadError as exc:
                    if exc.partial.strip():
                        raise GenerationFailed(f"model {model_name}: the stream ended mid-event") from None
                    break
                except (asyncio.LimitOverrunError, ValueError):
                    raise GenerationFailed(f"model {model_name}: an event longer than the contract allows") from None
                if not line.endswith(b"\n"):  # aiohttp answers the rest (b"" once ended) instead of raising
                    if line.strip():
                        raise GenerationFailed(f"model {model_name}: the stream ended mid-event")
                    break
                if not line.startswith(b"data:"):
                    continue  # blank separators and SSE comments
                if len(line) > MAX_EVENT_BYTES:
                    raise GenerationFailed(f"model {model_name}: an event longer than the contract allows")
                event = _event(model_name, line[5:])
                if "error" in event:
                    raise GenerationFailed(f"model {model_name}: {str(event['error'])[:300]}")
                text = event.get("text_output", "")
                if not isinstance(text, str):
                    raise GenerationFailed(f"model {model_name}: text_output is not text")
                timeout = idle_timeout_s
                if text:
                    yield Piece(text, str(event.get("model_version") or model_version))
        outcome = "ok"
    except TimeoutError:
        outcome = "timeout"
        raise GenerationTimedOut(f"model {model_name} stopped answering (no token within {timeout:g} s)") from None
    except (aiohttp.ClientError, OSError) as exc:
        outcome = "unavailable"
        raise GenerationFailed(f"model {model_name}: Triton is unreachable ({type(exc).__name__})") from None
    except (asyncio.CancelledError, GeneratorExit):
        outcome = "cancelled"
        raise
    finally:
        observe_triton(model_name, outcome, time.perf_counter() - started)


def _event(model_name: str, payload: bytes) -> dict:
    try:
        event = json.loads(payload)
    except ValueError:
        raise GenerationFailed(f"model {model_name}: an event that is not JSON") from None
    if not isinstance(event, dict):
        raise GenerationFailed(f"model {model_name}: an event that is not a JSON object")
    return event


def _refusal(model_name: str, text: str) -> str:
    try:
        reason = json.loads(text).get("error", "")
    except (ValueError, AttributeError):
        reason = ""
    return f"model {model_name}: {str(reason)[:300] or 'Triton refused the request'}"
