"""Issue #19 point 4 and its bugs in the browser (390×844): an example's outcome and retraction appear on My examples
without a reload (myExampleUpdates); the task list follows tasks and rounds live (taskListChanged); after creating a
task and opening its round on the owner page, the annotate page offers the round (no stale task list); and
"Open round" asks before it closes the open round, as "Close round" does."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
from tests.browser.helpers import PASSWORD, seed, sign_up, sql
from tests.browser.test_owner import create_task_in_the_owner_pages, sentiment_config

PHONE = {"width": 390, "height": 844}
LOG_IN = """mutation($u: String!, $p: String!) { logIn(input: {username: $u, password: $p}) {
  __typename ... on AuthPayload { token } } }"""
OWNER_VOTE = """mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT, mode: OWNER) { __typename } }"""
RETRACT = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }"
CREATE_TASK = "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on Error { message } } }"


def test_outcomes_and_retractions_appear_on_my_examples_without_a_reload(
    api, admin_token, app_url, launch, profile, target_models
):
    seed()
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "writer")
    token = api(LOG_IN, {"u": "writer", "p": PASSWORD})["logIn"]["token"]
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    decided = fooling_example(api, token, round_id, context_id, "A thriller so slow it counts as a nap. Loved it.")
    retracted = fooling_example(api, token, round_id, context_id, "Cold fries, warm heart, five stars from me.")

    page.goto(f"{app_url}/#/examples")
    expect(page.locator('section[data-live="live"]')).to_be_visible()
    rows = page.locator(".example-row")
    decided_row = rows.filter(has_text="A thriller so slow")
    retracted_row = rows.filter(has_text="Cold fries")
    expect(decided_row).to_have_attribute("data-status", "open")
    expect(retracted_row).to_have_attribute("data-retracted", "false")

    # The task's owner decides (an owner vote decides at once); the author retracts the other one elsewhere.
    assert api(OWNER_VOTE, {"e": decided["id"]}, token=admin_token)["validateExample"]["__typename"] == "ExampleValidated"
    expect(decided_row).to_have_attribute("data-status", "validated")
    api(RETRACT, {"e": retracted["id"]}, token=token)
    expect(retracted_row).to_have_attribute("data-retracted", "true")
    assert "dir" in (page.locator(".example-text").first.evaluate("e => e.getAttributeNames().join(' ')"))


def test_the_task_list_follows_new_tasks_live(api, admin_token, app_url, launch, profile):
    seed()
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "reader")
    expect(page.get_by_role("link", name="Sentiment analysis", exact=True)).to_be_visible()
    expect(page.locator('section[data-live="live"]')).to_be_visible()  # the feed is on: a change now is pushed
    config = sentiment_config()
    created = api(CREATE_TASK, {"i": {"code": "live_movies", "name": "Live movies", "config": config}}, token=admin_token)
    assert created["createTask"]["__typename"] == "TaskCreated", created
    expect(page.get_by_role("link", name="Live movies", exact=True)).to_be_visible()


def _owner_with_a_round(page, app_url, target_models) -> None:
    sign_up(page, app_url, "new-owner")  # the task list is loaded now (the home page)
    sql("UPDATE users SET is_admin = true WHERE username = 'new-owner'")
    create_task_in_the_owner_pages(page, app_url, "fresh_task", "Fresh task")
    page.get_by_role("checkbox", name=target_models["sentiment"], exact=True).check()
    page.get_by_role("button", name="Open round").click()  # no open round yet: nothing to confirm
    expect(page.get_by_test_id("round-status")).to_have_text("Round 1 is open.")


def test_after_opening_a_round_the_annotate_page_offers_it(api, app_url, launch, profile, target_models):
    page = launch(profile, viewport=PHONE).new_page()
    _owner_with_a_round(page, app_url, target_models)
    page.get_by_label("Contexts, one JSON object per line").fill('{"context": "Write about a film you saw."}')
    page.get_by_role("button", name="Add contexts").click()
    expect(page.get_by_test_id("contexts-status")).to_have_text("1 context added to round 1.")

    # The same session goes to write examples: the round is offered (the task list was not left stale).
    page.goto(f"{app_url}/#/tasks/fresh_task")
    expect(page.locator(".context .context-text").first).to_have_text("Write about a film you saw.")
    expect(page.get_by_text("This task has no open round.")).to_have_count(0)


def test_open_round_asks_before_it_closes_the_open_round(api, app_url, launch, profile, target_models):
    page = launch(profile, viewport=PHONE).new_page()
    _owner_with_a_round(page, app_url, target_models)
    # "Open round" while round 1 is open asks first, like "Close round"; Cancel keeps round 1.
    expect(page.get_by_test_id("round-1-state")).to_have_text("Open")
    page.get_by_role("checkbox", name=target_models["sentiment"], exact=True).check()
    page.get_by_role("button", name="Open round").click()
    confirm = page.get_by_role("group", name="Confirm closing round 1")
    expect(confirm).to_contain_text("Opening round 2 closes round 1")
    assert sql("SELECT count(*) AS n FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'fresh_task'")[0]["n"] == 1
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_have_count(0)
    expect(page.get_by_test_id("round-1-state")).to_have_text("Open")
    page.get_by_role("button", name="Open round").click()
    page.get_by_role("button", name="Yes, close round 1 and open round 2").click()
    expect(page.get_by_test_id("round-status")).to_have_text("Round 2 is open.")
    expect(page.get_by_test_id("round-1-state")).not_to_have_text("Open")
    expect(page.get_by_test_id("round-2-state")).to_have_text("Open")
