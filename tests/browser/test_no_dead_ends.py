"""No dead ends (issue #29), on a phone (390×844) and a desktop: a signed-out visitor learns what the site is and finds
the way in; the language picker is one step away on every page (the header signed out, the account menu signed in,
itself in the header row on a desktop); disclosure arrows point the reading direction in Arabic; the attempts on the
shown context come back after a reload while offline."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    open_task,
    pending_count,
    seed,
    sign_up,
    sql,
    wait_for_js,
    wait_for_service_worker,
    write_example,
)
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)
from tests.browser.test_shell_targets import small_targets

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])

# The ::before arrow of a disclosure's summary: its computed transform, once its turn (a short transition) is over.
ARROW_IS = "([summary, pattern]) => new RegExp(pattern).test(getComputedStyle(summary, '::before').transform)"
AS_DRAWN = r"^none$"
MIRRORED = r"^matrix\(-1, 0, 0, 1, 0, 0\)$"
POINTING_DOWN = r"^matrix\((6\.\d+e-17|0), 1, -1, (6\.\d+e-17|0), 0, 0\)$"


def arrow_becomes(page: Page, summary, pattern: str) -> None:
    wait_for_js(page, ARROW_IS, [summary.element_handle(), pattern])


def no_overflow(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@VIEWPORTS
def test_a_visitor_learns_what_it_is_and_finds_the_language(app_url, launch, profile, axe_available, viewport):  # noqa: F811
    page = launch(profile, viewport=viewport).new_page()
    page.goto(app_url + "/")
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()

    about = page.get_by_role("region", name="About Dynabench")
    expect(about).to_contain_text("Dynabench is an open platform")
    expect(about.get_by_role("listitem")).to_have_count(3)
    for what in ("Annotate: write examples that fool the model", "Validate:", "Compare models:"):
        expect(about).to_contain_text(what)
    # Above the form on a phone, beside it on a desktop: read before the form either way.
    about_box, card_box = about.bounding_box(), page.locator("section.card").bounding_box()
    assert about_box is not None and card_box is not None
    if viewport["width"] == PHONE["width"]:
        assert about_box["y"] + about_box["height"] <= card_box["y"] + 1
    else:
        assert about_box["x"] + about_box["width"] <= card_box["x"] + 1 and about_box["y"] <= card_box["y"] + 1
    assert no_overflow(page)
    assert small_targets(page) == []
    assert axe_violations(page) == []

    # The way in: "Create an account" opens the sign-up form (keeping where to go next), "Log in" the log-in form.
    about.get_by_role("link", name="Create an account to start").click()
    expect(page.get_by_role("heading", level=1, name="Create an account")).to_be_visible()
    assert "next=%2F" in page.url
    about.get_by_role("link", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()

    # The language, right in the header (no menu to open), still one row on a phone.
    picker = page.locator("header").get_by_label("Language", exact=True)
    expect(picker).to_be_visible()
    box = picker.bounding_box()
    assert box is not None and box["height"] >= 44
    if viewport["width"] == PHONE["width"]:
        header = page.locator("header.topbar").bounding_box()
        assert header is not None and header["height"] <= 64
    picker.select_option("es")
    expect(page.get_by_role("heading", level=1, name="Iniciar sesión")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(about).to_have_count(0)  # the region's name is translated too
    about = page.get_by_role("region", name="Acerca de Dynabench")
    expect(about).to_contain_text("Dynabench es una plataforma abierta")
    expect(about.get_by_role("link", name="Crea una cuenta para empezar")).to_be_visible()
    assert no_overflow(page)
    assert axe_violations(page) == []


@VIEWPORTS
def test_the_language_in_the_account_menu(api, app_url, launch, profile, axe_available, viewport):  # noqa: F811
    seed()
    page = launch(profile, viewport=viewport).new_page()
    sign_up(page, app_url, f"menu-language-{viewport['width']}")
    picker = page.locator("header").get_by_label("Language", exact=True)
    if viewport["width"] == PHONE["width"]:
        expect(picker).to_be_hidden()  # behind the account button: the header stays one row
        page.get_by_role("button", name=re.compile(r"^Account: ")).click()
    expect(picker).to_be_visible()  # a desktop shows the account's links in the header row: no click needed
    assert small_targets(page) == []
    picker.select_option("fr")
    expect(page.get_by_role("heading", level=1, name="Tâches")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("header").get_by_label("Langue", exact=True)).to_have_value("fr")
    assert no_overflow(page)
    if viewport["width"] == PHONE["width"]:
        header = page.locator("header.topbar").bounding_box()
        assert header is not None and header["height"] <= 64
    assert axe_violations(page) == []


def test_disclosure_arrows_mirror_in_arabic(api, app_url, launch, profile):
    seed()
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "rtl-arrows")
    sql("UPDATE users SET is_admin = true WHERE username = 'rtl-arrows'")  # the browse page's filters have one
    page.goto(app_url + "/#/owner/sentiment/browse")
    summary = page.locator("details.disclosure > summary").first
    expect(summary).to_be_visible()
    arrow_becomes(page, summary, AS_DRAWN)  # English: ▸ as drawn, pointing the reading direction
    summary.click()
    arrow_becomes(page, summary, POINTING_DOWN)
    summary.click()
    arrow_becomes(page, summary, AS_DRAWN)

    page.get_by_role("button", name=re.compile(r"^Account: ")).click()
    page.locator("header").get_by_label("Language", exact=True).select_option("ar")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.keyboard.press("Escape")  # the account menu closes
    expect(summary).to_be_visible()
    assert summary.evaluate("(s) => getComputedStyle(s).direction") == "rtl"
    arrow_becomes(page, summary, MIRRORED)  # closed: ◂, pointing right to left
    summary.click()
    arrow_becomes(page, summary, POINTING_DOWN)  # open: down, as in English


# The annotate page's words in the two languages the attempts journey runs in.
WORDS = {
    "en": {"submit": "Submit", "waiting": "Waiting to sync"},
    "es": {"submit": "Enviar", "waiting": "Pendiente de sincronizar"},
}


@pytest.mark.parametrize(("viewport", "language"), [(PHONE, "en"), (DESKTOP, "es")], ids=["phone-en", "desktop-es"])
def test_attempts_come_back_after_an_offline_reload(api, app_url, launch, profile, viewport, language):
    seed()
    context = launch(profile, viewport=viewport)
    page = context.new_page()
    sign_up(page, app_url, f"kept-attempts-{language}")
    if language != "en":
        page.locator("header").get_by_label("Language", exact=True).select_option(language)  # in the header row
        expect(page.locator("html")).to_have_attribute("lang", language)
    words = WORDS[language]
    open_task(page, app_url, "sentiment")
    wait_for_service_worker(page)

    context.set_offline(True)
    expect(page.locator(".sync-status .dot-off")).to_be_visible()
    texts = ["The first try, written offline.", "The second try, also offline."]
    for n, text in enumerate(texts, start=1):
        write_example(page, text, "Negative")
        page.get_by_role("button", name=words["submit"], exact=True).click()
        expect(pending_count(page)).to_have_text(str(n))
    attempts = page.get_by_test_id("attempt")
    expect(attempts).to_have_count(2)
    context_text = page.locator(".context .context-text").first.inner_text()

    page.reload()
    expect(page.locator(".context .context-text").first).to_have_text(context_text)
    expect(attempts).to_have_count(2)
    expect(attempts.nth(0).locator(".attempt-text")).to_contain_text(texts[1])  # newest first
    expect(attempts.nth(1).locator(".attempt-text")).to_contain_text(texts[0])
    for n in range(2):
        expect(attempts.nth(n)).to_contain_text(words["waiting"])
    expect(pending_count(page)).to_have_text("2")

    # Back online: the outbox sends them and the kept attempts show the server's verdicts, still two of them.
    context.set_offline(False)
    expect(pending_count(page)).to_have_text("0", timeout=60_000)
    expect(attempts.locator("[data-verdict]")).to_have_count(2, timeout=60_000)
    expect(attempts).to_have_count(2)
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2

    # A reload online: the same two (the device's copy merged with the server's), not four.
    page.reload()
    expect(attempts.locator("[data-verdict]")).to_have_count(2)
    expect(attempts).to_have_count(2)
