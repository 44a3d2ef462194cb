"""Touch targets ≥ 24×24 px (WCAG 2.2 AA 2.5.8) on the main pages at 390×844: every visible link, button and
disclosure summary, except inline links in running text (the criterion exempts them)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, seed, sign_up, sql

PHONE = {"width": 390, "height": 844}

# Elements smaller than 24×24 px, as "tag.class 'text' W×H". A link is exempt when it is laid out inline and the
# block around it has other words (running text); breadcrumbs and lone links are not.
SMALL_TARGETS = r"""() => {
  const textOf = (node, skip) => {
    if (node === skip) return "";
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || node.getAttribute("aria-hidden") === "true") return "";
    return Array.from(node.childNodes).map((child) => textOf(child, skip)).join("");
  };
  const inRunningText = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    let block = el.parentElement;
    while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
    return block !== null && /[\p{L}\p{N}]/u.test(textOf(block, el));
  };
  const small = [];
  for (const el of document.querySelectorAll("a[href], button, summary, [role=button], [role=link]")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue; // not rendered
    if (getComputedStyle(el).visibility === "hidden" || el.closest(".skip-link")) continue;
    if (inRunningText(el)) continue;
    if (box.width < 24 - 0.01 || box.height < 24 - 0.01) {
      const name = (el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 40);
      small.push(`${el.tagName.toLowerCase()}.${el.className} '${name}' ${box.width.toFixed(1)}×${box.height.toFixed(1)}`);
    }
  }
  return small;
}"""


def small_targets(page: Page) -> list[str]:
    return page.evaluate(SMALL_TARGETS)


def test_links_and_buttons_are_at_least_24_px_on_the_main_pages(api, app_url, launch, profile):
    seed()
    page = launch(profile, viewport=PHONE).new_page()
    page.goto(app_url + "/#/login")
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    problems = {"login": small_targets(page)}

    sign_up(page, app_url, "targets")
    sql("UPDATE users SET is_admin = true WHERE username = 'targets'")
    page.get_by_role("button", name="Account: targets").click()
    page.get_by_role("button", name="Log out").click()
    form = page.locator("form")
    form.get_by_label("Username").fill("targets")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()
    expect(page.locator(".task-card").first).to_be_visible()
    problems["tasks"] = small_targets(page)
    page.get_by_test_id("tab-bar").get_by_role("button", name="More").click()
    problems["more"] = small_targets(page)
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Account: targets").click()
    problems["account menu"] = small_targets(page)
    page.keyboard.press("Escape")

    pages = {
        "/tasks/sentiment": ".context .context-text",
        "/validate": "h1",
        "/validate/sentiment": "h1",
        "/examples": "h1",
        "/outbox": "h1",
        "/models": "h1",
        "/leaderboard": "h1",
        "/leaderboard/sentiment": "h1",
        "/owner": "h1",
        "/owner/sentiment": "h2",
        "/inbox": "h1",
        "/account": "h1",
        "/admin": "h1",
    }
    for path, ready in pages.items():
        page.goto(f"{app_url}/#{path}")
        expect(page.locator(ready).first).to_be_visible()
        expect(page.get_by_text("Loading…", exact=True)).to_have_count(0)
        problems[path] = small_targets(page)
    failing = {where: found for where, found in problems.items() if found}
    assert not failing, "\n".join(f"{where}: {found}" for where, found in failing.items())
