"""axe-core (pwa/node_modules, a dev dependency of the PWA) finds no WCAG 2 A/AA violation on the main pages,
on a phone and on a desktop; the main controls work with the keyboard alone."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_task, pending_count, seed, sign_up, wait_for_service_worker, write_example

AXE = Path(__file__).resolve().parents[2] / "pwa" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page) -> list[str]:
    # Evaluated rather than added as a <script>: the PWA's Content-Security-Policy refuses inline scripts.
    page.evaluate(AXE.read_text() + "\n;true")
    result = page.evaluate("""async () => {
      const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
      return r.violations.map(v => `${v.id}: ${v.help} (${v.nodes.map(n => n.target.join(' ')).join(', ')})`);
    }""")
    return result


@pytest.fixture
def axe_available():
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `cd pwa && npm install`.")


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_pages_have_no_axe_violations(api, app_url, launch, profile, axe_available, viewport):
    seed()
    context = launch(profile, viewport=viewport)
    page = context.new_page()
    page.goto(app_url + "/#/login")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert axe_violations(page) == []
    sign_up(page, app_url, "a11y-ann")
    assert axe_violations(page) == []
    open_task(page, app_url, "sentiment")
    assert axe_violations(page) == []
    # A queued example (offline) and the outbox / my examples pages: offline once the service worker holds the app.
    wait_for_service_worker(page)
    context.set_offline(True)
    write_example(page, "Queued while offline.", "Neutral")
    page.get_by_role("button", name="Submit").click()
    expect(pending_count(page)).to_have_text("1")
    assert axe_violations(page) == []
    page.goto(app_url + "/#/outbox")
    expect(page.get_by_role("heading", level=1, name="Outbox")).to_be_visible()
    assert axe_violations(page) == []
    page.goto("about:blank")
    context.set_offline(False)
    page.goto(app_url + "/#/examples")
    expect(page.get_by_role("heading", level=1, name="My examples")).to_be_visible()
    expect(page.locator(".example-row")).to_have_count(1, timeout=30_000)
    assert axe_violations(page) == []


def test_annotating_works_with_the_keyboard_alone(api, app_url, launch, profile):
    seed()
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "keys-ann")
    open_task(page, app_url, "sentiment")
    context.set_offline(True)  # the submission is queued; no model needed for this check
    expect(page.locator(".sync-status")).to_contain_text("Offline")
    page.get_by_label("Statement").focus()
    page.keyboard.type("Typed with keys only.")
    page.keyboard.press("Tab")  # to the first label choice
    page.keyboard.press("ArrowRight")  # radio group: next label
    expect(page.get_by_role("radio", name="Positive")).to_be_checked()
    focused_outline = page.evaluate("getComputedStyle(document.activeElement.closest('label')).outlineStyle")
    assert focused_outline != "none"  # focus is visible on the label choice
    page.keyboard.press("Tab")  # sandbox checkbox
    page.keyboard.press("Tab")  # submit
    expect(page.get_by_role("button", name="Submit")).to_be_focused()
    page.keyboard.press("Enter")
    expect(pending_count(page)).to_have_text("1")
    page.goto("about:blank")


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_validator_researcher_and_owner_pages_have_no_axe_violations(
    api, app_url, launch, profile, axe_available, viewport, target_models
):
    from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
    from tests.browser.test_leaderboard import _scored_models

    _scored_models(api)
    author = api.sign_up("a11y-author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    fooling_example(api, author, round_id, context_id, "Accessible, if a little too long.")
    context = launch(profile, viewport=viewport)
    page = context.new_page()
    sign_up(page, app_url, "a11y-validator")
    page.goto(app_url + "/#/validate/sentiment")
    expect(page.locator(".queue-example")).to_be_visible()
    assert axe_violations(page) == []
    page.goto(app_url + "/#/leaderboard/sentiment")
    expect(page.locator('[data-testid="leaderboard-table"] tbody tr')).to_have_count(3)
    assert axe_violations(page) == []
    page.goto(app_url + "/#/models")
    expect(page.get_by_role("heading", level=1, name="Models")).to_be_visible()
    expect(page.get_by_role("button", name="Upload")).to_be_enabled()
    assert axe_violations(page) == []
    page.goto(app_url + "/#/owner")
    expect(page.get_by_role("heading", level=1, name="Your tasks")).to_be_visible()
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no horizontal scroll


def test_owner_sees_owner_mode_and_the_round_chart(api, app_url, launch, profile, target_models):
    """An admin owns every task: owner mode shows on the validate page, and an owner vote decides at once."""
    from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
    from tests.browser.helpers import sql

    seed()
    author = api.sign_up("owner-author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    example = fooling_example(api, author, round_id, context_id, "Owners decide this one.")
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "task-owner")
    sql("UPDATE users SET is_admin = true WHERE username = 'task-owner'")
    page.goto(app_url + "/#/validate/sentiment")
    expect(page.locator(f'.queue-example[data-example-id="{example["id"]}"]')).to_be_visible()
    owner_mode = page.get_by_label("Owner mode")
    owner_mode.check()
    page.keyboard.press("2")  # keys still vote while the checkbox has focus
    expect(page.get_by_test_id("vote-notice")).to_contain_text("is stored")
    assert sql("SELECT label, mode FROM validations") == [{"label": "incorrect", "mode": "owner"}]

    page.goto(app_url + "/#/owner/sentiment")
    expect(page.get_by_role("heading", level=1, name="Sentiment analysis")).to_be_visible()
    chart = page.get_by_test_id("mer-chart")
    expect(chart.locator('[data-series="mer"][data-round="1"]')).to_have_count(1)
    expect(chart.locator("desc")).to_contain_text("round 1: MER 100.0%")
    expect(page.locator("table tbody tr").first).to_contain_text("100.0%")
