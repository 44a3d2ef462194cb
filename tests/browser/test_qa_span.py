"""Extractive QA: the answer is chosen by selecting a span of the passage; offsets reach the API exactly."""

import json

from playwright.sync_api import expect

from tests.browser.helpers import seed, sign_up, sql

SELECT_SPAN = """([start, end]) => {
  const passage = document.querySelector('.passage');
  const text = passage.firstChild;
  const range = document.createRange();
  range.setStart(text, start);
  range.setEnd(text, end);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  passage.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
}"""


def test_qa_answer_is_a_selected_span(api, app_url, launch, profile, target_models):
    seed()
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "qa-ann")
    page.goto(app_url + "/#/tasks/qa")
    passage_element = page.locator(".passage")
    expect(passage_element).to_be_visible()
    passage = passage_element.inner_text()
    words = passage.split(" ")
    start = len(words[0]) + 1 + len(words[1]) + 1
    answer = words[2] + " " + words[3]
    # Select a little whitespace around it too: the app trims the span.
    page.evaluate(SELECT_SPAN, [start - 1, start + len(answer)])
    expect(page.get_by_label("Answer")).to_have_value(answer)
    expect(page.locator("mark.answer-span")).to_have_text(answer)

    page.get_by_label("Question").fill("What comes third and fourth in the passage?")
    page.get_by_role("button", name="Submit").click()
    verdict = page.locator(".verdict")
    expect(verdict.get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible(timeout=60_000)
    expect(verdict.get_by_test_id("model-label")).not_to_have_text("—")

    [row] = sql("SELECT input, model_output FROM examples")
    stored = json.loads(row["input"]) if isinstance(row["input"], str) else row["input"]
    assert stored["answer"] == answer
    assert stored["answer_start"] == passage.index(answer) == start
    assert stored["question"] == "What comes third and fourth in the passage?"
