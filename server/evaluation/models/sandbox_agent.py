"""What the worker asks of the sandbox agent (server/sandbox/agent.py) beside Triton's own API: the
peak memory of a model's processes, which models are loaded, and killing a model's processes when its
code does not return."""

from __future__ import annotations

import logging
import urllib.parse

import aiohttp

from server.core.services import Services
from server.core.triton_clients import agent_request

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


async def loaded_models(services: Services) -> dict[str, int] | None:
    """{Triton name: resident bytes} of the models whose processes run in the sandbox (Triton's own
    repository index omits models loaded with their files in the request); None when no agent is
    configured or it does not answer."""
    url = services.settings.triton_submissions_stats_url
    if not url:
        return None
    try:
        answer = await agent_request(url, "/models", control_key=services.settings.triton_control_key)
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
        return None
    models = answer.get("models") if isinstance(answer, dict) else None
    return {str(name): int(size) for name, size in models.items()} if isinstance(models, dict) else None


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
