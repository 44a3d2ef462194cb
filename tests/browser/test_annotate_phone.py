"""Phone first (issue #19 point 1): on a 390×844 screen the context, the input, the label and Submit of a sentiment
and an NLI task are all on screen, uncovered, without scrolling; on a 1280×800 desktop the verdict sits beside them."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_task, seed, sign_up

# True when the element's centre is on screen and the topmost element there is it (or inside it): not scrolled
# away, not under a fixed bar.
UNCOVERED = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.top < 0 || r.bottom > window.innerHeight || x < 0 || x > window.innerWidth) return false;
  const top = document.elementFromPoint(x, y);
  return !!top && (el === top || el.contains(top) || top.contains(el));
}"""


def assert_in_first_screen(page: Page, input_label: str, last_label: str) -> None:
    assert page.evaluate("window.scrollY") == 0
    parts = {
        "context": page.locator(".context .context-text").first,
        "input": page.get_by_label(input_label),
        "label": page.locator(".choice", has=page.get_by_role("radio", name=last_label)),
        "submit": page.get_by_role("button", name="Submit"),
    }
    for name, locator in parts.items():
        expect(locator).to_be_visible()
        assert locator.evaluate(UNCOVERED), f"{name} is not on the first screen: {locator.bounding_box()}"


@pytest.mark.parametrize(
    ("task", "input_label", "last_label"), [("sentiment", "Statement", "Neutral"), ("nli", "Hypothesis", "Contradiction")]
)
def test_phone_shows_context_input_label_and_submit_without_scrolling(
    api, app_url, launch, profile, task, input_label, last_label
):
    seed()
    page = launch(profile, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    sign_up(page, app_url, f"phone-{task}")
    open_task(page, app_url, task)
    page.evaluate("window.scrollTo(0, 0)")
    assert_in_first_screen(page, input_label, last_label)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_desktop_puts_the_verdict_beside_the_form(api, app_url, launch, profile):
    seed()
    page = launch(profile, viewport={"width": 1280, "height": 800}).new_page()
    sign_up(page, app_url, "desk-ann")
    open_task(page, app_url, "sentiment")
    form = page.locator(".example-form").bounding_box()
    verdict = page.locator(".verdict").bounding_box()
    assert form and verdict and verdict["x"] >= form["x"] + form["width"]
    assert_in_first_screen(page, "Statement", "Neutral")
