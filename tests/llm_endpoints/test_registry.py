"""The admins' registry of LLM endpoints through GraphQL: register, list, change (the key kept, replaced or cleared),
remove, each audited; every refused setting named; the key never in any answer, never stored in clear, never in the
stack's logs; the usage report for admins (all) and a task's owners (their task's only)."""

from __future__ import annotations

from server.core.settings import Settings
from server.generation.endpoints import crypto
from tests.api.test_served_models import CONFIGS, CREATE_TASK
from tests.conftest import run_sql, seed_builtin_tasks
from tests.llm_endpoints.helpers import LIST, REGISTER, REMOVE, UPDATE, USAGE, register

KEY, NEW_KEY = "sk-proj-REGISTRY-aaaa1111bbbb2222", "sk-proj-ROTATED-cccc3333dddd4444"
AUDIT = "{ auditLog(first: 20, action: null) { edges { node { action targetType targetLabel reason } } } }"
BASE = {"name": "remote-llm", "baseUrl": "https://llm.example.org/v1/", "model": "acme/chat-7b"}


def _sealed(name: str) -> str:
    return run_sql("SELECT api_key_sealed FROM llm_endpoints WHERE name = $1", name)[0]["api_key_sealed"]


def _opened(name: str) -> str:
    return crypto.open_sealed(Settings.from_env(), name, _sealed(name))


def test_an_admin_registers_changes_and_removes_an_endpoint_and_the_key_never_comes_back(api, admin_token, stack):
    bodies: list[str] = []

    def call(document: str, variables: dict | None = None) -> dict:
        response = api.raw(document, variables, token=admin_token)
        bodies.append(response.text)
        return response.json()["data"]

    created = call(REGISTER, {"i": {**BASE, "apiKey": KEY, "tokensPerUserPerDay": 5000, "pricePer1kPromptTokens": 0.25}})
    endpoint = created["registerLlmEndpoint"]["endpoint"]
    assert endpoint == {
        "name": "remote-llm",
        "baseUrl": "https://llm.example.org/v1",  # the trailing slash dropped
        "model": "acme/chat-7b",
        "hasKey": True,
        "timeoutS": 30.0,
        "maxConcurrency": 4,
        "tokensPerUserPerDay": 5000,
        "tokensPerTaskPerDay": 0,
        "pricePer1kPromptTokens": 0.25,
        "pricePer1kCompletionTokens": 0.0,
        "enabled": True,
    }
    assert KEY not in _sealed("remote-llm") and _opened("remote-llm") == KEY
    assert call(LIST)["llmEndpoints"] == [endpoint]

    # Left out: the key stays (the very same sealed value); a new one replaces it; "" clears it.
    sealed = _sealed("remote-llm")
    kept = call(UPDATE, {"i": {"name": "remote-llm", "timeoutS": 12.5, "maxConcurrency": 2, "apiKey": None}})
    assert kept["updateLlmEndpoint"]["endpoint"]["hasKey"] is True and _sealed("remote-llm") == sealed
    assert kept["updateLlmEndpoint"]["endpoint"]["timeoutS"] == 12.5
    replaced = call(UPDATE, {"i": {"name": "remote-llm", "apiKey": NEW_KEY}})
    assert replaced["updateLlmEndpoint"]["endpoint"]["hasKey"] is True and _opened("remote-llm") == NEW_KEY
    cleared = call(UPDATE, {"i": {"name": "remote-llm", "apiKey": "", "enabled": False}})
    assert cleared["updateLlmEndpoint"]["endpoint"]["hasKey"] is False and _sealed("remote-llm") == ""
    assert cleared["updateLlmEndpoint"]["endpoint"]["enabled"] is False

    assert call(REMOVE, {"n": "remote-llm"})["removeLlmEndpoint"] == {"__typename": "LlmEndpointRemoved", "name": "remote-llm"}
    assert call(LIST)["llmEndpoints"] == []
    entries = [e["node"] for e in call(AUDIT)["auditLog"]["edges"]]
    assert [(e["action"], e["targetType"], e["targetLabel"]) for e in entries] == [
        ("LLM_ENDPOINT_REMOVED", "llm_endpoint", "remote-llm"),
        ("LLM_ENDPOINT_UPDATED", "llm_endpoint", "remote-llm"),
        ("LLM_ENDPOINT_UPDATED", "llm_endpoint", "remote-llm"),
        ("LLM_ENDPOINT_UPDATED", "llm_endpoint", "remote-llm"),
        ("LLM_ENDPOINT_REGISTERED", "llm_endpoint", "remote-llm"),
    ]
    assert entries[2]["reason"] == "apiKey" and entries[3]["reason"] == "timeoutS, maxConcurrency"  # names, not values
    assert entries[4]["reason"] == "with a key"

    for secret in (KEY, NEW_KEY):
        assert all(secret not in body for body in bodies)
        assert all(secret not in str(row) for row in run_sql("SELECT * FROM admin_audit"))
        for log in stack.logs.glob("*.log"):
            assert secret not in log.read_text(errors="replace"), log.name


