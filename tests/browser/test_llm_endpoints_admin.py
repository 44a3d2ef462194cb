"""LLM endpoints in the PWA (issue #30 point 4): an admin registers one from the models page (the key field
write-only: the page says a key is stored and never shows it, even after a reload), changes it (keep, replace or
remove the key) and reads every task's usage with its estimated cost; a task's owner reads their task's usage on the
task's owner page, and picks an enabled endpoint (a real `transformers serve`) as a generative round's target, which
the round then lists. Every state is free of axe violations."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.api.conversations_helpers import generative_config
from tests.browser.helpers import PASSWORD, seed, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)
from tests.llm_endpoints.helpers import register
from tests.llm_endpoints.llm_server import LlmServer, build_tiny_chat_model

DESKTOP = {"width": 1280, "height": 900}
KEY = "sk-browser-SECRET-7f6e5d4c3b2a"


def _log_in(page, app_url, username):
    page.goto(f"{app_url}/#/login")
    form = page.locator("form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()


def _usage(endpoint: str, username: str, task: str, prompt: int, completion: int, cost: str) -> None:
    sql(
        'INSERT INTO generation_usage (endpoint, "user", task, day, calls, prompt_tokens, completion_tokens, estimated_cost) '
        "SELECT $1, u.id, t.id, (now() AT TIME ZONE 'UTC')::date, 1, $4, $5, $6::numeric FROM users u, tasks t "
        "WHERE u.username = $2 AND t.code = $3",
        endpoint,
        username,
        task,
        prompt,
        completion,
        cost,
    )


@pytest.mark.usefixtures("axe_available")
def test_an_admin_registers_changes_an_endpoint_and_reads_the_usage_and_an_owner_reads_theirs(api, app_url, launch, profile):
    seed()
    api.sign_up("boss")
    sql("UPDATE users SET is_admin = true WHERE username = 'boss'")
    context = launch(profile, viewport=DESKTOP)
    page = context.new_page()
    _log_in(page, app_url, "boss")
    page.goto(f"{app_url}/#/admin/models")
    section = page.get_by_test_id("admin-llm-endpoints")
    expect(section.get_by_role("heading", name="LLM endpoints")).to_be_visible()
    expect(section.get_by_text("No LLM endpoint is registered.")).to_be_visible()

    # Register: a mistake is named next to its field first, then the endpoint is listed with its key stored.
    section.get_by_role("button", name="Register an endpoint").click()
    form = section.get_by_test_id("llm-endpoint-form")
    form.get_by_label("Name").fill("Local GPT")
    form.get_by_label("Base URL").fill("http://127.0.0.1:9/v1")
    form.get_by_label("Model", exact=True).fill("tiny-gpt")
    form.get_by_label("API key").fill(KEY)
    form.get_by_label("Daily tokens per user (0: no limit)").fill("5000")
    form.get_by_label("Price per 1,000 completion tokens").fill("0.5")
    form.get_by_role("button", name="Register an endpoint").click()
    expect(form.get_by_label("Name")).to_be_focused()
    expect(form.locator("#llm-name-error")).to_contain_text("lowercase letters")
    assert axe_violations(page) == []
    form.get_by_label("Name").fill("local-gpt")
    form.get_by_role("button", name="Register an endpoint").click()
    expect(section.get_by_test_id("llm-status")).to_contain_text("local-gpt is registered.")
    card = section.locator("[data-endpoint='local-gpt']")
    expect(card.get_by_test_id("llm-key-state")).to_have_text("A key is stored.")
    expect(card).to_contain_text("5,000 per user")
    assert KEY not in page.content()
    assert axe_violations(page) == []

    # Change: the key is kept unless asked; removing it says so; nothing of it is ever on the page.
    page.reload()
    card = page.locator("[data-endpoint='local-gpt']")
    card.get_by_role("button", name="Change").click()
    form = card.get_by_test_id("llm-endpoint-form")
    expect(form.get_by_role("radio", name="Keep the stored key")).to_be_checked()
    expect(form.get_by_label("New API key")).to_have_count(0)
    assert KEY not in page.content()
    form.get_by_role("radio", name="Replace it with a new key").check()
    expect(form.get_by_label("New API key")).to_have_value("")
    assert axe_violations(page) == []
    form.get_by_role("radio", name="Remove the key").check()
    form.get_by_label("Replies at once").fill("2")
    form.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("llm-status")).to_contain_text("local-gpt is saved.")
    expect(card.get_by_test_id("llm-key-state")).to_have_text("No key.")
    expect(card).to_contain_text("2 at once")
    assert sql("SELECT api_key_sealed, max_concurrency FROM llm_endpoints") == [{"api_key_sealed": "", "max_concurrency": 2}]

    # Usage: every task's, with the estimated cost and the totals.
    owner = api.sign_up("chat-owner")
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "llm_task", "name": "LLM task", "config": _config()}},
        token=owner,
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    _usage("local-gpt", "chat-owner", "llm_task", 1200, 800, "0.4000")
    _usage("local-gpt", "boss", "sentiment", 100, 100, "0.0500")
    page.reload()
    usage = page.get_by_test_id("llm-usage")
    expect(usage.get_by_role("table")).to_be_visible()
    expect(usage.locator("tbody tr")).to_have_count(2)
    expect(usage.get_by_test_id("llm-usage-cost")).to_have_text("0.45")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Log out").click()  # in the header on a desktop

    # The task's owner reads their task's usage (and only theirs) on its owner page.
    _log_in(page, app_url, "chat-owner")
    page.goto(f"{app_url}/#/owner/llm_task")
    card = page.get_by_test_id("task-llm-usage")
    expect(card.get_by_role("heading", name="Usage")).to_be_visible()
    expect(card.locator("tbody tr")).to_have_count(1)
    expect(card.get_by_test_id("task-llm-usage-cost")).to_have_text("0.40")
    assert axe_violations(page) == []


@pytest.fixture(scope="module")
def llm_server(tmp_path_factory):
    """`transformers serve` with a tiny GPT-2 built for the module (ready in seconds)."""
    model = build_tiny_chat_model(tmp_path_factory.mktemp("tiny-chat-model") / "model")
    server = LlmServer(model, tmp_path_factory.mktemp("llm-server") / "transformers-serve.log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.usefixtures("axe_available")
def test_an_owner_picks_an_llm_endpoint_as_a_rounds_target(api, app_url, launch, profile, llm_server):
    seed()
    admin = api.sign_up("llm-admin")
    sql("UPDATE users SET is_admin = true WHERE username = 'llm-admin'")
    register(api, admin, name="chat-llm", baseUrl=llm_server.base_url, model=llm_server.model, apiKey=KEY)
    register(api, admin, name="off-llm", baseUrl=llm_server.base_url, model=llm_server.model, enabled=False)
    owner = api.sign_up("llm-owner")
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "pick_llm", "name": "Red team a chat model", "config": generative_config(max_tokens=8)}},
        token=owner,
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created  # a proposal: its owner opens rounds already
    context = launch(profile, viewport=DESKTOP)
    page = context.new_page()
    _log_in(page, app_url, "llm-owner")
    page.goto(f"{app_url}/#/owner/pick_llm")

    # The enabled endpoint is offered beside the served models (the disabled one is not), without its address or key.
    targets = page.get_by_test_id("round-targets")
    choice = targets.get_by_test_id("target-endpoint-chat-llm")
    expect(choice).to_contain_text(f"LLM endpoint: chat-llm ({llm_server.model})")
    expect(choice).to_have_attribute("data-choosable", "true")
    expect(targets.get_by_test_id("target-endpoint-off-llm")).to_have_count(0)
    assert llm_server.base_url not in page.content() and KEY not in page.content()
    assert axe_violations(page) == []

    # Picked and opened: the endpoint answers its smoke request, and the round lists it as its target.
    choice.get_by_role("checkbox").check()
    page.get_by_role("button", name="Open round", exact=True).click()
    expect(page.get_by_test_id("round-status")).to_contain_text("Round 1 is open.")
    expect(page.get_by_test_id("round-1-targets")).to_have_text("Targets: LLM endpoint: chat-llm")
    [stored] = sql("SELECT target_models::text AS t FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'pick_llm'")
    assert json.loads(stored["t"]) == [{"name": "endpoint:chat-llm", "endpoint": "chat-llm", "version": ""}]
    assert axe_violations(page) == []
    page.reload()
    expect(page.get_by_test_id("round-1-targets")).to_have_text("Targets: LLM endpoint: chat-llm")


def _config() -> dict:
    from tests.browser.test_admin import CONFIG

    return CONFIG
