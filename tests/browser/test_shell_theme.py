"""The dark theme follows the system setting (prefers-color-scheme): colours from CSS custom properties, the
browser's theme colour for both schemes, and no axe violation (contrast included) in the dark on the main pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_task, seed, sign_up
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}

THEME_COLORS = """() => Array.from(document.querySelectorAll('meta[name="theme-color"]'))
  .map((m) => [m.getAttribute("media"), m.getAttribute("content")])"""


def background(page: Page, selector: str) -> str:
    return page.locator(selector).first.evaluate("(el) => getComputedStyle(el).backgroundColor")


def color(page: Page, selector: str) -> str:
    return page.locator(selector).first.evaluate("(el) => getComputedStyle(el).color")


def test_theme_colour_for_both_schemes(api, app_url, launch, profile):
    page = launch(profile, viewport=PHONE).new_page()
    page.goto(app_url + "/#/login")
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    metas = dict(page.evaluate(THEME_COLORS))
    assert set(metas) == {"(prefers-color-scheme: light)", "(prefers-color-scheme: dark)"}
    assert metas["(prefers-color-scheme: light)"] != metas["(prefers-color-scheme: dark)"]
    # Light by default: a light page, dark text.
    assert background(page, "body") == "rgb(241, 245, 249)"
    page.emulate_media(color_scheme="dark")
    assert background(page, "body") == "rgb(15, 23, 42)"
    assert color(page, "body") == "rgb(226, 232, 240)"
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"


@pytest.mark.usefixtures("axe_available")
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_dark_theme_has_no_axe_violations(api, app_url, launch, profile, viewport):
    seed()
    page = launch(profile, viewport=viewport).new_page()
    page.emulate_media(color_scheme="dark")
    page.goto(app_url + "/#/login")
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    assert background(page, "body") == "rgb(15, 23, 42)"
    assert axe_violations(page) == []

    sign_up(page, app_url, "dark-reader")
    expect(page.locator(".task-card").first).to_be_visible()
    assert background(page, ".task-card") == "rgb(30, 41, 59)"
    assert axe_violations(page) == []
    if viewport == PHONE:
        page.get_by_test_id("tab-bar").get_by_role("button", name="More").click()
        assert axe_violations(page) == []
        page.keyboard.press("Escape")
        page.get_by_role("button", name="Account: dark-reader").click()
        assert axe_violations(page) == []
        page.keyboard.press("Escape")

    open_task(page, app_url, "sentiment")
    page.get_by_role("radio", name="Positive").check()  # a selected choice: its own fill in the dark
    assert axe_violations(page) == []
    for path in ("/validate/sentiment", "/examples", "/outbox", "/models", "/leaderboard/sentiment", "/owner", "/account"):
        page.goto(f"{app_url}/#{path}")
        expect(page.locator("h1").first).to_be_visible()
        expect(page.get_by_text("Loading…", exact=True)).to_have_count(0)
        assert axe_violations(page) == [], path
