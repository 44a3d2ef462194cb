"""Writing examples (issue #19 point 2 and its bugs): the text stays for edit-and-resubmit and each context keeps its
attempts with their verdicts and actions; Ctrl+Enter submits; the focus lands on the verdict, not <body>; a status
line says what an action did once; My examples shows retracted and flagged examples as such; a sandbox banner;
"Which words mattered" highlights the example's own words."""

import re

import pytest
from playwright.sync_api import Page, expect
from strawberry.relay import to_base64

from tests.browser.helpers import open_task, seed, sign_up, sql, wait_for_js, write_example

FLAG = 'mutation($id: ID!) { flagExample(exampleId: $id, reason: "unclear") { __typename } }'
RETRACT = "mutation($id: ID!) { retractExample(exampleId: $id) { __typename } }"


def submit_and_wait(page: Page) -> None:
    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible(timeout=60_000)


def token_of(page: Page) -> str:
    return page.evaluate("JSON.parse(localStorage.getItem('dynabench.session')).token")


def test_focus_moves_to_the_verdict_heading_after_submit(api, app_url, launch, profile, target_models):
    seed()
    page = launch(profile).new_page()
    sign_up(page, app_url, "focus-ann")
    open_task(page, app_url, "sentiment")
    write_example(page, "Not the worst film of the year.", "Positive")
    page.get_by_role("button", name="Submit").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("heading", name="Model verdict")).to_be_focused()
    assert page.evaluate("document.activeElement !== document.body")


def test_a_status_line_says_what_an_action_did_once(api, app_url, launch, profile, target_models):
    seed()
    page = launch(profile).new_page()
    sign_up(page, app_url, "status-ann")
    open_task(page, app_url, "sentiment")
    write_example(page, "A triumph of tedium.", "Negative")
    submit_and_wait(page)
    verdict = page.locator(".verdict")
    verdict.get_by_text("Flag this example").click()
    verdict.get_by_label("What is wrong with it?").fill("Ambiguous.")
    verdict.get_by_role("button", name="Flag", exact=True).click()
    status = verdict.locator(".example-actions [role=status]")
    expect(status).to_contain_text("Flagged")
    assert status.inner_text().count("Flagged") == 1, status.inner_text()  # was "Flagged. Flagged."
    page.once("dialog", lambda dialog: dialog.accept())
    verdict.get_by_role("button", name="Retract").click()
    expect(status).to_contain_text("Retracted")
    assert status.inner_text().strip() == "Retracted.", status.inner_text()


def test_my_examples_shows_retracted_and_flagged_examples_as_such(api, app_url, launch, profile, target_models):
    seed()
    page = launch(profile).new_page()
    sign_up(page, app_url, "mine-ann")
    open_task(page, app_url, "sentiment")
    for n, text in enumerate(("First try, plain and flat.", "Second try, still flat."), start=1):
        write_example(page, text, "Neutral")
        submit_and_wait(page)
        expect(page.get_by_test_id("attempt")).to_have_count(n, timeout=60_000)
    ids = {row["text"]: row["id"] for row in sql("SELECT id, input->>'statement' AS text FROM examples")}
    token = token_of(page)
    assert (
        api(FLAG, {"id": to_base64("Example", ids["First try, plain and flat."])}, token)["flagExample"]["__typename"]
        == "ExampleChanged"
    )
    assert (
        api(RETRACT, {"id": to_base64("Example", ids["Second try, still flat."])}, token)["retractExample"]["__typename"]
        == "ExampleChanged"
    )

    page.goto(app_url + "/#/examples")
    rows = page.locator(".example-row")
    expect(rows).to_have_count(2)
    expect(page.locator(".example-row .status-tag", has_text=re.compile("^Open$"))).to_have_count(0)
    expect(rows.filter(has_text="First try").locator(".status-tag").first).to_have_text("Flagged")
    expect(rows.filter(has_text="Second try").locator(".status-tag").first).to_have_text("Retracted")


