"""A live verdict from the real Triton-served sentiment model: its label and a probability bar per label."""

import json
import re

from playwright.sync_api import expect

from tests.browser.helpers import open_task, seed, sign_up, sql, write_example

LABELS = {"negative", "positive", "neutral"}


def test_live_verdict_from_the_sentiment_model(api, app_url, launch, profile, target_models):
    seed()
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "live-ann")
    open_task(page, app_url, "sentiment")

    # Sandbox first: the model answers, nothing is saved.
    write_example(page, "I expected to hate it, and I did.", "Negative")
    page.get_by_label("Sandbox").check()
    page.get_by_role("button", name="Try in sandbox").click()
    verdict = page.locator(".verdict")
    expect(verdict.get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible(timeout=60_000)
    expect(verdict.get_by_test_id("verdict-live")).to_contain_text("Sandbox")
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0

    page.get_by_label("Sandbox").uncheck()
    page.get_by_role("button", name="Submit").click()
    expect(verdict.get_by_test_id("verdict-live")).not_to_contain_text("Sandbox", timeout=60_000)
    badge = verdict.get_by_test_id("verdict-live").locator("[data-verdict]")  # the attempts below have badges too
    expect(badge).to_have_attribute("data-verdict", re.compile("^(FOOLED|NOT_FOOLED)$"))
    shown_label = verdict.get_by_test_id("model-label").inner_text().strip().lower()
    assert shown_label in LABELS

    bars = verdict.get_by_role("meter")
    expect(bars).to_have_count(3)
    values = [float(bars.nth(i).get_attribute("aria-valuenow")) for i in range(3)]
    assert abs(sum(values) - 100) < 1.0
    assert {row.get_attribute("data-label") for row in verdict.locator(".prob-row").all()} == LABELS

    [row] = sql("SELECT fooled, model_output FROM examples")
    output = json.loads(row["model_output"]) if isinstance(row["model_output"], str) else row["model_output"]
    assert output["label"] == shown_label
    assert badge.get_attribute("data-verdict") == ("FOOLED" if row["fooled"] else "NOT_FOOLED")
    assert row["fooled"] == (output["label"] != "negative")

    # Actions on the stored example: explain, flag, then retract.
    verdict.get_by_text("Add an explanation").click()
    verdict.get_by_label("Why should the model get this wrong?").fill("Sarcasm hides the negative sentiment.")
    verdict.get_by_role("button", name="Save explanation").click()
    expect(verdict).to_contain_text("Explanation saved.")
    verdict.get_by_text("Flag this example").click()
    verdict.get_by_label("What is wrong with it?").fill("Ambiguous sarcasm.")
    verdict.get_by_role("button", name="Flag", exact=True).click()
    expect(verdict).to_contain_text("Flagged.")
    page.once("dialog", lambda dialog: dialog.accept())
    verdict.get_by_role("button", name="Retract").click()
    expect(verdict).to_contain_text("Retracted.")
    [row] = sql("SELECT retracted, flagged, flag_reason, explanation FROM examples")
    assert row == {
        "retracted": True,
        "flagged": True,
        "flag_reason": "Ambiguous sarcasm.",
        "explanation": "Sarcasm hides the negative sentiment.",
    }

    page.get_by_role("link", name="My examples").click()
    expect(page.locator(".example-row")).to_have_count(1)
    expect(page.locator(".example-row")).to_contain_text("Retracted")
