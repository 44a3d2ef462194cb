"""Side-by-side battles in the PWA (issue #31 point 1): on a 360 px phone, an annotator sends one prompt to a battle
task whose round targets the demo model and a copy under another name; both anonymous sides ("Model A", "Model B")
stream at once and finish, no model is named on the page before the vote, the vote ("A is better") reveals each side's
model and is stored once; nothing overflows and axe finds nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.api.conversations_helpers import demo_copy, generative_config, generative_task
from tests.browser.helpers import _in_thread, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
GOAL = "Make the model state a false fact."
# A copy of the demo model under another name, as tests/api/test_battles.py makes one (nothing trained); a name of its
# own, so that test's teardown (which unloads its copy) cannot pull this one away from a test running beside it.
SECOND = "generative_demo_c"


@pytest.fixture(scope="module")
def demos(stack, target_models):
    demo = target_models["chat_demo"]
    with demo_copy(stack, demo, SECOND) as second:
        yield demo, second


def test_a_battle_on_a_phone_streams_both_sides_votes_blind_and_reveals(api, app_url, launch, profile, demos, axe_available):  # noqa: F811
    demo, second = demos
    config = generative_config(battle={"votes_per_user_per_day": 5})
    _in_thread(lambda: generative_task(api, "arenaphone", demo, config, also=(second,)))
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "arena-phone")
    page.goto(f"{app_url}/#/tasks/arenaphone")
    expect(page.get_by_test_id("chat-goal")).to_have_text(GOAL)
    expect(page.locator(".chat-brief .context-text")).to_have_text("A quiz about European capitals.")
    expect(page.get_by_role("link", name="Chat with one model instead")).to_be_visible()

    page.get_by_label("Your message").fill("What is the capital of France?")
    page.get_by_role("button", name="Send").click()
    sides = page.get_by_test_id("battle-side")
    expect(sides).to_have_count(2)
    expect(sides.nth(0).get_by_role("heading", name="Model A")).to_be_visible()
    expect(sides.nth(1).get_by_role("heading", name="Model B")).to_be_visible()
    for i in range(2):
        expect(sides.nth(i)).to_have_attribute("data-status", "DONE", timeout=60_000)
        expect(sides.nth(i).get_by_test_id("battle-reply")).not_to_have_text("")

    # The replies are plain text (text nodes only); each side is said once in the polite live region.
    for reply in page.get_by_test_id("battle-reply").all():
        assert reply.evaluate("el => el.children.length") == 0
    announcements = page.get_by_test_id("battle-announcements")
    assert announcements.get_attribute("aria-live") == "polite"
    expect(announcements.locator("p")).to_have_count(2)
    texts = sorted(announcements.locator("p").all_text_contents())
    assert texts[0].startswith("Model A replied: ") and texts[1].startswith("Model B replied: "), texts

    # Blind: no model is named anywhere on the page before the vote.
    body = page.locator("body").inner_text()
    assert demo not in body and second not in body, body
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []

    # The vote: labelled choices with 44 px targets, "A is better" sent.
    choices = page.locator(".battle-vote .choice")
    expect(choices).to_have_text(["A is better", "B is better", "Tie", "Both are bad"])
    for choice in choices.all():
        box = choice.bounding_box()
        assert box and box["height"] >= 44, box
    page.get_by_role("radio", name="A is better").check()
    page.get_by_role("button", name="Vote").click()

    # The names revealed under each side, the focus on the result's heading, "New battle" offered.
    expect(page.get_by_role("heading", name="Result")).to_be_focused()
    expect(page.get_by_test_id("battle-choice")).to_have_text("You chose: A is better")
    reveals = page.get_by_test_id("battle-reveal")
    expect(reveals).to_have_count(2)
    names = sorted(re.fullmatch(r"Model [AB] was (\S+)( \(version .+\))?", text).group(1) for text in reveals.all_text_contents())
    assert names == sorted([demo, second]), reveals.all_text_contents()
    expect(sides.nth(0).locator(".battle-reveal")).to_contain_text("Model A was ")
    [vote] = sql("SELECT choice FROM battle_votes")
    assert str(vote["choice"]).upper() == "A", vote
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []

    page.get_by_role("button", name="New battle").last.click()
    expect(page.get_by_label("Your message")).to_be_visible()
    expect(page.get_by_test_id("battle-side")).to_have_count(0)
