"""A draft is saved on every keystroke and survives closing and relaunching the browser (same profile)."""

from playwright.sync_api import expect

from tests.browser.helpers import open_task, read_store, seed, sign_up, wait_for_js, write_example


def test_draft_survives_a_browser_restart(api, app_url, launch, profile):
    seed()
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "drafty")
    open_task(page, app_url, "sentiment")
    context_text = page.locator(".context .context-text").first.inner_text()
    text = "The plot was thin, yet I could not stop smiling."
    write_example(page, text, "Positive")
    # Every keystroke is written to IndexedDB; wait until the last one landed.
    wait_for_js(
        page,
        """async (text) => {
          const rows = await new Promise((resolve) => {
            const open = indexedDB.open("dynabench");
            open.onsuccess = () => {
              const request = open.result.transaction("drafts").objectStore("drafts").getAll();
              request.onsuccess = () => { open.result.close(); resolve(request.result); };
            };
          });
          return rows.some((d) => d.fields.statement === text && d.label === "positive");
        }""",
        text,
    )
    context.close()

    again = launch(profile)
    page = again.new_page()
    page.goto(app_url + "/#/tasks/sentiment")
    expect(page.get_by_label("Statement")).to_have_value(text)
    expect(page.get_by_role("radio", name="Positive")).to_be_checked()
    expect(page.locator(".context .context-text").first).to_have_text(context_text)
    drafts = read_store(page, "drafts")
    assert [d["fields"]["statement"] for d in drafts] == [text]
