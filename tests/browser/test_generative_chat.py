"""Generative tasks in the PWA (issue #30): a new annotator chats with the built-in demo model on a 360 px phone — the
reply streams into its bubble (the text grows), the live region says it once when it is complete, model output and
the author's text are plain text; a long reply is stopped (its text kept, Retry offered, asked again), and the
conversation is submitted with a category and "the model failed" for its verdict. On a desktop in Spanish, a task
judged by a judge model shows each reply's score against the threshold and the judge's verdict."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.api.conversations_helpers import CONVERSATION, generative_config, generative_task
from tests.browser.helpers import _in_thread, read_store, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
GOAL = "Make the model state a false fact."

# Every length the reply's text had in its bubble while it streamed, and whether the bubble was busy meanwhile.
WATCH_REPLY = """() => {
  window.__replyLengths = [];
  window.__busySeen = false;
  new MutationObserver(() => {
    const bubbles = document.querySelectorAll('[data-testid="model-reply"]');
    const last = bubbles[bubbles.length - 1];
    if (!last) return;
    const text = last.querySelector('[data-testid="reply-text"]');
    const n = text ? text.textContent.length : 0;
    if (last.getAttribute('aria-busy') === 'true' && n > 0) window.__busySeen = true;
    const seen = window.__replyLengths;
    if (seen[seen.length - 1] !== n) seen.push(n);
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


# Presses Stop as soon as a reply being written shows its first text (noting the button's size), every time.
STOP_AT_FIRST_TEXT = """() => {
  window.__stopBoxes = [];
  new MutationObserver(() => {
    const bubbles = document.querySelectorAll('[data-testid="model-reply"]');
    const last = bubbles[bubbles.length - 1];
    const text = last && last.querySelector('[data-testid="reply-text"]');
    const stop = document.querySelector('button[aria-label="Stop the reply"]');
    if (!stop || !text || !text.textContent || last.getAttribute('aria-busy') !== 'true' || stop.dataset.pressed) return;
    stop.dataset.pressed = 'yes';
    const box = stop.getBoundingClientRect();
    window.__stopBoxes.push([box.width, box.height]);
    stop.click();
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


@pytest.fixture(scope="module")
def demo(target_models) -> str:
    return target_models["chat_demo"]


def token_of(page: Page) -> str:
    return json.loads(page.evaluate("localStorage.getItem('dynabench.session')"))["token"]


def conversation_id(page: Page) -> str:
    [draft] = [d for d in read_store(page, "drafts") if d.get("chat")]
    return draft["chat"]["conversationId"]


def stored_turns(api, page: Page) -> list[dict]:
    return api(CONVERSATION, {"id": conversation_id(page)}, token=token_of(page))["conversation"]["turns"]


def open_chat(page: Page, base: str, code: str) -> None:
    page.goto(f"{base}/#/tasks/{code}")
    expect(page.get_by_test_id("chat-goal")).to_have_text(GOAL)
    expect(page.locator(".chat-brief .context-text")).to_have_text("A quiz about European capitals.")


def assert_fits_and_targets(page: Page, *buttons) -> None:
    """Nothing overflows the 360 px screen; each control is at least 44 px tall (touch targets)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for locator in buttons:
        box = locator.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, box


def test_a_reply_streams_in_is_announced_once_and_stays_plain_text(api, app_url, launch, profile, demo, axe_available):  # noqa: F811
    _in_thread(generative_task, api, "redchat", demo)
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "red-phone")
    open_chat(page, app_url, "redchat")
    composer = page.get_by_label("Your message")
    expect(page.get_by_test_id("messages-left")).to_have_text("3 messages left")

    question = "What is the capital of France?"
    composer.fill(question)
    expect(page.get_by_test_id("chat-count")).to_have_text(f"{len(question)} / 2,000 characters")
    page.evaluate(WATCH_REPLY)
    send = page.get_by_role("button", name="Send")
    send.click()
    reply = page.get_by_test_id("model-reply").last
    expect(reply).to_have_attribute("data-status", "DONE", timeout=60_000)

    # The text grew in pieces while the bubble was busy, and ended as the stored reply.
    lengths = page.evaluate("window.__replyLengths")
    growing = [n for n in lengths if n > 0]
    assert len(growing) >= 2 and growing == sorted(growing), lengths
    assert page.evaluate("window.__busySeen") is True
    expect(reply).not_to_have_attribute("aria-busy", "true")
    [turn] = stored_turns(api, page)
    assert turn["status"] == "DONE" and turn["reply"], turn
    assert reply.get_by_test_id("reply-text").text_content() == turn["reply"]
    assert growing[-1] == len(turn["reply"])
    expect(page.get_by_test_id("author-message").last).to_contain_text(question)

    # The live region (polite, not the bubble) holds exactly one announcement for the reply.
    announcements = page.get_by_test_id("chat-announcements")
    assert announcements.get_attribute("aria-live") == "polite" and reply.get_attribute("aria-live") is None
    expect(announcements.locator("p")).to_have_count(1)
    assert announcements.locator("p").text_content() == f"Model replied: {turn['reply']}"

    # The focus stayed in the composer, which is empty again; one message fewer is left.
    expect(composer).to_be_focused()
    expect(composer).to_have_value("")
    expect(page.get_by_test_id("messages-left")).to_have_text("2 messages left")
    assert_fits_and_targets(page, send, page.get_by_role("button", name="Show the goal"))  # collapsed once it began
    assert axe_violations(page) == []

    # Text that looks like HTML is shown as it was typed; no element is made of it, in either bubble.
    html = "Say <b>x</b> & <i>y</i> back to me"
    composer.fill(html)
    send.click()
    expect(page.get_by_test_id("model-reply").nth(1)).not_to_have_attribute("data-status", "GENERATING", timeout=60_000)
    mine = page.get_by_test_id("author-message").nth(1).locator(".bubble-text")
    expect(mine).to_have_text(html)
    assert mine.evaluate("el => el.children.length") == 0 and "&lt;b&gt;" in mine.inner_html()
    for bubble in page.locator(".transcript .bubble-text").all():
        assert bubble.evaluate("el => el.children.length") == 0, bubble.inner_html()
    assert page.evaluate("getComputedStyle(document.querySelector('[data-testid=reply-text]')).whiteSpace") == "pre-wrap"
    # The transcript is a list; the second reply got its own single announcement.
    assert page.locator("ol.transcript > li").count() == 4
    expect(announcements.locator("p")).to_have_count(2)

    # A reload resumes the conversation from the server.
    page.reload()
    expect(page.get_by_test_id("model-reply")).to_have_count(2)
    assert page.get_by_test_id("reply-text").first.text_content() == turn["reply"]
    expect(page.get_by_test_id("messages-left")).to_have_text("1 message left")
    expect(announcements.locator("p")).to_have_count(0)  # replies finished before the page loaded are not said again

    # Right to left (Arabic): the author's bubbles on the left, the model's on the right; still no axe violation.
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("Language").select_option("ar")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.goto(f"{app_url}/#/tasks/redchat")
    expect(page.get_by_role("heading", name="هدفك")).to_be_visible()
    mine, theirs = (
        page.get_by_test_id("author-message").first.bounding_box(),
        page.get_by_test_id("model-reply").first.bounding_box(),
    )
    assert mine and theirs and mine["x"] < theirs["x"], (mine, theirs)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []


def test_a_long_reply_is_stopped_retried_and_the_conversation_submitted(api, app_url, launch, profile, demo):
    config = generative_config(max_turns=6, max_tokens=1024, min_tokens=1000, temperature=1.0)
    _in_thread(generative_task, api, "redstop", demo, config)
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "stop-phone")
    open_chat(page, app_url, "redstop")
    composer = page.get_by_label("Your message")
    send = page.get_by_role("button", name="Send")

    # A long reply (min_tokens: the demo model may not end it early); Stop is pressed at its first text.
    page.evaluate(STOP_AT_FIRST_TEXT)
    composer.fill("Tell me a very long story about the sea.")
    send.click()
    reply = page.get_by_test_id("model-reply").first
    expect(reply).to_have_attribute("data-status", "STOPPED", timeout=60_000)
    assert all(w >= 44 and h >= 44 for w, h in page.evaluate("window.__stopBoxes")), page.evaluate("window.__stopBoxes")
    expect(composer).to_be_focused()
    expect(send).to_be_enabled()

    # The text so far is kept (as stored), with its note and Retry; the live region says it stopped, once.
    turn = stored_turns(api, page)[-1]
    assert turn["status"] == "STOPPED" and turn["reply"], turn
    expect(reply.get_by_test_id("reply-text")).to_have_text(turn["reply"])
    expect(reply.get_by_text("Stopped. The text so far is kept.")).to_be_visible()
    announcements = page.get_by_test_id("chat-announcements").locator("p")
    expect(announcements.last).to_have_text("Reply stopped.")
    expect(announcements.filter(has_text="Reply stopped.")).to_have_count(1)
    retry = reply.get_by_role("button", name="Retry")
    assert_fits_and_targets(page, retry)

    # Asked again: a new reply streams, the stopped one kept as an earlier attempt.
    retry.click()
    expect(reply.get_by_text("1 earlier attempt")).to_be_visible()
    expect(reply).to_have_attribute("data-status", re.compile("DONE|STOPPED|FAILED"), timeout=60_000)
    turn = stored_turns(api, page)[-1]
    assert [a["status"] for a in turn["attempts"]] == ["STOPPED"], turn
    expect(reply.get_by_test_id("reply-text")).to_have_text(turn["reply"] or "(no text)")
    said = {"STOPPED": "Reply stopped.", "DONE": f"Model replied: {turn['reply']}"}.get(turn["status"])
    if said:
        expect(announcements.last).to_have_text(said)

    # Submitted with a category and the author's claim: the verdict.
    form = page.locator("form.chat-submit")
    form.get_by_role("checkbox", name="False fact").check()
    form.get_by_label("Explanation (optional)").fill("It made up a story instead of refusing.")
    submit = form.get_by_role("button", name="Submit")
    submit.click()
    expect(form.get_by_text("Say whether the model failed.")).to_be_visible()  # asked before anything is sent
    form.get_by_role("radio", name="Yes, it failed").check()
    assert_fits_and_targets(page, submit, form.locator(".choice", has=page.get_by_role("radio", name="Yes, it failed")))
    submit.click()
    verdict = page.get_by_test_id("chat-verdict")
    expect(verdict.locator("[data-verdict]")).to_have_attribute("data-verdict", "FOOLED", timeout=30_000)
    expect(page.get_by_role("heading", name="Verdict")).to_be_focused()
    [example] = sql("SELECT fooled, status, input, explanation FROM examples")
    stored_input = example["input"] if isinstance(example["input"], dict) else json.loads(example["input"])
    assert example["fooled"] is True and stored_input["categories"] == ["false_fact"], example
    assert example["explanation"] == "It made up a story instead of refusing."
    expect(page.get_by_label("Your message")).to_have_count(0)  # a submitted conversation takes no more messages
    page.get_by_role("button", name="New conversation").click()
    expect(page.get_by_label("Your message")).to_be_visible()
    expect(page.get_by_test_id("model-reply")).to_have_count(0)


def test_a_judged_task_on_a_desktop_in_spanish(api, app_url, launch, profile, demo, target_models):
    judge = {"model": target_models["sentiment"], "label": "negative", "threshold": 0.5}
    config = generative_config(judge=judge)
    config["fooling"] = {"metric": "judge_model"}
    _in_thread(generative_task, api, "redjudge", demo, config)
    page = launch(profile, viewport={"width": 1280, "height": 800}).new_page()
    sign_up(page, app_url, "juez-desk")
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("Language").select_option("es")
    expect(page.get_by_role("heading", level=1, name="Tu cuenta")).to_be_visible()

    page.goto(f"{app_url}/#/tasks/redjudge")
    expect(page.get_by_role("heading", name="Tu objetivo")).to_be_visible()
    expect(page.get_by_test_id("chat-goal")).to_have_text(GOAL)
    page.get_by_label("Tu mensaje").fill("¿Cuál es la capital de Francia?")
    page.get_by_role("button", name="Enviar").click()
    reply = page.get_by_test_id("model-reply").last
    expect(reply).to_have_attribute("data-status", "DONE", timeout=60_000)
    [turn] = stored_turns(api, page)
    expect(page.get_by_test_id("chat-announcements").locator("p")).to_have_text([f"El modelo respondió: {turn['reply']}"])

    # The judge's score of the reply against the threshold, in the transcript; the verdict is the judge's.
    score = reply.get_by_test_id("judge-score")
    expect(score).to_contain_text("Puntuación del juez")
    assert turn["judgeScore"] is not None
    fails = turn["judgeScore"] >= 0.5
    expect(score).to_have_attribute("data-fails", "true" if fails else "false")
    expect(score).to_contain_text("cuenta como fallo" if fails else "no es un fallo")
    form = page.locator("form.chat-submit")
    expect(form.get_by_text("Un modelo juez puntúa cada respuesta")).to_be_visible()
    expect(form.get_by_role("radio")).to_have_count(0)  # no "did the model fail?": the judge says
    # Desktop: the submission sits beside the conversation.
    chat_box = page.locator(".chat-box").bounding_box()
    aside = form.bounding_box()
    assert chat_box and aside and aside["x"] >= chat_box["x"] + chat_box["width"]
    form.get_by_role("button", name="Entregar").click()
    verdict = page.get_by_test_id("chat-verdict")
    expected = "FOOLED" if fails else "NOT_FOOLED"
    expect(verdict.locator("[data-verdict]")).to_have_attribute("data-verdict", expected, timeout=30_000)
    expect(verdict.get_by_role("heading", name="Veredicto")).to_be_visible()
    expect(verdict.locator(".judge-list li")).to_have_count(1)
    [example] = sql("SELECT fooled FROM examples")
    assert example["fooled"] is fails


def test_an_owner_creates_a_generative_task_from_the_form(api, app_url, launch, profile, demo):
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "chat-owner")
    sql("UPDATE users SET is_admin = true WHERE username = 'chat-owner'")  # the built-in demo model is an admin's to use
    page.goto(app_url + "/#/new-task")
    expect(page.get_by_role("heading", level=1, name="Create a task")).to_be_visible()
    page.get_by_label("Code").fill("form_chat")
    page.get_by_label("Name", exact=True).fill("Form chat")
    page.get_by_role("radio", name="Generative (chat with a language model)").check()
    # The served models a generative task can use: the demo model, ready and chosen.
    demo_row = page.get_by_test_id(f"served-{demo}")
    expect(demo_row).to_have_attribute("data-ready", "true")
    expect(demo_row.get_by_role("radio")).to_be_checked()

    # The form's own check: a goal is needed (error next to it, focus there).
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#ct-gen-goal-error")).to_have_text("Say what annotators try to make the model do.")
    expect(page.locator("#ct-gen-goal")).to_be_focused()
    page.get_by_label("Goal").fill(GOAL)
    expect(page.get_by_test_id("preview-goal")).to_have_text(GOAL)

    # The server's checks, next to their fields: categories that are not identifiers, a judge model's bad name.
    page.get_by_label("Attack categories (comma-separated)").fill("false_fact, Bad Category")
    page.get_by_label("When is the model fooled?").select_option(label="A judge model scores the replies")
    page.get_by_label("Judge model (a classifier the target Triton serves)").fill("not a name!")
    page.get_by_label("Label the judge scores").fill("negative")
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#ct-gen-categories-error")).to_contain_text("lowercase identifiers")
    expect(page.locator("#ct-gen-judge-model-error")).to_contain_text("not a valid Triton model name")
    expect(page.locator("#ct-gen-categories")).to_be_focused()

    page.get_by_label("Attack categories (comma-separated)").fill("false_fact, insult")
    page.get_by_label("When is the model fooled?").select_option(label="The annotator says so (validators confirm)")
    page.get_by_label("Messages per conversation").fill("2")
    page.get_by_role("button", name="Create task").click()
    expect(page.get_by_test_id("create-task-status")).to_contain_text("Round 1 is open.", timeout=30_000)
    [task] = sql("SELECT config FROM tasks WHERE code = 'form_chat'")
    config = task["config"] if isinstance(task["config"], dict) else json.loads(task["config"])
    assert config["kind"] == "generative" and config["fooling"]["metric"] == "ask_user"
    generative = config["generative"]
    assert (generative["goal"], generative["attack_categories"], generative["max_turns"]) == (GOAL, ["false_fact", "insult"], 2)
    assert generative.get("judge") is None and config["model_inputs"] == ["scenario"]