def test_text_stays_and_each_context_keeps_its_attempts(api, app_url, launch, profile, target_models):
    seed()
    page = launch(profile).new_page()
    sign_up(page, app_url, "hist-ann")
    open_task(page, app_url, "sentiment")
    statement = page.get_by_label("Statement")
    text = "I expected to hate it, and I did."
    write_example(page, text, "Negative")
    submit_and_wait(page)
    expect(statement).to_have_value(text)  # kept for an edited variant
    expect(page.get_by_role("radio", name="Negative")).to_be_checked()

    # Edit and resubmit with the keyboard shortcut, from inside the text field.
    statement.fill(text + " Truly.")
    statement.press("Control+Enter")
    attempts = page.get_by_test_id("attempt")
    expect(attempts).to_have_count(2, timeout=60_000)
    expect(attempts.nth(0)).to_contain_text("Truly.")
    expect(attempts.nth(0).locator("[data-verdict]")).to_have_attribute("data-verdict", re.compile("^(FOOLED|NOT_FOOLED)$"))
    expect(attempts.nth(1)).to_contain_text(text)
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2

    # Actions on an older attempt act on that example.
    older = attempts.nth(1)
    older.get_by_text("Add an explanation").click()
    older.get_by_label("Why should the model get this wrong?").fill("Sarcasm.")
    older.get_by_role("button", name="Save explanation").click()
    expect(older.get_by_role("status")).to_have_text("Explanation saved.")
    page.once("dialog", lambda dialog: dialog.accept())
    older.get_by_role("button", name="Retract").click()
    expect(older.get_by_role("status")).to_have_text("Retracted.")
    expect(older.locator('[data-tag="retracted"]')).to_be_visible()
    rows = sql("SELECT input->>'statement' AS text, retracted, explanation FROM examples ORDER BY id")
    assert rows == [
        {"text": text, "retracted": True, "explanation": "Sarcasm."},
        {"text": text + " Truly.", "retracted": False, "explanation": ""},
    ]

    # A reload brings the stored attempts of this context back, with their state.
    page.reload()
    expect(attempts).to_have_count(2)
    expect(page.locator('.attempt [data-tag="retracted"]')).to_have_count(1)
    expect(attempts.filter(has_text="Truly.")).to_have_count(1)

    # A new context starts a new example: empty text, no attempts.
    before = page.locator(".context .context-text").first.inner_text()
    page.get_by_role("button", name="New context").click()
    expect(page.locator(".context .context-text").first).not_to_have_text(before)
    expect(statement).to_have_value("")
    expect(attempts).to_have_count(0)


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_sandbox_banner_stays_in_view_until_sandbox_is_off(api, app_url, launch, profile, target_models, viewport):
    seed()
    page = launch(profile, viewport=viewport).new_page()
    sign_up(page, app_url, "sandbox-ann")
    open_task(page, app_url, "sentiment")
    banner = page.get_by_test_id("sandbox-banner")
    expect(banner).to_have_count(0)
    write_example(page, "So bad it is good.", "Positive")
    page.get_by_role("checkbox", name="Sandbox").check()
    expect(banner).to_contain_text("Sandbox — not saved")
    page.get_by_role("button", name="Try in sandbox").click()
    expect(page.get_by_test_id("verdict-live")).to_contain_text("Sandbox", timeout=60_000)
    page.get_by_role("button", name="Try again").click()
    # Still in sandbox after "Try again", and the banner says so wherever the page is scrolled.
    expect(banner).to_be_visible()
    # However short the page: a tall block at the end of the banner's container (sticky stays within its content).
    banner.evaluate(
        "(b) => { const tall = document.createElement('div'); tall.style.blockSize = '200vh'; b.parentElement.append(tall); }"
    )
    page.mouse.wheel(0, 2000)
    wait_for_js(page, "window.scrollY > 0")
    box, header = banner.bounding_box(), page.locator("header.topbar").bounding_box()
    assert box is not None and header is not None
    assert box["y"] + box["height"] <= viewport["height"]
    # Below the header where the header sticks (desktop), at the top where it scrolled away (phone): never under it.
    assert box["y"] >= max(0, header["y"] + header["height"]) - 1, (box, header)
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0
    banner.get_by_role("button", name="Turn sandbox off").click()
    expect(banner).to_have_count(0)
    expect(page.get_by_role("checkbox", name="Sandbox")).not_to_be_checked()
    expect(page.get_by_role("button", name="Submit")).to_be_visible()


def test_which_words_mattered_highlights_the_examples_words(api, app_url, launch, profile, target_models):
    seed()
    page = launch(profile).new_page()
    sign_up(page, app_url, "why-ann")
    open_task(page, app_url, "sentiment")
    text = "The acting was wonderful but the plot was dreadful."
    write_example(page, text, "Negative")
    submit_and_wait(page)
    attempt = page.get_by_test_id("attempt").first
    attempt.get_by_role("button", name="Which words mattered?").click()
    why = attempt.get_by_test_id("why-words")
    expect(why).to_be_visible(timeout=60_000)
    words = why.locator(".why-word")
    expect(words.first).to_be_visible()
    shown = [w.strip() for w in words.all_inner_texts()]
    assert shown and all(w in text for w in shown) and "wonderful" in shown
    # Not by colour alone: the strongest words are listed with a score each, in their accessible names.
    meters = why.get_by_role("meter")
    expect(meters.first).to_be_visible()
    names = [m.get_attribute("aria-label") for m in meters.all()]
    assert all(re.search(r"[+−]\d+\.\d%", n or "") for n in names), names
    assert all(any(w in (n or "") for w in text.replace(".", "").split()) for n in names), names
