"""Side-by-side battles in the PWA (issue #31 point 1): on a 360 px phone, an annotator sends one prompt to a battle
task whose round targets the demo model and a copy under another name; both anonymous sides ("Model A", "Model B")
stream at once and finish, no model is named on the page before the vote, the vote (each side rated on the task's
form, then "A is better") reveals each side's model and is stored once with its ratings; the battle leaderboard page
draws each model's interval (its numbers also as text) and the win-rate table; back on the battle, "Continue with Model
A (name)" opens the chat on that side's conversation, which takes the next message and links back to the battles;
the leaderboard in Arabic mirrors its scale; nothing overflows and axe finds nothing."""

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
    config = generative_config(battle={"votes_per_user_per_day": 5, "rating_field": "quality"})
    config["validator_fields"] = [{"name": "quality", "display_name": "How good is the reply?", "type": "rating", "scale": 5}]
    _in_thread(lambda: generative_task(api, "arenaphone", demo, config, also=(second,)))
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "arena-phone")
    page.goto(f"{app_url}/#/tasks/arenaphone")
    expect(page.get_by_test_id("chat-goal")).to_have_text(GOAL)
    expect(page.locator(".chat-brief .context-text")).to_have_text("A quiz about European capitals.")
    expect(page.get_by_role("link", name="Chat with one model instead")).to_be_visible()

    # One prompt, every model answers it: no "1 message left" here.
    expect(page.get_by_test_id("messages-left")).to_have_text("Every model answers this one prompt.")
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
    choices = page.locator(".battle-vote > fieldset:not(.battle-ratings) .choice")
    expect(choices).to_have_text(["A is better", "B is better", "Tie", "Both are bad"])
    for choice in choices.all():
        box = choice.bounding_box()
        assert box and box["height"] >= 44, box
    # Each side rated on the task's form (a rating is asked of every side before the vote goes out).
    expect(page.locator(".battle-ratings > legend")).to_have_text("Rate each reply: How good is the reply?")
    page.get_by_role("radio", name="A is better").check()
    page.get_by_role("button", name="Vote").click()
    expect(page.locator("#battle-vote-error")).to_have_text("Rate every reply first.")
    page.get_by_role("group", name="Model A").get_by_role("radio", name="4").check()
    page.get_by_role("group", name="Model B").get_by_role("radio", name="2").check()
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
    assert [r["rating"] for r in sql("SELECT rating FROM battle_sides ORDER BY position")] == [4.0, 2.0]
    expect(page.get_by_test_id("battle-ratings-given")).to_contain_text("Model A: rated 4")
    first = next(text for text in reveals.all_text_contents() if text.startswith("Model A was "))
    first_name = re.fullmatch(r"Model A was (\S+)( \(version .+\))?", first).group(1)
    continue_a = page.get_by_role("button", name=f"Continue with Model A ({first_name})")
    expect(continue_a).to_be_visible()
    expect(page.get_by_test_id("battle-continue")).to_have_count(1)  # only the side voted for
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []

    # The battle leaderboard: a card per model with its interval drawn and its numbers as text, the win-rate table.
    page.get_by_role("link", name="See the leaderboard").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Battle leaderboard: Red team arenaphone")  # the task's name
    cards = page.get_by_test_id("board-model")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_have_attribute("data-name", first_name)
    expect(cards.nth(0).get_by_test_id("board-rating")).to_have_text(
        re.compile(r"Rating [\d,]+ \(95% interval [\d,]+ to [\d,]+\)")
    )
    for i in range(2):
        bar = cards.nth(i).locator(".range").bounding_box()
        assert bar and bar["width"] > 0 and bar["height"] > 0, bar
    points = [cards.nth(i).locator(".point").bounding_box() for i in range(2)]
    assert points[0]["x"] > points[1]["x"], points  # one scale: the better rating further along it
    expect(cards.nth(0)).to_contain_text("Wins1")
    matrix = page.get_by_test_id("board-matrix")
    expect(matrix.locator("thead th[scope=col]")).to_have_count(3)
    expect(matrix.locator("tbody th[scope=row]")).to_have_text([first_name, next(n for n in (demo, second) if n != first_name)])
    expect(matrix.locator("tbody tr").nth(0).locator("td").nth(1)).to_have_text("100%")
    # The votes' quality: what counts, and the position bias (one vote for A: 1 of 1, its interval holds chance).
    quality = page.get_by_test_id("board-quality")
    expect(quality).to_contain_text("1 of 1 votes counted.")
    bias = quality.get_by_test_id("board-bias")
    expect(bias.locator("tbody th[scope=row]")).to_have_text(["Model A", "Model B"])
    expect(bias.locator("tbody tr").nth(0)).to_contain_text("1 / 1")
    expect(bias.locator("tbody tr").nth(0)).to_contain_text("within chance")
    page.get_by_label("Round").select_option(label="Round 1")
    expect(cards).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []

    # Back on the battle (the draft resumes it): continue with Model A in the chat, which takes the next message.
    page.go_back()
    continue_a.click()
    expect(page).to_have_url(re.compile(r"#/tasks/arenaphone\?mode=chat$"))
    expect(page.get_by_test_id("author-message")).to_have_count(1)
    expect(page.get_by_test_id("author-message").first).to_contain_text("What is the capital of France?")
    expect(page.get_by_test_id("messages-left")).to_contain_text("2")
    page.get_by_label("Your message").fill("And of Germany?")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_test_id("model-reply")).to_have_count(2)
    expect(page.get_by_test_id("model-reply").nth(1)).to_have_attribute("data-status", "DONE", timeout=60_000)
    [turns] = sql(
        "SELECT count(*) AS n FROM conversation_turns t JOIN battle_continuations k ON true "
        "JOIN battle_sides s ON s.battle = k.battle AND s.position = k.position WHERE t.conversation = s.conversation"
    )
    assert turns["n"] == 2, turns
    expect(page.get_by_role("link", name="Back to the battles")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("link", name="Back to the battles").click()
    expect(page.get_by_test_id("battle-result")).to_be_visible()

    page.get_by_role("button", name="New battle").last.click()
    expect(page.get_by_label("Your message")).to_be_visible()
    expect(page.get_by_test_id("battle-side")).to_have_count(0)

    # Right to left (Arabic): the leaderboard's scale mirrors (the better rating further left), nothing overflows.
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("Language").select_option("ar")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.goto(f"{app_url}/#/leaderboard/arenaphone/battles")
    expect(page.get_by_role("heading", level=1)).to_have_text("ترتيب المقارنات: Red team arenaphone")
    expect(cards).to_have_count(2)
    points = [cards.nth(i).locator(".point").bounding_box() for i in range(2)]
    assert points[0]["x"] < points[1]["x"], points
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
