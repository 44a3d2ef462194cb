"""What the worker asks of the sandbox agent (server/sandbox/agent/) beside Triton's own API: the
peak memory of a model's processes, which models are loaded, which the agent stopped and why (a crash, the
memory limit, ...) with the end of their output, and killing a model's processes when its code does not return."""

from __future__ import annotations

import logging
import urllib.parse

import aiohttp

from server.core.services import Services
from server.core.triton_clients import agent_request
from server.evaluation.models.log_text import EXCERPT_CHARS, excerpt, model_output

log = logging.getLogger("dynabench.evaluation")


async def peak_memory_gb(services: Services, triton_name: str) -> float | None:
    """Peak resident memory of the model's stub processes, as the sandbox agent measures it inside
    the sandbox (docs/design.md §4, memory); None when no agent is configured or it cannot say."""
    url = services.settings.triton_submissions_stats_url
    if not url:
        return None
    try:
        answer = await agent_request(url, f"/memory/{urllib.parse.quote(triton_name)}")
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
        return None
    peak = int(answer.get("peak_bytes") or 0) if isinstance(answer, dict) else 0
    return peak / 1024**3 if peak else None


async def _models_answer(services: Services) -> dict | None:
    url = services.settings.triton_submissions_stats_url
    if not url:
        return None
    try:
        answer = await agent_request(url, "/models", control_key=services.settings.triton_control_key)
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
        return None
    return answer if isinstance(answer, dict) else None


async def loaded_models(services: Services) -> dict[str, int] | None:
    """{Triton name: resident bytes} of the models whose processes run in the sandbox (Triton's own
    repository index omits models loaded with their files in the request); None when no agent is
    configured or it does not answer."""
    answer = await _models_answer(services)
    models = answer.get("models") if answer else None
    return {str(name): int(size) for name, size in models.items()} if isinstance(models, dict) else None


async def stopped_models(services: Services) -> dict[str, str]:
    """{Triton name: why} of the models the agent stopped by itself (crashed, broke its shared memory, went past
    the per-model memory limit, killed by the kernel); {} when no agent answers."""
    answer = await _models_answer(services)
    stopped = answer.get("stopped") if answer else None
    return {str(name): str(why) for name, why in stopped.items()} if isinstance(stopped, dict) else {}


async def output_tail(services: Services, triton_name: str) -> str:
    """The end of what the model's Triton and code printed (the agent keeps each model's log bounded); "" when
    the agent cannot say."""
    url = services.settings.triton_submissions_stats_url
    if not url:
        return ""
    try:
        answer = await agent_request(
            url, f"/log/{urllib.parse.quote(triton_name)}", control_key=services.settings.triton_control_key
        )
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
        return ""
    return str(answer.get("tail") or "") if isinstance(answer, dict) else ""


async def output_note(services: Services, triton_name: str) -> str:
    """ " The end of its output: '…'" for a failure message: bounded and escaped (log_text.excerpt); "" if none."""
    tail = model_output(await output_tail(services, triton_name)).strip()
    size = EXCERPT_CHARS * 6
    return f" The end of its output: {excerpt(tail[-size:], size)}" if tail else ""


async def stop_stuck_model(services: Services, triton_name: str) -> None:
    """Kill the model's processes, then unload it. Triton finishes an unload (or a failed load) only
    once the model's code returns; code that spins or sleeps for ever would keep running, and keep
    its CPU and memory, after the model is marked failed."""
    url = services.settings.triton_submissions_stats_url
    if url:
        try:
            answer = await agent_request(
                url,
                f"/kill/{urllib.parse.quote(triton_name)}",
                method="POST",
                control_key=services.settings.triton_control_key,
            )
            log.info("killed %s process(es) of %s", answer.get("killed") if isinstance(answer, dict) else "?", triton_name)
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
            log.warning("the sandbox agent could not kill %s: %s", triton_name, type(exc).__name__)
    await unload_quietly(services.triton_submissions, triton_name)


async def unload_quietly(client, name: str) -> None:
    try:
        await client.unload_model(name)
    except Exception:  # noqa: BLE001 — best effort; the model failed anyway
        pass
