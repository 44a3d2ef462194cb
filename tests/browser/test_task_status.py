"""The task list tells an owner what state their task is in (a proposal awaiting approval, rejected with the admin's
note, archived), and strangers do not see proposals at all (issue #18 point 1)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, seed, sign_up, sql
from tests.browser.test_inbox import LOG_IN, _config

CREATE = "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }"


def test_owners_see_their_tasks_state_and_strangers_do_not_see_proposals(api, app_url, launch, profile):
    seed()
    admin = api.sign_up("status-admin")
    sql("UPDATE users SET is_admin = true WHERE username = 'status-admin'")
    page = launch(profile).new_page()
    sign_up(page, app_url, "proposer")
    owner = api(LOG_IN, {"u": "proposer", "p": PASSWORD})["logIn"]["token"]
    created = api(CREATE, {"i": {"code": "movies", "name": "Movie sentiment", "config": _config()}}, token=owner)
    assert created["createTask"]["__typename"] == "TaskCreated", created

    page.reload()
    card = page.locator("[data-task=movies]")
    expect(card.locator(".badge")).to_have_text("Proposal")
    expect(card).to_contain_text("Awaiting an admin's approval")
    expect(page.locator("[data-task=sentiment] .badge")).to_have_count(0)  # public tasks carry no badge

    api('mutation { rejectTask(taskCode: "movies", note: "Add instructions, please.") { __typename } }', token=admin)
    page.reload()
    expect(card.locator(".badge")).to_have_text("Rejected")
    expect(card).to_contain_text("Add instructions, please.")

    stranger = launch(profile.parent / "stranger").new_page()
    sign_up(stranger, app_url, "stranger")
    expect(stranger.locator("[data-task=sentiment]")).to_be_visible()
    expect(stranger.locator("[data-task=movies]")).to_have_count(0)
