"""What Triton says about a target model: readiness, the build metadata in its config parameters, its newest version."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from tritonclient.http.aio import InferenceServerClient

if TYPE_CHECKING:
    from server.core.services import Services

# Uploaded models are named submission_<id>_<8 hex> (before: submission_<id>) in the sandboxed submissions Triton
# (server/evaluation/models/status.py); rounds refuse that form of name for the target Triton, so a name alone says
# which Triton serves it.
SUBMISSION_NAME = re.compile(r"submission_[0-9]+(_[0-9a-f]{8})?")


def is_submission_name(name: str) -> bool:
    return SUBMISSION_NAME.fullmatch(name) is not None


def serving_client(services: Services, name: str) -> InferenceServerClient:
    """The Triton that serves a round's target: the sandboxed one for submissions, else the target Triton."""
    return services.triton_submissions if is_submission_name(name) else services.triton


_CACHE: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}
TTL_SECONDS = 10.0
# A model found not ready is asked again sooner: one loaded meanwhile (a judge back, a target reloaded) should serve
# within a second, not after ten (each process kept the "not ready" it last saw).
NOT_READY_TTL_SECONDS = 1.0


async def model_info(client: InferenceServerClient, name: str, version: str = "") -> dict[str, Any]:
    """{"ready": bool, "parameters": {key: str}, "max_batch_size": int}; never raises (a down Triton means not
    ready)."""
    key = (name, version)
    cached = _CACHE.get(key)
    if cached and time.monotonic() - cached[0] < (TTL_SECONDS if cached[1]["ready"] else NOT_READY_TTL_SECONDS):
        return cached[1]
    try:
        ready = await client.is_model_ready(name, version)
        config = await client.get_model_config(name, version) if ready else {}
        parameters = {k: v.get("string_value", "") for k, v in (config.get("parameters") or {}).items()}
        info = {"ready": bool(ready), "parameters": parameters, "max_batch_size": int(config.get("max_batch_size") or 0)}
    except Exception:  # noqa: BLE001 — Triton unreachable or model unknown: report "not ready"
        info = {"ready": False, "parameters": {}, "max_batch_size": 0}
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