def test_every_refused_setting_is_named(api, admin_token):
    cases = [
        ({"name": "Bad Name"}, "name"),
        ({"name": "x" * 65}, "name"),
        ({"baseUrl": "ftp://llm.example.org/v1"}, "baseUrl"),
        ({"baseUrl": "https://user:secret@llm.example.org/v1"}, "baseUrl"),
        ({"baseUrl": "https://llm.example.org/v1?key=abc"}, "baseUrl"),
        ({"baseUrl": "not a url"}, "baseUrl"),
        ({"model": ""}, "model"),
        ({"apiKey": "sk-with\nnewline"}, "apiKey"),
        ({"apiKey": "sk with spaces"}, "apiKey"),
        ({"timeoutS": 0.5}, "timeoutS"),
        ({"timeoutS": 601}, "timeoutS"),
        ({"maxConcurrency": 0}, "maxConcurrency"),
        ({"tokensPerUserPerDay": -1}, "tokensPerUserPerDay"),
        ({"tokensPerTaskPerDay": 2_000_000_001}, "tokensPerTaskPerDay"),
        ({"pricePer1kPromptTokens": -0.01}, "pricePer1kPromptTokens"),
        ({"pricePer1kCompletionTokens": 1e9}, "pricePer1kCompletionTokens"),
    ]
    for change, field in cases:
        answer = api(REGISTER, {"i": {**BASE, **change}}, token=admin_token)["registerLlmEndpoint"]
        assert answer["__typename"] == "InputError", (change, answer)
        assert [f["field"] for f in answer["fields"]] == [field], (change, answer)
    assert run_sql("SELECT count(*) AS n FROM llm_endpoints")[0]["n"] == 0

    register(api, admin_token, **BASE)
    taken = api(REGISTER, {"i": BASE}, token=admin_token)["registerLlmEndpoint"]
    assert taken["__typename"] == "ConflictError"
    bad = api(UPDATE, {"i": {"name": "remote-llm", "baseUrl": "https://a:b@c/v1"}}, token=admin_token)["updateLlmEndpoint"]
    assert bad["__typename"] == "InputError" and bad["fields"][0]["field"] == "baseUrl"
    missing = api(UPDATE, {"i": {"name": "nope", "enabled": False}}, token=admin_token)["updateLlmEndpoint"]
    assert missing["__typename"] == "NotFoundError"
    assert api(REMOVE, {"n": "nope"}, token=admin_token)["removeLlmEndpoint"]["__typename"] == "NotFoundError"

    someone = api.sign_up("not-an-admin")
    assert api(REGISTER, {"i": {**BASE, "name": "mine"}}, token=someone)["registerLlmEndpoint"]["__typename"] == "PermissionError"
    assert api(REMOVE, {"n": "remote-llm"})["removeLlmEndpoint"]["__typename"] == "AuthenticationError"
    assert api.errors(LIST, token=someone)[0]["extensions"]["code"] == "FORBIDDEN"


def test_owners_read_their_tasks_usage_and_admins_read_all(api, admin_token):
    owner, other = api.sign_up("usage-owner"), api.sign_up("usage-other")
    for token, code in ((owner, "mine"), (other, "theirs")):
        created = api(CREATE_TASK, {"i": {"code": code, "name": code, "config": CONFIGS["classification"]}}, token=token)
        assert created["createTask"]["__typename"] == "TaskCreated", created
    tasks = {r["code"]: r["id"] for r in run_sql("SELECT id, code FROM tasks")}
    users = {r["username"]: r["id"] for r in run_sql("SELECT id, username FROM users")}
    for endpoint, user, task, prompt, completion, cost in (
        ("gpt", users["usage-owner"], tasks["mine"], 100, 50, "0.0125"),
        ("gpt", users["usage-other"], tasks["mine"], 10, 5, "0.00125"),
        ("gpt", users["usage-other"], tasks["theirs"], 1000, 500, "0.125"),
    ):
        run_sql(
            'INSERT INTO generation_usage (endpoint, "user", task, day, calls, prompt_tokens, completion_tokens, '
            "estimated_cost) VALUES ($1, $2, $3, (now() AT TIME ZONE 'UTC')::date, 1, $4, $5, $6::numeric)",
            endpoint,
            user,
            task,
            prompt,
            completion,
            cost,
        )
    mine = api(USAGE, {"t": "mine", "d": 7}, token=owner)["generationUsage"]
    assert (mine["promptTokens"], mine["completionTokens"], mine["calls"], mine["estimatedCost"]) == (110, 55, 2, 0.01375)
    assert [(line["taskCode"], line["users"]) for line in mine["lines"]] == [("mine", 2)]

    # A proposal is hidden from other users (as missing); a task they can see but do not own is refused.
    assert api.errors(USAGE, {"t": "mine", "d": 7}, token=other)[0]["extensions"]["code"] == "NOT_FOUND"
    seed_builtin_tasks()
    assert api.errors(USAGE, {"t": "sentiment", "d": 7}, token=other)[0]["extensions"]["code"] == "FORBIDDEN"
    assert api.errors(USAGE, {"t": None, "d": 7}, token=owner)[0]["extensions"]["code"] == "FORBIDDEN"
    assert api.errors(USAGE, {"t": "mine", "d": 7})[0]["extensions"]["code"] == "AUTHENTICATION_REQUIRED"
    everything = api(USAGE, {"t": None, "d": 400}, token=admin_token)["generationUsage"]
    assert everything["days"] == 366 and everything["calls"] == 3 and everything["promptTokens"] == 1110
    assert sorted(line["taskCode"] for line in everything["lines"]) == ["mine", "theirs"]
