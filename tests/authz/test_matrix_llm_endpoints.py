"""Authorization matrix, LLM endpoints (issue #30 point 4): the registry is for admins only (a session, or an API
token with the 'admin' scope of an admin account); the usage report of one task for its owners and admins, of every
task for admins; the endpoints a task's rounds may target (`llmEndpointChoices`) for its owners and admins. See
matrix.py for the outcomes and world.py for the principals. Allowed mutation cells act on fresh endpoints.

The module's world adds a generative task (created by the admin, owned by task_owner too), another one owned by
another_annotator (the owner of another task), an enabled and a disabled endpoint."""

import pytest

from tests.api.conversations_helpers import generative_config
from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import MAIN_TASK
from tests.conftest import run_sql

ERR = "... on Error { code message }"
ADMINS_ONLY = "401 403 403 403 ok 403 403 403 ok"
ENDPOINT = "name hasKey enabled maxConcurrency"
GENERATIVE, OTHER_GENERATIVE = "mx_gen", "mx_gen_other"
CHOICE_ON, CHOICE_OFF = "mx-choice-on", "mx-choice-off"


@pytest.fixture(scope="module", autouse=True)
def generative_tasks(world):
    for code, owner in ((GENERATIVE, "task_owner"), (OTHER_GENERATIVE, "another_annotator")):
        created = world.api(
            "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on Error { message } } }",
            {"i": {"code": code, "name": f"Matrix {code}", "config": generative_config()}},
            token=world.bearer["admin"],
        )
        assert created["createTask"]["__typename"] == "TaskCreated", created
        task = run_sql("SELECT id FROM tasks WHERE code = $1", code)[0]["id"]
        run_sql('INSERT INTO task_owners (task, "user") VALUES ($1, $2)', task, world.user_pk[owner])
    for name, enabled in ((CHOICE_ON, True), (CHOICE_OFF, False)):
        run_sql(
            "INSERT INTO llm_endpoints (name, base_url, model, api_key_sealed, enabled) "
            "VALUES ($1, 'http://10.1.2.3:8000/v1', 'tiny-chat', 'v1:sealed', $2)",
            name,
            enabled,
        )


def _choices_check(world, principal, value, variables):
    """Enabled endpoints only (the cells of other rows add some), each with its model and limits."""
    names = [choice["name"] for choice in value]
    enabled = {row["name"] for row in run_sql("SELECT name FROM llm_endpoints WHERE enabled")}
    holds(CHOICE_ON in names and CHOICE_OFF not in names and set(names) <= enabled and names == sorted(names), value)
    same(next(c for c in value if c["name"] == CHOICE_ON), {"name": CHOICE_ON, "model": "tiny-chat", "tokensPerTaskPerDay": 0})


CHOICES = "query($t: String!) { llmEndpointChoices(taskCode: $t) { name model tokensPerTaskPerDay } }"


def _fresh_name(world, principal):
    return {"i": {"name": world.unique("mx-llm-"), "baseUrl": "http://127.0.0.1:9/v1", "model": "m", "apiKey": "sk-mx-1"}}


def _fresh_endpoint(world, principal):
    name = world.unique("mx-llm-")
    run_sql("INSERT INTO llm_endpoints (name, base_url, model) VALUES ($1, 'http://127.0.0.1:9/v1', 'm')", name)
    return {"n": name, "i": {"name": name, "enabled": False, "maxConcurrency": 2}}


def _endpoint_row(world, variables):
    name = variables["n"] if "n" in variables else variables["i"]["name"]
    return run_sql("SELECT name, enabled, max_concurrency, api_key_sealed FROM llm_endpoints WHERE name = $1", name)


OPS = [
    Op(
        "llmEndpoints",
        "Query.llmEndpoints",
        f"{{ llmEndpoints {{ {ENDPOINT} }} }}",
        ADMINS_ONLY,
        check=lambda w, p, v, _: holds(isinstance(v, list), v),
    ),
    Op(
        "generationUsage",
        "Query.generationUsage",
        "{ generationUsage(days: 7) { days calls estimatedCost lines { taskCode } } }",
        ADMINS_ONLY,
        check=lambda w, p, v, _: same(v["days"], 7),
    ),
    Op(
        "generationUsage:task",
        "Query.generationUsage",
        "query($t: String) { generationUsage(taskCode: $t) { days calls lines { taskCode } } }",
        # The task's owners and admins (tokens need the admin scope, as for every owner page).
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: holds(v["days"] == 30 and all(line["taskCode"] == MAIN_TASK for line in v["lines"]), v),
    ),
    Op(
        "llmEndpointChoices",
        "Query.llmEndpointChoices",
        CHOICES,
        # The task's owners and admins, not the owner of another task (another_annotator owns mx_gen_other).
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": GENERATIVE},
        check=_choices_check,
    ),
    Op(
        "llmEndpointChoices:classification",
        "Query.llmEndpointChoices",
        CHOICES,
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: same(v, []),  # an endpoint cannot judge a classification task's examples
    ),
    Op(
        "registerLlmEndpoint",
        "Mutation.registerLlmEndpoint",
        "mutation($i: RegisterLlmEndpointInput!) { registerLlmEndpoint(input: $i) { __typename "
        f"... on LlmEndpointRegistered {{ endpoint {{ {ENDPOINT} }} }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="LlmEndpointRegistered",
        prepare=_fresh_name,
        watch=_endpoint_row,
        check=lambda w, p, v, a: same(
            v["endpoint"], {"name": a["i"]["name"], "hasKey": True, "enabled": True, "maxConcurrency": 4}
        ),
    ),
    Op(
        "updateLlmEndpoint",
        "Mutation.updateLlmEndpoint",
        "mutation($i: UpdateLlmEndpointInput!) { updateLlmEndpoint(input: $i) { __typename "
        f"... on LlmEndpointUpdated {{ endpoint {{ {ENDPOINT} }} }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="LlmEndpointUpdated",
        prepare=_fresh_endpoint,
        watch=_endpoint_row,
        check=lambda w, p, v, a: same(v["endpoint"], {"name": a["n"], "hasKey": False, "enabled": False, "maxConcurrency": 2}),
    ),
    Op(
        "removeLlmEndpoint",
        "Mutation.removeLlmEndpoint",
        f"mutation($n: String!) {{ removeLlmEndpoint(name: $n) {{ __typename ... on LlmEndpointRemoved {{ name }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="LlmEndpointRemoved",
        prepare=_fresh_endpoint,
        watch=_endpoint_row,
        check=lambda w, p, v, a: holds(v["name"] == a["n"] and _endpoint_row(w, a) == [], v),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
