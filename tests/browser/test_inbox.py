"""The notifications inbox in the browser: the header's bell counts unread notifications live, the inbox page lists
them, marks them read and keeps the email preferences (a task owner hearing an admin's decisions on a proposal)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

LOG_IN = """mutation($u: String!, $p: String!) { logIn(input: {username: $u, password: $p}) {
  ... on AuthPayload { token } } }"""


def _config() -> dict:
    from server.tasks.builtin import BUILTIN_TASKS

    return next(spec["config"] for spec in BUILTIN_TASKS if spec["code"] == "sentiment")


@pytest.mark.usefixtures("axe_available")
def test_the_bell_counts_live_and_the_inbox_marks_read(api, app_url, launch, profile):
    seed()
    admin = api.sign_up("inbox-admin")
    sql("UPDATE users SET is_admin = true WHERE username = 'inbox-admin'")
    page = launch(profile).new_page()
    sign_up(page, app_url, "owner")
    owner = api(LOG_IN, {"u": "owner", "p": PASSWORD})["logIn"]["token"]
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "movies", "name": "Movie sentiment", "config": _config()}},
        token=owner,
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    bell = page.get_by_test_id("inbox-bell")
    expect(bell).to_have_attribute("aria-label", "Notifications, none unread")

    # The admin's rejection reaches the open page live.
    api('mutation { rejectTask(taskCode: "movies", note: "Add instructions, please.") { __typename } }', token=admin)
    expect(bell).to_have_attribute("aria-label", "Notifications, 1 unread")
    bell.click()
    expect(page.get_by_role("heading", level=1, name="Notifications")).to_be_visible()
    entries = page.get_by_test_id("inbox-list").get_by_role("listitem")
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("Your task Movie sentiment was rejected")
    expect(entries.first).to_contain_text("Add instructions, please.")
    assert axe_violations(page) == []
    entries.first.get_by_role("button", name="Mark read").click()
    expect(bell).to_have_attribute("aria-label", "Notifications, none unread")
    expect(entries.first.get_by_role("button", name="Mark read")).to_have_count(0)

    # The approval arrives on the inbox page itself; "Mark all read" clears the count.
    api('mutation { updateTask(input: {taskCode: "movies", instructions: "Write a review."}) { __typename } }', token=owner)
    api('mutation { approveTask(taskCode: "movies", note: "Thanks!") { __typename } }', token=admin)
    expect(entries).to_have_count(2)
    expect(entries.first).to_contain_text("Your task Movie sentiment was approved")
    expect(bell).to_have_attribute("aria-label", "Notifications, 1 unread")
    page.get_by_role("button", name="Mark all read").click()
    expect(bell).to_have_attribute("aria-label", "Notifications, none unread")
    assert sql("SELECT count(*) AS n FROM notifications WHERE read_at IS NULL")[0]["n"] == 0

    # Email preferences: the checked kinds are saved for the account.
    page.get_by_role("checkbox", name="Task approved").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    saved = sql(
        "SELECT p.email_kinds FROM notification_preferences p JOIN users u ON u.id = p.\"user\" WHERE u.username = 'owner'"
    )
    assert saved == [{"email_kinds": ["task_approved"]}]
