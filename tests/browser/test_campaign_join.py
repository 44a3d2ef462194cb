"""Crowd campaigns in the PWA on a phone: a Prolific-style link walked from join to the completion code (consent,
a failed then a passed quiz, an example with the quota visible, another drafted offline across a reload and synced
on reconnecting, Finish), an MTurk preview link that shows the
campaign and creates nothing, and an owner creating a campaign and exporting its payouts. Every page passes axe."""

import re

import pytest
from playwright.sync_api import expect

from tests.api.campaigns_helpers import PROLIFIC_PID, SESSION, STUDY, owner_world
from tests.browser.helpers import _in_thread, pending_count, seed, sign_up, sql, wait_for_service_worker, write_example
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("axe_available")

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def answer_quiz(page, answers: list[str]) -> None:
    questions = page.get_by_test_id("quiz").locator("fieldset")
    for i, answer in enumerate(answers):
        questions.nth(i).get_by_role("radio", name=answer).check()
    page.get_by_role("button", name="Send my answers").click()


def test_prolific_link_from_join_to_completion_code_on_a_phone(api, admin_token, app_url, launch, profile, target_models):
    campaign = _in_thread(lambda: owner_world(api, admin_token, quotas={"examplesPerCampaign": 3, "examplesPerDay": 5}))
    context = launch(profile, **PHONE)
    page = context.new_page()
    page.goto(f"{app_url}/#/join/{campaign['code']}?PROLIFIC_PID={PROLIFIC_PID}&STUDY_ID={STUDY}&SESSION_ID={SESSION}&utm_x=1")

    # Consent: the owner's markdown, sanitized by the server (no script survives).
    expect(page.get_by_role("heading", level=1, name="Consent")).to_be_visible()
    consent = page.locator("#consent-text")
    expect(consent.get_by_role("heading", name="Consent")).to_be_visible()
    expect(consent.locator("strong")).to_have_text("examples")
    assert consent.locator("script").count() == 0
    assert axe_violations(page) == []
    page.get_by_role("button", name="I agree, continue").click()

    # The quiz: one failed attempt (the score, never the answers), then a pass.
    expect(page.get_by_role("heading", level=1, name="A short quiz")).to_be_visible()
    expect(page.get_by_test_id("attempts-left")).to_have_text("2 attempts left.")
    assert axe_violations(page) == []
    answer_quiz(page, ["positive", "positive"])
    expect(page.get_by_test_id("quiz-result")).to_contain_text("You got 1 of 2 right. 1 attempt left")
    expect(page.get_by_test_id("attempts-left")).to_have_text("1 attempt left.")
    answer_quiz(page, ["positive", "negative"])

    # The task, with the quota visible above it.
    quota = page.get_by_test_id("quota")
    expect(quota).to_contain_text("5 examples left today")
    expect(quota).to_contain_text("3 examples left in this campaign")
    expect(page.locator(".context .context-text").first).to_be_visible()
    write_example(page, "The plot was a masterpiece of tedium, and I loved every minute.", "Negative")
    page.get_by_role("button", name="Submit").click()
    expect(page.locator(".verdict").get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible(timeout=60_000)
    expect(quota).to_contain_text("2 examples left in this campaign", timeout=30_000)
    assert axe_violations(page) == []

    # Offline: the example waits in the outbox, the campaign page reopens from the cached shell, then it syncs.
    wait_for_service_worker(page)
    context.set_offline(True)
    write_example(page, "Not bad at all, if you enjoy being bored to tears.", "Negative")
    page.get_by_role("button", name="Submit").click()
    expect(pending_count(page)).to_have_text("1")
    page.reload()
    expect(quota).to_contain_text("2 examples left in this campaign")
    expect(pending_count(page)).to_have_text("1")
    expect(page.get_by_role("button", name="Finish")).to_be_disabled()
    context.set_offline(False)
    expect(pending_count(page)).to_have_text("0", timeout=60_000)
    expect(quota).to_contain_text("1 example left in this campaign", timeout=30_000)

    # Finish: the completion code and the way back to Prolific.
    page.get_by_role("button", name="Finish").click()
    expect(page.get_by_role("heading", level=1, name="Thank you!")).to_be_visible()
    expect(page.get_by_test_id("completion-code")).to_have_text("C1ABCDEF")
    link = page.get_by_role("link", name="Return to Prolific")
    expect(link).to_have_attribute("href", "https://app.prolific.com/submissions/complete?cc=C1ABCDEF")
    assert axe_violations(page) == []

    # One pseudonymous account, one example, the worker's external id nowhere in clear.
    [worker] = sql("SELECT count(*) AS n FROM campaign_workers")
    assert worker["n"] == 1
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2
    assert PROLIFIC_PID not in page.content()

    # A reload (the same link) resumes the same account and shows the code again.
    page.reload()
    expect(page.get_by_test_id("completion-code")).to_have_text("C1ABCDEF")
    assert sql("SELECT count(*) AS n FROM campaign_workers")[0]["n"] == 1


def test_mturk_preview_shows_the_campaign_and_creates_nothing(api, admin_token, app_url, launch, profile):
    campaign = _in_thread(lambda: owner_world(api, admin_token, platform="MTURK"))
    page = launch(profile, **PHONE).new_page()
    page.goto(f"{app_url}/#/join/{campaign['code']}?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=3XYZHIT")

    preview = page.get_by_test_id("campaign-preview")
    expect(preview).to_contain_text("Accept the HIT to start.")
    expect(page.get_by_role("heading", level=1, name="Fool the sentiment model")).to_be_visible()
    expect(preview).to_contain_text("Write reviews the model gets wrong.")
    assert sql("SELECT count(*) AS n FROM campaign_workers")[0]["n"] == 0
    assert page.evaluate("localStorage.getItem('dynabench.session')") is None
    assert axe_violations(page) == []


def test_owner_creates_a_campaign_and_exports_its_payouts(api, app_url, launch, profile):
    seed()
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "camp-owner")
    sql("UPDATE users SET is_admin = true WHERE username = 'camp-owner'")
    page.goto(app_url + "/#/owner/sentiment")
    page.get_by_role("link", name=re.compile("Crowd campaigns")).click()
    expect(page.get_by_role("heading", level=1, name=re.compile("^Campaigns of"))).to_be_visible()
    expect(page.get_by_text("No campaign yet.")).to_be_visible()
    expect(page.get_by_test_id("quality")).to_contain_text("0 submissions refused as near-duplicates.")
    assert axe_violations(page) == []

    # Checked in the browser first, with the server's messages; nothing is sent.
    form = page.get_by_test_id("campaign-form")
    form.get_by_label("Status").select_option("OPEN")
    form.get_by_role("button", name="Create the campaign").click()
    expect(form.get_by_test_id("campaign-form-status")).to_contain_text("fields need fixing")
    expect(form.get_by_text("an open campaign needs a consent text").first).to_be_visible()
    expect(form.get_by_label("Title", exact=True)).to_be_focused()
    assert sql("SELECT count(*) AS n FROM campaigns")[0]["n"] == 0
    assert axe_violations(page) == []

    form.get_by_label("Title", exact=True).fill("Phone pilot")
    form.get_by_label("Consent text").fill("You agree that your examples are **published**.")
    form.get_by_role("button", name="Add a question").click()
    form.get_by_label("Question", exact=True).fill("'A delight.' is…")
    form.get_by_label("Choices").fill("positive\nnegative")
    form.get_by_label("Right answer", exact=True).fill("positive")
    form.get_by_label("Right answers needed to pass").fill("1")
    form.get_by_label("Examples per worker in the campaign").fill("3")
    form.get_by_label("Completion code").fill("PHONE123")
    form.get_by_label("Screened-out code").fill("PHONEOUT")
    form.get_by_role("button", name="Create the campaign").click()

    expect(page.get_by_role("heading", level=1, name="Phone pilot")).to_be_visible()
    expect(page.get_by_test_id("join-link")).to_contain_text("/#/join/")
    expect(page.get_by_test_id("ledger")).to_contain_text("£0.00")
    [row] = sql("SELECT title, status, quotas FROM campaigns")
    assert row["title"] == "Phone pilot" and row["status"] == "open"
    assert axe_violations(page) == []

    page.get_by_role("button", name="Prolific bulk-bonus CSV").click()
    expect(page.get_by_test_id("payout-download")).to_be_visible()
    expect(page.get_by_text(re.compile("for 0 workers"))).to_be_visible()
