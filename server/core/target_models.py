"""What Triton says about a target model: readiness, the build metadata in its config parameters, its newest version."""

from __future__ import annotations

import time
from typing import Any

from tritonclient.http.aio import InferenceServerClient

_CACHE: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}
TTL_SECONDS = 10.0


async def model_info(client: InferenceServerClient, name: str, version: str = "") -> dict[str, Any]:
    """{"ready": bool, "parameters": {key: str}}; never raises (a down Triton means not ready)."""
    key = (name, version)
    cached = _CACHE.get(key)
    if cached and time.monotonic() - cached[0] < TTL_SECONDS:
        return cached[1]
    try:
        ready = await client.is_model_ready(name, version)
        config = await client.get_model_config(name, version) if ready else {}
        parameters = {k: v.get("string_value", "") for k, v in (config.get("parameters") or {}).items()}
        info = {"ready": bool(ready), "parameters": parameters}
    except Exception:  # noqa: BLE001 — Triton unreachable or model unknown: report "not ready"
        info = {"ready": False, "parameters": {}}
    _CACHE[key] = (time.monotonic(), info)
    return info


async def latest_version(client: InferenceServerClient, name: str) -> str | None:
    """The newest version of a model the Triton serves now, or None (an unknown model, or Triton unreachable)."""
    try:
        metadata = await client.get_model_metadata(name)
    except Exception:  # noqa: BLE001 — Triton unreachable or model unknown: no version to pin
        return None
    versions = [int(v) for v in (metadata or {}).get("versions") or () if str(v).isdigit()]
    return str(max(versions)) if versions else None
