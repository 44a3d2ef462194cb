"""A judge model scores a reply (fooling `judge_model`, HarmBench-style): a classifier on the target Triton, asked
with the reply as its input field; the probability of the configured label is the score."""

from __future__ import annotations

import asyncio
import json

import numpy as np
from tritonclient.http.aio import InferInput, InferRequestedOutput
from tritonclient.utils import InferenceServerException

from server.core.inference import PLAIN_RESPONSE, ModelUnavailable
from server.core.services import Services
from server.core.target_models import model_info, serving_client
from server.tasks.config import TaskConfig
from server.tasks.generative_config import JudgeConfig


async def judge_score(services: Services, judge: JudgeConfig, reply: str) -> float:
    """The judge's probability of `judge.label` for the reply; ModelUnavailable when it cannot say (the example
    then waits, and is judged once it answers)."""
    client = serving_client(services, judge.model)
    info = await model_info(client, judge.model)
    if not info["ready"]:
        raise ModelUnavailable(f"judge model {judge.model} is not ready")
    try:
        labels = json.loads(info["parameters"].get("labels") or "[]")
        index = labels.index(judge.label)
    except (ValueError, TypeError):
        raise ModelUnavailable(f"judge model {judge.model} has no label {judge.label!r}") from None
    tensor = InferInput(judge.input, [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[reply.encode("utf-8")]], dtype=np.object_))
    try:
        result = await asyncio.wait_for(
            client.infer(judge.model, [tensor], outputs=[InferRequestedOutput("probs")], headers=PLAIN_RESPONSE),
            timeout=services.settings.triton_timeout_s,
        )
        score = float(result.as_numpy("probs")[0][index])
    except TimeoutError:
        raise ModelUnavailable(f"judge model {judge.model} did not answer in time") from None
    except InferenceServerException as exc:
        raise ModelUnavailable(f"judge model {judge.model}: {exc.message()}"[:300]) from None
    except (OSError, IndexError, TypeError, ValueError) as exc:
        raise ModelUnavailable(f"judge model {judge.model}: {type(exc).__name__}") from None
    if not 0.0 <= score <= 1.0:
        raise ModelUnavailable(f"judge model {judge.model} gave a score outside [0, 1]")
    return score


async def rejudge_transcript(
    services: Services, config: TaskConfig, stored_input: dict, output: dict | None
) -> tuple[dict, bool]:
    """A pending conversation's replies scored again (its judge was away at submission): the output with every
    reply's score, and whether the model failed."""
    judge = config.generative.judge if config.generative is not None else None
    if judge is None:
        raise ModelUnavailable("the task has no judge model")
    replies = [str(m.get("content", "")) for m in stored_input.get("messages", []) if m.get("role") == "assistant"]
    scores = [await judge_score(services, judge, reply) for reply in replies]
    document = dict(output or {})
    records = list(document.get("replies") or [{} for _ in replies])
    document["replies"] = [{**record, "judge_score": score} for record, score in zip(records, scores)]
    return document, any(score >= judge.threshold for score in scores)
