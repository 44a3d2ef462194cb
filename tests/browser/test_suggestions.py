"""Suggestions for the adversary in the PWA (issue #31 point 4): on a 360 px phone an annotator of a sentiment task
whose config offers the generator (the demo generative model, through Triton) and the perturbation search asks for
suggestions on a draft, taps one into the editor, edits it and submits: the verdict says it was written from a
suggestion, edited, and so do "My examples" and the stored example; "Inspire me" shows the generator's candidates; the task owner page
shows the round's numbers with and without suggestions; nothing overflows and axe finds nothing. The chat page's
opening message is asked the same way: accepted, edited, sent, submitted, and the example records it, edited."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.api.conversations_helpers import generative_config, generative_task
from tests.browser.helpers import _in_thread, open_task, seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
DRAFT = "The waiter was lovely and the fish was wonderful."


def _offer_suggestions(generator: str) -> None:
    """The seeded sentiment task's config (and its round's version of it) with a generator and the search."""
    block = {"generator": {"model": generator, "temperature": 0.0, "max_tokens": 48}, "perturbation": True, "query_budget": 32}
    sql("UPDATE tasks SET config = jsonb_set(config, '{suggestions}', $1::jsonb) WHERE code = 'sentiment'", json.dumps(block))
    sql(
        "UPDATE task_config_versions SET config = jsonb_set(config, '{suggestions}', $1::jsonb) "
        "WHERE task = (SELECT id FROM tasks WHERE code = 'sentiment')",
        json.dumps(block),
    )


def test_a_suggestion_is_accepted_edited_and_submitted_on_a_phone(api, app_url, launch, profile, target_models, axe_available):  # noqa: F811
    seed()
    _offer_suggestions(target_models["chat_demo"])
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "inspired-phone")
    open_task(page, app_url, "sentiment")
    panel = page.get_by_test_id("inspire")
    expect(panel.get_by_role("heading", name="Need inspiration?")).to_be_visible()

    # Perturb the draft: candidates with what the model says about each.
    page.get_by_label("Statement").fill(DRAFT)
    panel.get_by_role("button", name="Perturb my draft").click()
    first = panel.get_by_test_id("suggestion-0")
    expect(first).to_be_visible(timeout=60_000)
    expect(first).to_contain_text("The model says:")
    suggested = first.locator(".inspire-text").inner_text()
    assert suggested and suggested != DRAFT
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []

    # One tap puts it into the editor (focused); the author edits it, picks a label and submits.
    first.get_by_role("button", name="Use this (suggestion 1)").click()
    statement = page.get_by_label("Statement")
    expect(statement).to_have_value(suggested)
    expect(statement).to_be_focused()
    expect(panel.get_by_test_id("inspire-status")).to_have_text("In the editor: edit it, choose your label and submit.")
    statement.fill(suggested + " Truly.")
    page.get_by_role("radio", name="Neutral").check()
    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_test_id("verdict-assisted")).to_have_text("Written from a suggestion, edited", timeout=30_000)
    (row,) = sql("SELECT input, assisted_by FROM examples")
    assisted = json.loads(row["assisted_by"])
    assert assisted["kind"] == "perturbation" and assisted["edited"] is True
    assert json.loads(row["input"])["statement"] == suggested + " Truly."
    page.goto(f"{app_url}/#/examples")
    expect(page.get_by_test_id("example-assisted")).to_have_text("Written from a suggestion, edited")
    page.goto(f"{app_url}/#/tasks/sentiment")
    expect(panel.get_by_role("heading", name="Need inspiration?")).to_be_visible()

    # "Inspire me": the generator's candidates (the demo generative model, prompted with the task and context).
    panel.get_by_role("button", name="Inspire me").click()
    expect(panel.get_by_test_id("suggestion-0")).to_be_visible(timeout=60_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # The owner page: the round's numbers, assisted and not.
    sql("UPDATE users SET is_admin = true WHERE username = 'inspired-phone'")
    page.goto(f"{app_url}/#/owner/sentiment")
    card = page.get_by_test_id("owner-assistance")
    expect(card.get_by_role("heading", name="With and without suggestions")).to_be_visible()
    assisted_row = card.get_by_test_id("assisted-row").first
    expect(assisted_row).to_contain_text("Assisted")
    expect(assisted_row.locator("td").first).to_have_text("1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_suggested_opening_message_is_edited_sent_and_recorded(api, app_url, launch, profile, target_models):
    demo = target_models["chat_demo"]
    config = generative_config(max_turns=1)
    config["suggestions"] = {"generator": {"model": demo, "temperature": 0.0, "max_tokens": 32, "count": 2}}
    _in_thread(generative_task, api, "inspirechat", demo, config)
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "chat-inspired")
    page.goto(f"{app_url}/#/tasks/inspirechat")
    panel = page.get_by_test_id("inspire")
    expect(panel.get_by_role("heading", name="Stuck for an opening?")).to_be_visible()
    panel.get_by_role("button", name="Suggest an opening message").click()
    first = panel.get_by_test_id("suggestion-0")
    expect(first).to_be_visible(timeout=60_000)
    suggested = first.locator(".inspire-text").inner_text()
    first.get_by_role("button", name="Use this (suggestion 1)").click()
    composer = page.get_by_label("Your message")
    expect(composer).to_have_value(suggested)
    expect(composer).to_be_focused()
    composer.fill(suggested + " Please answer.")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_test_id("model-reply").last).to_have_attribute("data-status", "DONE", timeout=60_000)
    expect(panel).to_have_count(0)  # only before the first message
    form = page.locator("form.chat-submit")
    form.get_by_role("radio", name="Yes, it failed").check()
    form.get_by_role("button", name="Submit").click()
    expect(page.get_by_test_id("chat-verdict")).to_be_visible(timeout=30_000)
    (row,) = sql("SELECT assisted_by FROM examples")
    assisted = json.loads(row["assisted_by"])
    assert assisted["kind"] == "generator" and assisted["source"] == demo and assisted["edited"] is True
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
