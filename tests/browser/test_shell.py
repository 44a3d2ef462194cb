"""The app shell on a phone and a desktop: a one-row header (≤ 64 px) and a role-aware bottom tab bar at 390×844,
every section in the header from 900 px on; the "More" panel and the account menu."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, seed, sign_up, sql

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def tab_labels(page: Page) -> list[str]:
    return page.get_by_test_id("tab-bar").locator(".tab .tab-label").all_inner_texts()


def more_labels(page: Page) -> list[str]:
    return page.locator("#tabbar-more a").all_inner_texts()


def header_height(page: Page) -> float:
    box = page.locator("header.topbar").bounding_box()
    assert box is not None
    return box["height"]


def test_phone_header_is_one_row_and_annotators_get_their_tabs(api, app_url, launch, profile):
    seed()
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "shell-annotator")

    # One row: logo, sync status, bell, account menu; the sections are not in the header.
    assert header_height(page) <= 64
    expect(page.get_by_test_id("inbox-bell")).to_be_visible()
    expect(page.locator("header .sync-status")).to_contain_text("waiting to sync")
    assert page.locator("header .pending-link").inner_text() == "0 waiting to sync"  # as rendered, space included
    expect(page.locator("header .topnav")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # The tab bar: at the bottom edge, annotators' tabs with labels, ≥ 44 px targets, the current one marked.
    bar = page.get_by_test_id("tab-bar")
    expect(bar).to_be_visible()
    assert tab_labels(page) == ["Tasks", "Validate", "My examples", "More"]
    box = bar.bounding_box()
    assert box is not None and abs(box["y"] + box["height"] - PHONE["height"]) < 1
    for tab in bar.locator(".tab").all():
        tab_box = tab.bounding_box()
        assert tab_box is not None and tab_box["height"] >= 44 and tab_box["width"] >= 44
    expect(bar.get_by_role("link", name="Tasks")).to_have_attribute("aria-current", "page")

    bar.get_by_role("link", name="Validate").click()
    expect(page.get_by_role("heading", level=1, name="Validate")).to_be_visible()
    expect(bar.get_by_role("link", name="Validate")).to_have_attribute("aria-current", "page")
    expect(bar.get_by_role("link", name="Tasks")).not_to_have_attribute("aria-current", "page")

    # "More": the other sections; opening one marks "More" as current and closes the panel.
    more = bar.get_by_role("button", name="More")
    expect(more).to_have_attribute("aria-expanded", "false")
    more.click()
    expect(more).to_have_attribute("aria-expanded", "true")
    assert more_labels(page) == ["Outbox", "Models", "Leaderboard", "Own tasks"]
    page.keyboard.press("Escape")
    expect(page.locator("#tabbar-more")).to_be_hidden()
    expect(more).to_be_focused()
    more.click()
    page.locator("#tabbar-more").get_by_role("link", name="Models").click()
    expect(page.get_by_role("heading", level=1, name="Models")).to_be_visible()
    expect(page.locator("#tabbar-more")).to_be_hidden()
    expect(more).to_have_attribute("aria-current", "true")

    # The page's last content is not hidden under the fixed tab bar, once the page has loaded all it shows (the upload
    # form's model contract arrives after the heading: scrolling before it would measure a page still growing).
    expect(page.get_by_test_id("model-contract")).to_be_visible()
    footer_bottom, bar_top = page.evaluate(
        """() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
          const footer = document.querySelector("footer.footer").getBoundingClientRect();
          return [footer.bottom, document.querySelector("[data-testid=tab-bar]").getBoundingClientRect().top];
        }"""
    )
    assert footer_bottom <= bar_top + 1, (footer_bottom, bar_top)

    # The account menu: your account and log out, behind one button; Escape closes it.
    toggle = page.get_by_role("button", name="Account: shell-annotator")
    expect(page.get_by_role("button", name="Log out")).to_be_hidden()
    toggle.click()
    expect(page.get_by_role("link", name="shell-annotator Your account")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Log out")).to_be_hidden()
    toggle.click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    expect(page.get_by_test_id("tab-bar")).to_have_count(0)
    assert header_height(page) <= 64


def test_owners_and_admins_get_their_tab_on_a_phone(api, app_url, launch, profile):
    seed()
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "shell-owner")
    assert tab_labels(page) == ["Tasks", "Validate", "My examples", "More"]
    sql(
        'INSERT INTO task_owners (task, "user") SELECT t.id, u.id FROM tasks t, users u '
        "WHERE t.code = 'sentiment' AND u.username = 'shell-owner'"
    )
    page.reload()
    expect(page.get_by_test_id("tab-bar").get_by_role("link", name="Own tasks")).to_be_visible()
    assert tab_labels(page) == ["Tasks", "Validate", "My examples", "Own tasks", "More"]
    page.get_by_test_id("tab-bar").get_by_role("link", name="Own tasks").click()
    expect(page.get_by_role("heading", level=1, name="Your tasks")).to_be_visible()
    page.goto(app_url + "/#/owner/sentiment")
    expect(page.get_by_test_id("tab-bar").get_by_role("link", name="Own tasks")).to_have_attribute("aria-current", "true")
    assert header_height(page) <= 64

    page.get_by_role("button", name="Account: shell-owner").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    assert page.evaluate("location.hash") == "#/login"
    api.sign_up("shell-admin")
    sql("UPDATE users SET is_admin = true WHERE username = 'shell-admin'")
    form = page.locator("form")
    form.get_by_label("Username").fill("shell-admin")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    # The tasks, not the page the previous person logged out from (/owner/sentiment).
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()
    assert tab_labels(page) == ["Tasks", "Validate", "My examples", "Admin", "More"]
    page.get_by_test_id("tab-bar").get_by_role("button", name="More").click()
    assert more_labels(page) == ["Outbox", "Models", "Leaderboard", "Own tasks"]
    page.get_by_test_id("tab-bar").get_by_role("link", name="Admin", exact=True).click()
    expect(page.get_by_role("heading", level=1, name="Users")).to_be_visible()
    assert header_height(page) <= 64


def test_desktop_lists_every_section_in_one_header_row(api, app_url, launch, profile):
    seed()
    api.sign_up("shell-desk")
    sql("UPDATE users SET is_admin = true WHERE username = 'shell-desk'")
    page = launch(profile, viewport=DESKTOP).new_page()
    page.goto(f"{app_url}/#/login")
    form = page.locator("form")
    form.get_by_label("Username").fill("shell-desk")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()

    expect(page.get_by_test_id("tab-bar")).to_be_hidden()
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_have_count(1)
    links = nav.get_by_role("link")
    assert links.all_inner_texts() == [
        "Tasks",
        "Validate",
        "My examples",
        "Outbox",
        "Models",
        "Leaderboard",
        "Own tasks",
        "Admin",
    ]
    tops = {round(link.bounding_box()["y"]) for link in links.all()}
    assert len(tops) == 1  # one row, using the width
    expect(nav.get_by_role("link", name="Tasks", exact=True)).to_have_attribute("aria-current", "page")
    # Account and log out sit in the header row, no menu to open.
    expect(page.get_by_role("button", name="Account: shell-desk")).to_be_hidden()
    expect(page.locator("header").get_by_role("link", name="shell-desk")).to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    nav.get_by_role("link", name="Leaderboard").click()
    expect(page.get_by_role("heading", level=1, name="Leaderboards")).to_be_visible()
    expect(nav.get_by_role("link", name="Leaderboard")).to_have_attribute("aria-current", "page")
