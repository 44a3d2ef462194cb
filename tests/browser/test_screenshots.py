"""Screenshots of the annotate and validate pages (with a live verdict) on a phone and a desktop.

By default they are written to a temporary folder (pytest's tmp_path), so a test run never changes the
repository. To refresh the committed ones in docs/screenshots/, run with UPDATE_SCREENSHOTS=1:
    UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/browser/test_screenshots.py
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import open_task, seed, sign_up, write_example

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """Where this test writes its screenshots: docs/screenshots/ only when asked to refresh them."""
    return DOCS_SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path / "screenshots"


def test_annotate_page_screenshots(api, app_url, launch, profile, target_models, screenshots):
    seed()
    screenshots.mkdir(parents=True, exist_ok=True)
    context = launch(profile, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, app_url, "screenshot-ann")
    open_task(page, app_url, "sentiment")
    write_example(page, "Honestly, the soundtrack was the only thing worth the ticket.", "Negative")
    page.get_by_role("button", name="Submit").click()
    expect(page.locator(".verdict-live [data-verdict]")).to_be_visible(timeout=60_000)
    expect(page.locator(".verdict").get_by_role("button", name="Retract")).to_be_visible()
    write_example(page, "Not bad, if you like being bored.", "Negative")  # the next draft

    page.evaluate("document.activeElement && document.activeElement.blur()")
    # Two columns on desktop.
    main_box = page.locator(".col-main").bounding_box()
    side_box = page.locator(".col-side").bounding_box()
    assert side_box["x"] > main_box["x"] + main_box["width"] - 1
    page.screenshot(path=str(screenshots / "annotate-desktop-1280x800.png"))

    page.set_viewport_size({"width": 390, "height": 844})
    main_box = page.locator(".col-main").bounding_box()
    side_box = page.locator(".col-side").bounding_box()
    assert side_box["y"] >= main_box["y"] + main_box["height"] - 1  # one column on a phone
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no horizontal scroll
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "annotate-mobile-390x844.png"))
    page.screenshot(path=str(screenshots / "annotate-mobile-390x844-full.png"), full_page=True)


def test_validate_page_screenshots(api, app_url, launch, profile, target_models, screenshots):
    from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example

    seed()
    author = api.sign_up("screenshot-author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    for text in ("A masterpiece of tedium, two hours I will never get back.", "Surprisingly, I did not hate it at all."):
        fooling_example(api, author, round_id, context_id, text)
    screenshots.mkdir(parents=True, exist_ok=True)
    context = launch(profile, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, app_url, "screenshot-validator")
    page.goto(f"{app_url}/#/validate/sentiment")
    expect(page.get_by_test_id("queue-count")).to_contain_text("2 waiting")
    expect(page.locator(".queue-example .example-input")).to_have_text(
        "A masterpiece of tedium, two hours I will never get back."
    )
    expect(page.get_by_test_id("live-state")).to_have_attribute("data-live", "live")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    main_box = page.locator(".col-main").bounding_box()
    side_box = page.locator(".col-side").bounding_box()
    assert side_box["x"] > main_box["x"] + main_box["width"] - 1  # two columns on desktop
    page.screenshot(path=str(screenshots / "validate-desktop-1280x800.png"))

    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no horizontal scroll
    for name in ("Correct", "Incorrect", "Flag"):  # the vote buttons fit side by side, each a comfortable target
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= 390
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "validate-mobile-390x844.png"))
    page.screenshot(path=str(screenshots / "validate-mobile-390x844-full.png"), full_page=True)
