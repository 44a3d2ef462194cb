"""The admin pages on a phone (issue #18 point 5): a non-admin gets the "admins only" view and no header link; an
admin walks users (search, disable with a reason, a reset link), approvals (approve with a note), models (take one
down with a reason) and the audit log that recorded all of it, each page free of axe violations."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
CONFIG = {
    "kind": "classification",
    "context_fields": [{"name": "context", "max_length": 5000}],
    "input_fields": [{"name": "statement", "max_length": 1000}],
    "model_inputs": ["statement"],
    "labels": ["negative", "positive"],
    "output_fields": ["label", "probs"],
    "fooling": {"metric": "exact_match"},
    "performance_metric": "accuracy",
}


def _world(api) -> None:
    seed()
    api.sign_up("victim")
    proposer = api.sign_up("proposer")
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "proposal_x", "name": "Proposal X", "config": CONFIG}},
        token=proposer,
    )
    assert created["createTask"]["__typename"] == "TaskCreated"
    api.sign_up("researcher")
    sql(
        "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, anonymous, "
        "created_at) SELECT t.id, u.id, 'bad-model', '{}', 'evaluated', '[]', '', '', true, false, now() "
        "FROM tasks t, users u WHERE t.code = 'sentiment' AND u.username = 'researcher'"
    )
    api.sign_up("boss")
    sql("UPDATE users SET is_admin = true WHERE username = 'boss'")


def _log_in(page, app_url, username):
    page.goto(f"{app_url}/#/login")
    form = page.locator("form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()


def _confirm_with(card, page, reason: str) -> None:
    card.get_by_label("Reason (the person concerned may read it)").fill(reason)
    card.get_by_role("button", name="Confirm").click()


@pytest.mark.usefixtures("axe_available")
def test_an_admin_walks_users_approvals_models_and_the_audit_log(api, app_url, launch, profile):
    _world(api)
    context = launch(profile, viewport=PHONE)
    page = context.new_page()

    # Not an admin: no header link, and the page says it is for admins.
    sign_up(page, app_url, "plain-user")
    expect(page.get_by_role("link", name="Admin", exact=True)).to_have_count(0)
    page.goto(f"{app_url}/#/admin")
    expect(page.get_by_role("heading", level=1, name="Admins only")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_role("button", name="Account: plain-user").click()  # on a phone, log out sits in the account menu
    page.get_by_role("button", name="Log out").click()

    # Users: search, disable (a reason is required), hand over a reset link.
    _log_in(page, app_url, "boss")
    page.get_by_role("link", name="Admin", exact=True).click()
    expect(page.get_by_role("heading", level=1, name="Users")).to_be_visible()
    expect(page.locator("[data-user]")).to_have_count(5)
    assert axe_violations(page) == []
    page.get_by_label("Search by username or email").fill("vict")
    page.get_by_role("button", name="Search").click()
    card = page.locator('[data-user="victim"]')
    expect(page.locator("[data-user]")).to_have_count(1)
    card.get_by_role("button", name="Disable account").click()
    expect(card.locator("#confirm-disable-question")).to_be_focused()
    card.get_by_role("button", name="Confirm").click()
    expect(card.get_by_role("alert")).to_have_text("Give a reason.")
    expect(card.get_by_label("Reason (the person concerned may read it)")).to_be_focused()
    assert axe_violations(page) == []
    _confirm_with(card, page, "Spam everywhere.")
    expect(page.get_by_test_id("admin-status")).to_contain_text("victim is disabled.")
    expect(card.get_by_text("Disabled: Spam everywhere.")).to_be_visible()
    assert sql("SELECT disabled_reason FROM users WHERE username = 'victim'") == [{"disabled_reason": "Spam everywhere."}]
    card.get_by_role("button", name="Password reset link").click()
    card.get_by_role("button", name="Confirm").click()
    expect(page.get_by_test_id("reset-link")).to_contain_text("/#/reset-password?token=")

    # Approvals: approve the proposal with a note.
    page.get_by_role("navigation", name="Admin sections").get_by_role("link", name="Approvals").click()
    expect(page.get_by_role("heading", level=1, name="Task approvals")).to_be_visible()
    task = page.locator('[data-task="proposal_x"]')
    expect(task).to_contain_text("Proposed by proposer")
    assert axe_violations(page) == []
    task.get_by_role("button", name="Approve").click()
    task.get_by_label("Note to the task's owners (optional)").fill("Welcome aboard.")
    task.get_by_role("button", name="Confirm").click()
    expect(page.get_by_test_id("admin-status")).to_contain_text("proposal_x is approved and public.")
    expect(page.get_by_text("No task waits for approval.")).to_be_visible()

    # Models: take one down with a reason.
    page.get_by_role("navigation", name="Admin sections").get_by_role("link", name="Models").click()
    expect(page.get_by_role("heading", level=1, name="Models")).to_be_visible()
    model = page.locator('[data-model="bad-model"]')
    expect(model).to_contain_text("by researcher")
    model.get_by_role("button", name="Take down").click()
    assert axe_violations(page) == []
    _confirm_with(model, page, "Copies the test set.")
    expect(model.get_by_text("Taken down: Copies the test set.")).to_be_visible()
    assert sql("SELECT published FROM models WHERE name = 'bad-model'") == [{"published": False}]

    # The audit log: every action, newest first; filtered by action.
    page.get_by_role("navigation", name="Admin sections").get_by_role("link", name="Audit log").click()
    expect(page.get_by_role("heading", level=1, name="Audit log")).to_be_visible()
    entries = page.locator("[data-action]")
    expect(entries).to_have_count(4)
    assert [entries.nth(i).get_attribute("data-action") for i in range(4)] == [
        "MODEL_TAKEN_DOWN",
        "TASK_APPROVED",
        "PASSWORD_RESET_ISSUED",
        "USER_DISABLED",
    ]
    assert axe_violations(page) == []
    page.get_by_label("Action").select_option("USER_DISABLED")
    page.get_by_role("button", name="Filter").click()
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("Spam everywhere.")
