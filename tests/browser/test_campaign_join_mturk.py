"""Crowd campaigns in the PWA on a phone, the MTurk way (issue #17, "How it will be checked"): the HIT's preview
link shows the campaign and creates nothing; the accepted link (workerId, assignmentId, hitId, turkSubmitTo) goes
through consent, the quiz and the task to Finish, whose completion view shows the code and MTurk's external-submit
form (POST to <turkSubmitTo>/mturk/externalSubmit with the assignment id and the code). The form is checked in the
DOM, never submitted: nothing leaves 127.0.0.1. Every page passes axe."""

import pytest
from playwright.sync_api import expect

from tests.api.campaigns_helpers import owner_world
from tests.browser.helpers import _in_thread, sql, write_example
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)
from tests.browser.test_campaign_join import PHONE, answer_quiz

pytestmark = pytest.mark.usefixtures("axe_available")

WORKER, ASSIGNMENT, HIT = "A1MTURKWORKER7Q", "3ASSIGNMENT9ZX2K", "3HITTYPE8YW1V"
SANDBOX = "https://workersandbox.mturk.com"


def _crowd_rows() -> dict[str, int]:
    return {
        "workers": sql("SELECT count(*) AS n FROM campaign_workers")[0]["n"],
        "accounts": sql("SELECT count(*) AS n FROM users WHERE username LIKE 'crowd-%'")[0]["n"],
    }


def test_mturk_hit_from_preview_to_external_submit_on_a_phone(api, admin_token, app_url, launch, profile, target_models):
    campaign = _in_thread(
        lambda: owner_world(api, admin_token, platform="MTURK", completionCode="MTURK42", quotas={"examplesPerCampaign": 3})
    )
    context = launch(profile, **PHONE)

    # The HIT's preview: MTurk shows the page before the worker accepts it. Nothing is created.
    preview = context.new_page()
    preview.goto(f"{app_url}/#/join/{campaign['code']}?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId={HIT}")
    expect(preview.get_by_role("heading", level=1, name="Fool the sentiment model")).to_be_visible()
    expect(preview.get_by_test_id("campaign-preview")).to_contain_text("Accept the HIT to start.")
    assert axe_violations(preview) == []
    assert _crowd_rows() == {"workers": 0, "accounts": 0}
    assert preview.evaluate("localStorage.getItem('dynabench.session')") is None
    preview.close()

    # Accepted: MTurk loads the page again, with the worker's and the assignment's ids.
    page = context.new_page()
    accepted = f"assignmentId={ASSIGNMENT}&hitId={HIT}&workerId={WORKER}&turkSubmitTo={SANDBOX}"
    page.goto(f"{app_url}/#/join/{campaign['code']}?{accepted}")
    expect(page.get_by_role("heading", level=1, name="Consent")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_role("button", name="I agree, continue").click()

    expect(page.get_by_role("heading", level=1, name="A short quiz")).to_be_visible()
    answer_quiz(page, ["positive", "negative"])

    quota = page.get_by_test_id("quota")
    expect(quota).to_contain_text("3 examples left in this campaign")
    write_example(page, "A film so gripping that I checked my watch only twice an hour.", "Negative")
    page.get_by_role("button", name="Submit").click()
    expect(page.locator(".verdict").get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible(timeout=60_000)
    expect(quota).to_contain_text("2 examples left in this campaign", timeout=30_000)
    assert axe_violations(page) == []

    # Finish: the code, and MTurk's external-submit form (checked, not sent: no request leaves 127.0.0.1).
    page.get_by_role("button", name="Finish").click()
    expect(page.get_by_role("heading", level=1, name="Thank you!")).to_be_visible()
    expect(page.get_by_test_id("completion-code")).to_have_text("MTURK42")
    form = page.get_by_test_id("completion-form")
    expect(form).to_have_attribute("action", f"{SANDBOX}/mturk/externalSubmit")
    expect(form).to_have_attribute("method", "post")
    fields = form.locator("input[type=hidden]")
    assert {fields.nth(i).get_attribute("name"): fields.nth(i).get_attribute("value") for i in range(fields.count())} == {
        "assignmentId": ASSIGNMENT,
        "completionCode": "MTURK42",
    }
    expect(form.get_by_role("button", name="Submit the HIT")).to_be_enabled()
    assert page.get_by_role("link", name="Return to Prolific").count() == 0
    assert axe_violations(page) == []

    # One pseudonymous account bound to the worker, one example; the worker id appears nowhere in clear.
    assert _crowd_rows() == {"workers": 1, "accounts": 1}
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 1
    assert WORKER not in page.content()
    stored = sql("SELECT row_to_json(w)::text AS row FROM campaign_workers w")[0]["row"]
    assert WORKER not in stored

    # The same link again (MTurk reloads the frame) resumes the account and shows the same form.
    page.reload()
    expect(page.get_by_test_id("completion-code")).to_have_text("MTURK42")
    expect(page.get_by_test_id("completion-form")).to_have_attribute("action", f"{SANDBOX}/mturk/externalSubmit")
    assert _crowd_rows() == {"workers": 1, "accounts": 1}
