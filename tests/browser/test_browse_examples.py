"""Task owners browse a round on a phone (issue #18): full-text search, bulk actions with per-example outcomes,
one example's details with its history, and the task's flag queue."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.api.examples_helpers import NEXT_CONTEXT, submit
from tests.browser.helpers import seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
ROUND = 'query { task(code: "sentiment") { currentRound { id number } } }'
FLAG = "mutation($e: ID!, $r: String!) { flagExample(exampleId: $e, reason: $r) { __typename } }"
SOUP = "The soup was cold and bland."
PIANO = "A brilliant pianist and a quiet room."
PIZZA = "Parking was easy, the pizza was cardboard."


def _card(page, text):
    return page.get_by_test_id("browse-card").filter(has_text=text)


def _act(page, action, note=""):
    bar = page.get_by_test_id("bulk-bar")
    bar.get_by_label("Action").select_option(label=action)
    bar.get_by_label("Note (optional)").fill(note)
    bar.get_by_role("button", name="Apply").click()
    bar.get_by_role("button", name="Yes, do it").click()


@pytest.mark.usefixtures("axe_available")
def test_owner_searches_acts_in_bulk_and_reads_the_history(api, app_url, launch, profile, target_models):
    seed()
    author = api.sign_up("browse-author")
    current = api(ROUND)["task"]["currentRound"]
    context_id = api(NEXT_CONTEXT, {"r": current["id"]}, token=author)["nextContext"]["id"]
    ids = {}
    for text in (SOUP, PIANO, PIZZA):
        written = submit(api, author, current["id"], context_id, {"statement": text}, label="negative")
        assert written["__typename"] == "ExampleSubmitted", written
        ids[text] = written["example"]["id"]
    assert (
        api(FLAG, {"e": ids[PIZZA], "r": "I typed the wrong label"}, token=author)["flagExample"]["__typename"]
        == "ExampleChanged"
    )

    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "browse-owner")
    sql(
        'INSERT INTO task_owners (task, "user") SELECT t.id, u.id FROM tasks t, users u '
        "WHERE t.code = 'sentiment' AND u.username = 'browse-owner'"
    )

    # From the owner page, the round's "Browse examples" link: every example, newest first.
    page.goto(app_url + "/#/owner/sentiment")
    expect(page.get_by_test_id("flag-queue-link")).to_be_visible()
    page.get_by_role("link", name=f"Browse examples of round {current['number']}").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"round {current['number']}")
    expect(page.get_by_test_id("browse-card")).to_have_count(3)
    expect(page.get_by_test_id("browse-card").first).to_contain_text(PIZZA)
    expect(_card(page, PIZZA)).to_contain_text("Flag: I typed the wrong label")
    assert axe_violations(page) == []

    # A word finds only its example; clearing the filters brings the others back.
    page.get_by_label("Search the text").fill("pianist")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.get_by_test_id("browse-card")).to_have_count(1)
    expect(page.get_by_test_id("browse-card")).to_contain_text(PIANO)
    expect(page.get_by_test_id("browse-count")).to_have_text("1 example shown.")
    page.get_by_role("button", name="Clear the filters").click()
    expect(page.get_by_test_id("browse-card")).to_have_count(3)

    # Two examples selected, "resolve the flag" with a note: done for the flagged one, refused for the other.
    page.get_by_label(f"Select “{PIZZA}”").check()
    page.get_by_label(f"Select “{SOUP}”").check()
    expect(page.get_by_test_id("selected-count")).to_have_text("2 examples selected")
    _act(page, "Resolve the flag", note="label fixed")
    status = page.get_by_test_id("bulk-status")
    expect(status).to_contain_text("Resolve the flag: 1 done, 1 not done.")
    expect(status).to_contain_text(f"“{SOUP}”:")
    expect(_card(page, PIZZA).get_by_test_id("browse-outcome")).to_contain_text("Done")
    expect(_card(page, PIZZA)).not_to_contain_text("Flag: I typed")
    expect(_card(page, SOUP).get_by_test_id("browse-outcome")).to_contain_text("Not done")
    expect(page.get_by_test_id("selected-count")).to_have_text("0 examples selected")

    # Retract one example: its card says so, and the database agrees.
    page.get_by_label(f"Select “{SOUP}”").check()
    _act(page, "Retract", note="abusive")
    expect(status).to_have_text("Retract: 1 done.")
    expect(_card(page, SOUP)).to_contain_text("Retracted")
    [row] = sql("SELECT retracted, flagged FROM examples WHERE input->>'statement' = $1", SOUP)
    assert row == {"retracted": True, "flagged": False}
    assert sql("SELECT flagged FROM examples WHERE input->>'statement' = $1", PIZZA) == [{"flagged": False}]

    # One example's details: its history names the owner and the note; the dialog is accessible.
    page.get_by_role("button", name=f"Details of “{PIZZA}”").click()
    dialog = page.get_by_role("dialog", name="Example details")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("review-history")).to_contain_text("Flag resolved by browse-owner")
    expect(dialog.get_by_test_id("review-history")).to_contain_text("label fixed")
    expect(dialog).to_contain_text("Not a gold item.")
    assert axe_violations(page) == []
    dialog.get_by_role("button", name="Close").click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.get_by_role("button", name=f"Details of “{PIZZA}”")).to_be_focused()

    # The task's flag queue lists what is still flagged, with the same cards.
    assert api(FLAG, {"e": ids[PIANO], "r": "wrong label"}, token=author)["flagExample"]["__typename"] == "ExampleChanged"
    page.goto(app_url + "/#/owner/sentiment/flags")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Flag queue")
    expect(page.get_by_test_id("browse-card")).to_have_count(1)
    expect(page.get_by_test_id("browse-card")).to_contain_text(PIANO)
    assert axe_violations(page) == []


def test_owner_flags_one_example_from_its_card_and_the_lists_follow_in_french(api, app_url, launch, profile, target_models):
    """Desktop, French (issue #29): "Flag" on one card, with its own confirmation, updates that card from the answer;
    and the example waits in the task's flag queue for another owner's decision."""
    seed()
    author = api.sign_up("card-author")
    current = api(ROUND)["task"]["currentRound"]
    context_id = api(NEXT_CONTEXT, {"r": current["id"]}, token=author)["nextContext"]["id"]
    for text in (SOUP, PIANO):
        assert (
            submit(api, author, current["id"], context_id, {"statement": text}, label="negative")["__typename"]
            == "ExampleSubmitted"
        )

    page = launch(profile).new_page()
    sign_up(page, app_url, "card-owner")
    sql(
        'INSERT INTO task_owners (task, "user") SELECT t.id, u.id FROM tasks t, users u '
        "WHERE t.code = 'sentiment' AND u.username = 'card-owner'"
    )
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("Language").select_option("fr")
    page.goto(f"{app_url}/#/owner/sentiment/browse?round={current['id']}")
    expect(page.get_by_test_id("browse-card")).to_have_count(2)

    page.get_by_role("button", name=f"Signaler « {SOUP} »").click()
    confirm = page.get_by_test_id("flag-confirm")
    expect(confirm).to_contain_text("pour l’examen des propriétaires ?")
    confirm.get_by_role("button", name="Oui, le signaler").click()
    expect(_card(page, SOUP)).to_contain_text("Signalé")
    expect(page.get_by_role("button", name=f"Signaler « {SOUP} »")).to_have_count(0)  # flagged: no second flag
    expect(page.get_by_role("button", name=f"Signaler « {PIANO} »")).to_be_visible()

    page.goto(f"{app_url}/#/owner/sentiment/flags")  # the owner's flag sends it to the task's flag queue
    expect(page.get_by_test_id("browse-card")).to_have_count(1)
    expect(_card(page, SOUP)).to_contain_text("Signalé")
