"""Crowd workers with no dead ends (issue #29), on a phone and a desktop, in English and another language: a Prolific
link with a malformed SESSION_ID gives the reason once and what to do next (back to Prolific, contact the
researcher); a worker who joined sees only the campaign (no app sections; another address leads back to it), their
earnings as a bonus is earned, and the total on the completion page. Every page passes axe."""

import pytest
from playwright.sync_api import expect

from tests.api.campaigns_helpers import PROLIFIC_PID, SESSION, STUDY, owner_world
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
from tests.browser.helpers import _in_thread
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("axe_available")

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
VALIDATE = "mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) { __typename } }"

BAD_LINK = {
    "en": ("This link does not work.", "Go to Prolific", "contact the researcher"),
    "fr": ("Ce lien ne fonctionne pas.", "Aller sur Prolific", "écrivez au chercheur"),
}


@pytest.mark.parametrize(("lang", "device"), [("en", PHONE), ("fr", DESKTOP)], ids=["en-phone", "fr-desktop"])
def test_a_malformed_prolific_link_says_why_once_and_what_to_do(api, admin_token, app_url, launch, profile, lang, device):
    campaign = _in_thread(lambda: owner_world(api, admin_token))
    page = launch(profile, locale=lang, **device).new_page()
    page.goto(f"{app_url}/#/join/{campaign['code']}?PROLIFIC_PID={PROLIFIC_PID}&STUDY_ID={STUDY}&SESSION_ID=not-an-id")
    title, back, contact = BAD_LINK[lang]
    expect(page.get_by_role("heading", level=1, name=title)).to_be_visible()
    reason = page.get_by_test_id("join-error")
    expect(reason).to_contain_text("SESSION_ID")
    text = reason.inner_text()
    assert page.locator("main").inner_text().count(text) == 1  # the reason once, not twice
    link = page.get_by_role("link", name=back)
    expect(link).to_have_attribute("href", "https://app.prolific.com/")
    expect(page.get_by_test_id("join-next")).to_contain_text(contact)
    assert axe_violations(page) == []


STUDY_TEXT = {  # the campaign pays £0.50 per validated fooling example and £1.00 on finishing
    "en": {"finish": "Finish", "earned": "£0.50", "total": "You earned £1.50"},
    "es": {"finish": "Terminar", "earned": "0,50", "total": "1,50"},
}


@pytest.mark.parametrize(("lang", "device"), [("en", PHONE), ("es", DESKTOP)], ids=["en-phone", "es-desktop"])
def test_a_worker_sees_only_the_study_and_earnings_as_they_accrue(
    api, admin_token, app_url, launch, profile, target_models, lang, device
):
    campaign = _in_thread(lambda: owner_world(api, admin_token, quiz=None, quotas={}))
    page = launch(profile, locale=lang, **device).new_page()
    join_path = f"/join/{campaign['code']}?PROLIFIC_PID={PROLIFIC_PID}&STUDY_ID={STUDY}&SESSION_ID={SESSION}"
    page.goto(f"{app_url}/#{join_path}")
    page.locator("[data-testid=consent] button.primary").click()
    quota = page.get_by_test_id("quota")
    expect(quota).to_be_visible()

    # Study mode: none of the app's sections, and another address leads back to the campaign.
    for selector in (".topnav", ".tabbar", ".account", ".footer"):
        expect(page.locator(selector)).to_be_hidden()
    page.goto(f"{app_url}/#/examples")
    expect(page).to_have_url(f"{app_url}/#{join_path}")
    expect(quota).to_be_visible()
    # A fresh load at another address (a reload, a new tab) comes back too, before the campaign's code is loaded.
    other = page.context.new_page()
    other.goto(f"{app_url}/#/outbox")
    expect(other).to_have_url(f"{app_url}/#{join_path}")
    expect(other.get_by_test_id("quota")).to_be_visible()
    other.close()
    assert axe_violations(page) == []

    # A fooling example of the worker's is validated by three others: the bonus shows without a reload.
    token = page.evaluate("() => JSON.parse(localStorage.getItem('dynabench.session')).token")
    round_id = _in_thread(lambda: current_round(api, "sentiment"))

    def write_and_validate():
        context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
        example = fooling_example(api, token, round_id, context_id, "A study review, truly something else entirely.")
        for i in range(3):
            voter = api.sign_up(f"study-voter-{lang}-{i}")
            assert api(VALIDATE, {"e": example["id"]}, token=voter)["validateExample"]["__typename"] == "ExampleValidated"

    _in_thread(write_and_validate)
    words = STUDY_TEXT[lang]
    expect(page.get_by_test_id("earned")).to_contain_text(words["earned"], timeout=60_000)

    # Finish: the completion page shows the total earned, base pay included.
    page.get_by_role("button", name=words["finish"]).click()
    expect(page.get_by_test_id("completion-code")).to_be_visible()
    expect(page.get_by_test_id("completion-earned")).to_contain_text(words["total"])
    assert axe_violations(page) == []
