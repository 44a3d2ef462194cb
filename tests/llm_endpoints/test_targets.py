"""An LLM endpoint as a round's target (server/tasks/targets.py → server/generation/endpoints/targets.py), checked at
the service level against a real server: a generative task's round lists it as `endpoint:<name>` once it answers a
one-token smoke request (counted for the task, with no user); a missing, disabled or unreachable endpoint, a malformed
request and a task of another kind are refused with the reason. (The GraphQL input takes `endpoint` too: refused
here for a classification task; the generative task kind's own tests open such rounds end to end.)"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from server.core.errors import ServiceError
from server.runtime import free_port
from server.tasks.service import get_task_by_code, load_config
from server.tasks.targets import TargetRequest, resolve_targets
from tests.api.test_served_models import CREATE_ROUND
from tests.llm_endpoints.helpers import builtin_task_ids, register, usage_rows

GENERATIVE = SimpleNamespace(kind="generative", generative=None)  # what resolving reads of a task config (no battle)


async def _refusal(task, config, requests, services) -> dict[str, str]:
    with pytest.raises(ServiceError) as refused:
        await resolve_targets(task, config, requests, services)
    assert refused.value.code == "INVALID_INPUT"
    return {problem.field: problem.message for problem in refused.value.fields}


async def test_an_endpoint_that_answers_is_a_generative_rounds_target(api, admin_token, llm_server, services):
    await builtin_task_ids()
    task = await get_task_by_code("sentiment")
    register(api, admin_token, name="judge-llm", baseUrl=llm_server.base_url, model=llm_server.model, apiKey="sk-target-1234")
    targets = await resolve_targets(task, GENERATIVE, [TargetRequest(endpoint=" judge-llm ")], services)  # type: ignore[arg-type]
    assert targets == [{"name": "endpoint:judge-llm", "endpoint": "judge-llm", "version": ""}]
    [smoke] = usage_rows("judge-llm")
    assert (smoke["user"], smoke["task"], smoke["calls"], smoke["errors"]) == (None, task["id"], 1, 0)
    assert smoke["completion_tokens"] <= 1


async def test_endpoints_that_cannot_judge_are_refused_with_the_reason(api, admin_token, llm_server, services):
    await builtin_task_ids()
    task = await get_task_by_code("sentiment")
    register(api, admin_token, name="off", baseUrl=llm_server.base_url, model=llm_server.model, enabled=False)
    register(api, admin_token, name="gone", baseUrl=f"http://127.0.0.1:{free_port()}/v1", model="m")
    register(api, admin_token, name="fine", baseUrl=llm_server.base_url, model=llm_server.model)

    problems = await _refusal(
        task,
        GENERATIVE,
        [TargetRequest(endpoint="off"), TargetRequest(endpoint="gone"), TargetRequest(endpoint="missing")],
        services,
    )
    assert "switched off by an admin" in problems["targetModels.0.endpoint"]
    assert "cannot be reached" in problems["targetModels.1.endpoint"] and "127.0.0.1" not in problems["targetModels.1.endpoint"]
    assert "no LLM endpoint named 'missing'" in problems["targetModels.2.endpoint"]

    shapes = await _refusal(
        task, GENERATIVE, [TargetRequest(endpoint="fine", name="sentiment_minilm"), TargetRequest(endpoint="Not Valid")], services
    )
    assert shapes == {
        "targetModels.0": "give either endpoint, or name (and version), or modelId",
        "targetModels.1.endpoint": "is not an LLM endpoint's name",
    }
    # A classification task: an endpoint cannot judge its examples (nothing is asked of the endpoint).
    kinds = await _refusal(task, load_config(task), [TargetRequest(endpoint="fine")], services)
    assert kinds == {"targetModels.0.endpoint": "an LLM endpoint can only be the target of a generative task"}
    assert usage_rows("fine") == []

    # The same through createRound's input.
    answer = api(CREATE_ROUND, {"i": {"taskCode": "sentiment", "targetModels": [{"endpoint": "fine"}]}}, token=admin_token)
    assert answer["createRound"]["__typename"] == "InputError", answer
    assert answer["createRound"]["fields"] == [
        {"field": "targetModels.0.endpoint", "message": "an LLM endpoint can only be the target of a generative task"}
    ]
