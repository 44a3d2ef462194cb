"""The task settings page on a phone (issue #18 point 1): a new non-admin owner edits the instructions (rendered as
workers see them), adds an input field (a new config version; the open round keeps its own), is refused removing a
label the open round uses (the error next to the control, focused), adds a co-owner who then reaches the owner page,
and hides the task once approved (a stranger no longer sees it); axe finds nothing on the way."""

from __future__ import annotations

import copy
import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
CODE = "settings_sentiment"
NAME = "Settings sentiment"
ERR = "... on Error { code message } ... on InputError { fields { field message } }"
CREATE_TASK = f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename ... on TaskCreated {{ task {{ status }} }} {ERR} }} }}"
CREATE_ROUND = f"mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename {ERR} }} }}"
APPROVE = f'mutation($c: String!) {{ approveTask(taskCode: $c, note: "Looks good.") {{ __typename {ERR} }} }}'
LISTED = "{ tasks(first: 100) { edges { node { code } } } }"
TASK = "query($c: String!) { task(code: $c) { code } }"


def _config() -> dict:
    from server.tasks.builtin import BUILTIN_TASKS

    return copy.deepcopy(next(spec["config"] for spec in BUILTIN_TASKS if spec["code"] == "sentiment"))


def _log_in(page, app_url: str, username: str) -> None:
    page.goto(f"{app_url}/#/login")
    form = page.locator("form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()


def _listed(api, token: str) -> list[str]:
    return [edge["node"]["code"] for edge in api(LISTED, token=token)["tasks"]["edges"]]


@pytest.mark.usefixtures("axe_available")
def test_a_new_owner_edits_the_settings_of_their_task(api, admin_token, app_url, launch, profile, tmp_path, target_models):
    owner = api.sign_up("new-owner")
    api.sign_up("co-owner")
    stranger = api.sign_up("stranger")
    created = api(CREATE_TASK, {"i": {"code": CODE, "name": NAME, "config": _config(), "instructions": "Old."}}, token=owner)
    assert created["createTask"]["task"]["status"] == "PROPOSED", created
    # The built-in sentiment model judges the round: only an admin may open a round with a built-in task's model.
    target = {"name": target_models["sentiment"], "version": ""}
    opened = api(CREATE_ROUND, {"i": {"taskCode": CODE, "targetModels": [target]}}, token=admin_token)["createRound"]
    assert opened["__typename"] == "RoundCreated", opened

    page = launch(profile, viewport=PHONE).new_page()
    _log_in(page, app_url, "new-owner")
    page.goto(f"{app_url}/#/owner/{CODE}")
    page.get_by_test_id("settings-link").click()
    expect(page.get_by_role("heading", level=1, name=f"Settings of {NAME}")).to_be_visible()
    expect(page.get_by_test_id("task-status")).to_have_attribute("data-status", "PROPOSED")
    expect(page.get_by_test_id("task-status")).to_contain_text("waiting for an admin's approval")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    assert axe_violations(page) == []

    # Instructions: saved, then shown as workers see them (server-rendered markdown).
    page.get_by_label("Instructions for workers (markdown)").fill("## Be kind\n\nWrite **one** sentence.")
    page.get_by_role("button", name="Save details").click()
    expect(page.get_by_test_id("details-status")).to_have_text("Details saved.")
    rendered = page.get_by_test_id("instructions-rendered")
    expect(rendered.locator("strong")).to_have_text("one")
    expect(rendered.get_by_role("heading", name="Be kind")).to_be_visible()

    # A new input field: the preview shows it, saving makes version 2, the open round keeps version 1.
    page.get_by_role("button", name="Add an input field").click()
    row = page.get_by_test_id("ct-input-1-row")
    row.get_by_label("Field name").fill("why")
    row.get_by_label("Display name").fill("Why it fools the model")
    expect(page.get_by_test_id("task-preview").get_by_label("Why it fools the model")).to_be_visible()
    page.get_by_role("button", name="Save as version 2").click()
    expect(page.get_by_test_id("config-status")).to_have_text("Saved as version 2. The open round 1 keeps version 1.")
    versions = page.get_by_test_id("config-versions")
    expect(versions.locator("tr[data-version='2'] td").last).to_have_text("None yet")
    expect(versions.locator("tr[data-version='1'] td").last).to_have_text("1")
    [stored] = sql(
        "SELECT t.config_version AS task_version, r.config_version AS round_version FROM tasks t "
        "JOIN rounds r ON r.task = t.id WHERE t.code = $1",
        CODE,
    )
    assert (stored["task_version"], stored["round_version"]) == (2, 1)

    # Removing a label the open round uses: refused, the error next to the labels control, which has focus.
    labels = page.get_by_label("Labels (comma-separated)")
    labels.fill("negative, positive")
    page.get_by_role("button", name="Save as version 3").click()
    expect(page.get_by_test_id("config-status")).to_contain_text("Not saved")
    expect(labels).to_be_focused()
    expect(labels).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#ct-labels-error")).to_contain_text("neutral")
    assert sql("SELECT config_version FROM tasks WHERE code = $1", CODE)[0]["config_version"] == 2
    assert axe_violations(page) == []

    # The same change from the JSON editor: refused too, the error (with its config path) on the editor, focused.
    page.get_by_role("button", name="Edit as JSON").click()
    editor = page.get_by_label("Config (JSON)")
    expect(editor).to_have_value(re.compile(r'"name": "why"'))
    page.get_by_role("button", name="Save as version 3").click()
    expect(page.get_by_test_id("config-status")).to_contain_text("Not saved")
    expect(editor).to_be_focused()
    expect(editor).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#st-json-error")).to_contain_text("labels: ")
    expect(editor).to_have_accessible_description(re.compile("neutral"))
    page.get_by_role("button", name="Back to the form").click()
    expect(labels).to_have_value("negative, positive")
    labels.fill("negative, positive, neutral")

    # Owners: the last owner cannot be removed (the button says why); a co-owner is added and reaches the owner page.
    remove_self = page.get_by_role("button", name="Remove new-owner")
    expect(remove_self).to_be_disabled()
    expect(remove_self).to_have_accessible_description(
        "A task always keeps one owner: add another owner before removing this one."
    )
    page.get_by_label("Add an owner (username)").fill("co-owner")
    page.get_by_role("button", name="Add owner").click()
    expect(page.get_by_test_id("st-owners-status")).to_have_text("co-owner is now an owner.")
    expect(page.get_by_test_id("owner-list").locator("li")).to_have_count(2)
    expect(remove_self).to_be_enabled()

    co_page = launch(tmp_path / "co-owner", viewport=PHONE).new_page()
    _log_in(co_page, app_url, "co-owner")
    co_page.goto(f"{app_url}/#/owner/{CODE}")
    expect(co_page.get_by_role("heading", level=1, name=NAME)).to_be_visible()
    expect(co_page.get_by_text("You do not own this task")).to_have_count(0)
    co_page.get_by_test_id("settings-link").click()
    expect(co_page.get_by_test_id("owner-list").locator("li")).to_have_count(2)

    # Hiding: once an admin approved the proposal, the owner hides it (with a confirmation) and strangers lose it.
    assert api(APPROVE, {"c": CODE}, token=admin_token)["approveTask"]["__typename"] == "TaskApproved"
    assert CODE in _listed(api, stranger)
    page.reload()
    expect(page.get_by_test_id("task-status")).to_have_attribute("data-status", "PUBLIC")
    expect(page.get_by_test_id("task-status")).to_contain_text("Looks good.")
    page.get_by_role("button", name="Hide the task").click()
    confirm = page.get_by_role("group", name="Confirm hiding the task")
    expect(confirm).to_contain_text("only its owners and admins reach it")
    expect(confirm.get_by_role("button", name="Yes, hide it")).to_be_focused()
    assert axe_violations(page) == []
    confirm.get_by_role("button", name="Yes, hide it").click()
    expect(page.get_by_test_id("st-visibility-status")).to_have_text("The task is hidden.")
    expect(page.get_by_test_id("task-status")).to_have_attribute("data-status", "HIDDEN")
    assert CODE not in _listed(api, stranger)
    assert api(TASK, {"c": CODE}, token=stranger)["task"] is None
    assert api(TASK, {"c": CODE}, token=owner)["task"] == {"code": CODE}

    # Removing the co-owner goes through a confirmation too.
    page.get_by_role("button", name="Remove co-owner").click()
    page.get_by_role("group", name="Confirm removing co-owner").get_by_role("button", name="Yes, remove co-owner").click()
    expect(page.get_by_test_id("st-owners-status")).to_have_text("co-owner is no longer an owner.")
    expect(page.get_by_test_id("owner-list").locator("li")).to_have_count(1)
    assert axe_violations(page) == []

    # Archiving: the confirmation says the task becomes read-only; edits are then refused with the way back.
    page.get_by_role("button", name="Archive the task").click()
    confirm = page.get_by_role("group", name="Confirm archiving the task")
    expect(confirm).to_contain_text("read-only")
    confirm.get_by_role("button", name="Yes, archive it").click()
    expect(page.get_by_test_id("task-status")).to_have_attribute("data-status", "ARCHIVED")
    expect(page.get_by_role("button", name="Make public again")).to_be_visible()
    page.get_by_role("button", name="Save details").click()
    expect(page.get_by_test_id("details-status")).to_contain_text("archived")
    expect(page.get_by_test_id("details-status")).to_be_focused()
    assert axe_violations(page) == []


def test_an_owner_chooses_that_deleted_accounts_work_is_removed(api, app_url, launch, profile):
    """The config's `personal_data.on_account_deletion` as a checkbox of the form: checked, saved as `remove`;
    unchecked again, the stored config says nothing of it (keep, the default)."""
    created = api(CREATE_TASK, {"i": {"code": CODE, "name": NAME, "config": _config()}}, token=api.sign_up("new-owner"))
    assert created["createTask"]["__typename"] == "TaskCreated", created
    page = launch(profile, viewport=PHONE).new_page()
    _log_in(page, app_url, "new-owner")
    page.goto(f"{app_url}/#/owner/{CODE}/settings")
    removal = page.get_by_role("checkbox", name="Remove a person's work when they delete their account")
    expect(removal).not_to_be_checked()
    expect(removal).to_have_accessible_description(re.compile("stays under a pseudonym"))
    removal.check()
    page.get_by_role("button", name="Save as version 2").click()
    expect(page.get_by_test_id("config-status")).to_have_text("Saved as version 2.")
    stored = sql("SELECT config -> 'personal_data' ->> 'on_account_deletion' AS choice FROM tasks WHERE code = $1", CODE)
    assert stored == [{"choice": "remove"}]
    page.reload()
    expect(removal).to_be_checked()
    removal.uncheck()
    page.get_by_role("button", name="Save as version 3").click()
    expect(page.get_by_test_id("config-status")).to_have_text("Saved as version 3.")
    assert sql("SELECT config ? 'personal_data' AS has FROM tasks WHERE code = $1", CODE) == [{"has": False}]
