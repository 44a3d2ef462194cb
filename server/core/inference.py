"""Calls to target models on Triton (tritonclient asyncio), following triton_models/README.md's contract."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import numpy as np
from tritonclient.http.aio import (
    InferenceServerClient,
    InferInput,
    InferRequestedOutput,
)
from tritonclient.utils import InferenceServerException

from server.observability.metrics import observe_triton
from server.tasks.config import TaskConfig

CLASSIFICATION_OUTPUTS = ("label", "probs")
# aiohttp asks for gzip by default; Triton then compresses a few hundred bytes and we inflate them.
PLAIN_RESPONSE = {"Accept-Encoding": "identity"}
QA_OUTPUTS = ("answer", "start", "end", "confidence")
# Optional output of any model: the example's vector (FP32 [D]), for the near-duplicate guard's semantic test.
EMBEDDING_OUTPUT = "embedding"
MAX_EMBEDDING = 4096  # dimensions; a longer (or non-finite) vector is ignored, never an error


def _failure_outcome(exc: Exception) -> str:
    """Metrics: a connection problem is `unavailable`; anything else (a broken output contract) is `error`."""
    return "unavailable" if isinstance(exc, (OSError, aiohttp.ClientConnectionError)) else "error"


class ModelUnavailable(Exception):
    """Triton could not answer in time (down, slow, model not loaded). The caller keeps the example pending."""


class ModelTimedOut(ModelUnavailable):
    """The model did not answer within the caller's timeout: its code may be stuck."""


class MalformedOutput(ModelUnavailable):
    """The model answered, with outputs that break the task's contract (missing, wrong shape or type): asking
    again gets the same answer, so it is never retried."""


def parse_outputs(config: TaskConfig, result: Any, rows: int, model_name: str) -> list[dict[str, Any]]:
    try:
        return [parse_output(config, result, i) for i in range(rows)]
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, UnicodeDecodeError) as exc:
        expected = ", ".join(output_names(config))
        raise MalformedOutput(
            f"model {model_name}: its outputs do not follow the task's contract (expected {expected} for each of"
            f" {rows} example(s); reading them raised {type(exc).__name__})"
        ) from None


@dataclass(frozen=True)
class Prediction:
    model_name: str
    model_version: str
    output: dict[str, Any]  # {"label", "probs": {label: p}} or {"answer", "start", "end", "confidence"}
    embedding: np.ndarray | None = field(default=None, compare=False)  # float32 [D], when asked for and given

    @property
    def encoder(self) -> str:
        """Whose vector space `embedding` is in: vectors of different encoders are never compared."""
        return f"{self.model_name}@{self.model_version}"


def build_inputs(config: TaskConfig, fields: dict[str, str]) -> list[InferInput]:
    return build_batch_inputs(config, [fields])


def build_batch_inputs(config: TaskConfig, rows: list[dict[str, str]]) -> list[InferInput]:
    """One BYTES tensor of shape [batch, 1] per model input field (triton_models/README.md)."""
    inputs = []
    for name in config.model_inputs:
        tensor = InferInput(name, [len(rows), 1], "BYTES")
        tensor.set_data_from_numpy(np.array([[str(row[name]).encode("utf-8")] for row in rows], dtype=np.object_))
        inputs.append(tensor)
    return inputs


async def predict_batch(
    client: InferenceServerClient,
    config: TaskConfig,
    model_name: str,
    rows: list[dict[str, str]],
    timeout_s: float,
    model_version: str = "",
) -> list[dict[str, Any]]:
    """A batch through one model (evaluation, smoke tests); failures become ModelUnavailable."""
    outputs = [InferRequestedOutput(name) for name in output_names(config)]
    started, outcome = time.perf_counter(), "error"
    try:
        result = await asyncio.wait_for(
            client.infer(
                model_name, build_batch_inputs(config, rows), model_version=model_version, outputs=outputs, headers=PLAIN_RESPONSE
            ),
            timeout=timeout_s,
        )
        parsed = parse_outputs(config, result, len(rows), model_name)
        outcome = "ok"
        return parsed
    except TimeoutError:
        outcome = "timeout"
        raise ModelTimedOut(f"model {model_name} did not answer within {timeout_s:g} s") from None
    except InferenceServerException as exc:
        outcome = "unavailable"
        raise ModelUnavailable(f"model {model_name}: {exc.message()}") from None
    except MalformedOutput:
        raise
    except asyncio.CancelledError:
        outcome = "cancelled"
        raise
    except Exception as exc:  # noqa: BLE001 — transport errors
        outcome = _failure_outcome(exc)
        raise ModelUnavailable(f"model {model_name}: {type(exc).__name__}: {exc}"[:500]) from None
    finally:
        observe_triton(model_name, outcome, time.perf_counter() - started)


