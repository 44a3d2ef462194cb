"""fooling `ask_user` in the PWA: after the model's answer the annotator is asked "Did the model get it wrong?";
the answer is stored as the example's claim (then validators check it: tests/api/test_ask_user.py)."""

from playwright.sync_api import expect

from tests.api.test_ask_user import PASSAGE, _ask_user_task
from tests.authz.world import load_qa_target
from tests.browser.helpers import _in_thread, sign_up, sql
from tests.browser.test_qa_span import SELECT_SPAN


def test_the_annotator_says_whether_the_model_got_it_wrong(api, app_url, launch, profile, stack, request):
    _in_thread(load_qa_target, stack, request)
    _owner, _round_id = _in_thread(_ask_user_task, api)
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "claim-ann")
    page.goto(app_url + "/#/tasks/freeqa")
    expect(page.locator(".passage")).to_have_text(PASSAGE)
    start = PASSAGE.index("Paris")
    page.evaluate(SELECT_SPAN, [start, start + len("Paris")])
    expect(page.get_by_label("Answer")).to_have_value("Paris")
    page.get_by_label("Question").fill("Which city did Marie Curie leave for in 1891?")
    page.get_by_role("button", name="Submit").click()

    # The model's answer is shown, then the question; nothing is decided until the annotator answers.
    verdict = page.locator(".verdict")
    expect(verdict.get_by_test_id("model-label")).not_to_have_text("—", timeout=60_000)
    claim = page.get_by_test_id("claim-question")
    expect(claim.get_by_text("Did the model get it wrong?")).to_be_visible()
    [row] = sql("SELECT status, fooled, claim_client_id FROM examples")
    assert row["status"] == "awaiting_claim" and row["fooled"] is None and row["claim_client_id"] is None

    claim.get_by_role("button", name="Yes, it got it wrong").click()
    expect(claim).to_be_hidden(timeout=60_000)
    expect(verdict.get_by_test_id("verdict-live").locator("[data-verdict]")).to_have_attribute("data-verdict", "FOOLED")
    [row] = sql("SELECT status, fooled, claim_client_id FROM examples")
    assert row["status"] == "open" and row["fooled"] is True and row["claim_client_id"] is not None
