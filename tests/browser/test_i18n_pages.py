"""Every owner, admin and researcher page in Arabic and Spanish on a phone (issue #19 point 6): the page mirrors
(dir="rtl"), its title and text are in the language, nothing overflows the 390 px screen, and axe-core finds no
WCAG 2 A/AA violation. The annotate, validate and account pages are covered by test_i18n.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
PAGES = [
    "/models",
    "/leaderboard/sentiment",
    "/owner",
    "/owner/sentiment",
    "/owner/sentiment/settings",
    "/owner/sentiment/browse",
    "/owner/sentiment/flags",
    "/owner/sentiment/webhooks",
    "/owner/sentiment/training",
    "/owner/sentiment/campaigns",
    "/new-task",
    "/admin",
    "/admin/approvals",
    "/admin/models",
    "/admin/audit",
    "/inbox",
    "/examples",
    "/outbox",
]
ARABIC_LETTERS = re.compile(r"[\u0600-\u06FF]")
LANGUAGES = {"ar": "حسابك", "es": "Tu cuenta"}  # code: the account page's heading in it


def _visit(page, app_url: str, path: str) -> tuple[str, str]:
    # The title is set in the same commit as the page, and no two pages here share one: once it changed, <main>
    # holds the new page (its heading alone could still be the previous page's).
    previous = page.title()
    page.goto(f"{app_url}/#{path}")
    expect(page).not_to_have_title(previous)
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    return page.title(), page.locator("main").inner_text()


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_page_in_the_language_on_a_phone(api, app_url, launch, profile, axe_available, code):  # noqa: F811
    seed()
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, f"polyglot-{code}")
    sql("UPDATE users SET is_admin = true WHERE username = $1", f"polyglot-{code}")  # every owner and admin page
    english = {path: _visit(page, app_url, path) for path in PAGES}
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("Language").select_option(code)  # the account page's (the menu has one too)
    expect(page.get_by_role("heading", level=1, name=LANGUAGES[code])).to_be_visible()
    expect(page).to_have_title(re.compile(LANGUAGES[code]))  # the tab's title follows the switch too

    problems = []
    for path in PAGES:
        title, main = _visit(page, app_url, path)
        expect(page.locator("html")).to_have_attribute("dir", "rtl" if code == "ar" else "ltr")
        expect(page.locator("html")).to_have_attribute("lang", code)
        if main == english[path][1]:  # (a title may stay the same word: "Webhooks" in Spanish)
            problems.append(f"{path}: still English: {title!r} {main[:100]!r}")
        if code == "ar" and not (ARABIC_LETTERS.search(title) and ARABIC_LETTERS.search(main)):
            problems.append(f"{path}: no Arabic in {title!r} {main[:100]!r}")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 1:
            problems.append(f"{path}: {overflow} px wider than the screen")
        problems += [f"{path}: {violation}" for violation in axe_violations(page)]
    assert problems == []