def parse_output(config: TaskConfig, result: Any, row: int = 0) -> dict[str, Any]:
    if config.kind == "classification":
        label = result.as_numpy("label")[row][0]
        probs = result.as_numpy("probs")[row]
        assert config.labels is not None
        return {
            "label": label.decode("utf-8") if isinstance(label, bytes) else str(label),
            "probs": {name: float(p) for name, p in zip(config.labels, probs)},
        }
    answer = result.as_numpy("answer")[row][0]
    return {
        "answer": answer.decode("utf-8") if isinstance(answer, bytes) else str(answer),
        "start": int(result.as_numpy("start")[row][0]),
        "end": int(result.as_numpy("end")[row][0]),
        "confidence": float(result.as_numpy("confidence")[row][0]),
    }


def output_names(config: TaskConfig) -> tuple[str, ...]:
    return CLASSIFICATION_OUTPUTS if config.kind == "classification" else QA_OUTPUTS


def parse_embedding(result: Any) -> np.ndarray | None:
    """The optional `embedding` output of the first row, or None when absent or unusable (a model's own business)."""
    try:
        values = result.as_numpy(EMBEDDING_OUTPUT)
    except Exception:  # noqa: BLE001 — a malformed optional output is as good as none
        return None
    if values is None or values.ndim != 2 or not 0 < values.shape[1] <= MAX_EMBEDDING:
        return None
    vector = np.asarray(values[0], dtype=np.float32)
    return vector if np.isfinite(vector).all() else None


async def predict(
    client: InferenceServerClient,
    config: TaskConfig,
    model_name: str,
    model_version: str,
    fields: dict[str, str],
    timeout_s: float,
    embedding: bool = False,
) -> Prediction:
    """One example through one model; every failure becomes ModelUnavailable with a readable reason.
    `embedding`: also read the model's optional `embedding` output. Asking for an output a model does not declare
    is an error in Triton, so then no output is named and Triton sends them all (binary)."""
    outputs = None if embedding else [InferRequestedOutput(name) for name in output_names(config)]
    started, outcome = time.perf_counter(), "error"
    try:
        result = await asyncio.wait_for(
            client.infer(
                model_name, build_inputs(config, fields), model_version=model_version, outputs=outputs, headers=PLAIN_RESPONSE
            ),
            timeout=timeout_s,
        )
        response = result.get_response()
        prediction = Prediction(
            model_name,
            str(response.get("model_version", model_version)),
            parse_outputs(config, result, 1, model_name)[0],
            parse_embedding(result) if embedding else None,
        )
        outcome = "ok"
        return prediction
    except TimeoutError:
        outcome = "timeout"
        raise ModelTimedOut(f"model {model_name} did not answer within {timeout_s:g} s") from None
    except InferenceServerException as exc:
        outcome = "unavailable"
        raise ModelUnavailable(f"model {model_name}: {exc.message()}") from None
    except MalformedOutput:
        raise
    except (OSError, asyncio.CancelledError) as exc:
        if isinstance(exc, asyncio.CancelledError) and asyncio.current_task().cancelling():
            outcome = "cancelled"
            raise
        outcome = "unavailable"
        raise ModelUnavailable(f"model {model_name}: Triton is unreachable ({type(exc).__name__})") from None
    except Exception as exc:  # noqa: BLE001 — aiohttp errors and malformed outputs (contract breach)
        outcome = _failure_outcome(exc)
        raise ModelUnavailable(f"model {model_name}: {type(exc).__name__}: {exc}"[:500]) from None
    finally:
        observe_triton(model_name, outcome, time.perf_counter() - started)
