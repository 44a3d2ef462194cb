"""A task's instructions (markdown, sanitized by the server) are shown before a worker's first example of the task,
then on demand; nothing in them runs (issue #18 point 1)."""

from playwright.sync_api import expect

from tests.browser.helpers import seed, sign_up, sql

MARKDOWN = (
    "## Be specific\n\nWrite a statement the model gets **wrong**.\n\n"
    '<img src=x onerror="window.__pwned = 1"> [bad](javascript:window.__pwned=2)'
)


def test_instructions_before_the_first_example_and_on_demand(api, app_url, launch, profile):
    seed()
    sql("UPDATE tasks SET instructions = $1 WHERE code = 'sentiment'", MARKDOWN)
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "reader")
    page.goto(f"{app_url}/#/tasks/sentiment")

    panel = page.locator("#task-instructions")
    expect(panel.get_by_role("heading", name="Instructions")).to_be_focused()
    expect(panel.get_by_role("heading", name="Be specific")).to_be_visible()
    expect(panel.locator("strong")).to_have_text("wrong")
    expect(page.get_by_label("Statement")).to_have_count(0)  # the form waits until they are read
    assert panel.locator("img, script, a[href^='javascript']").count() == 0
    assert page.evaluate("window.__pwned") is None

    panel.get_by_role("button", name="Start writing").click()
    expect(panel).to_have_count(0)
    expect(page.get_by_label("Statement")).to_be_focused()

    # Read once: not again on the next visit, but a button opens them.
    page.reload()
    expect(page.get_by_label("Statement")).to_be_visible()
    expect(page.locator("#task-instructions")).to_have_count(0)
    toggle = page.get_by_role("button", name="Instructions")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(page.locator("#task-instructions").get_by_role("heading", name="Be specific")).to_be_visible()
    expect(page.get_by_role("button", name="Hide instructions")).to_have_attribute("aria-expanded", "true")
    page.locator("#task-instructions").get_by_role("button", name="Close").click()
    expect(page.locator("#task-instructions")).to_have_count(0)

    # Changed instructions are shown before the next example again.
    sql("UPDATE tasks SET instructions = '*New rules.*' WHERE code = 'sentiment'")
    page.reload()
    expect(page.locator("#task-instructions em")).to_have_text("New rules.")
    context.close()
