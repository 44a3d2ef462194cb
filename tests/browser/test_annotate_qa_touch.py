"""QA answers by touch: dragging the selection handles only fires `selectionchange` (no mouseup, no touchend); the
answer follows the selection, and extending it after the highlight was drawn works too."""

from playwright.sync_api import expect

from tests.browser.helpers import seed, sign_up

# Select [start, end) of the passage's text as a handle drag would: no mouse or touch event at all.
SELECT = """([start, end]) => {
  const passage = document.querySelector('.passage');
  const walker = document.createTreeWalker(passage, NodeFilter.SHOW_TEXT);
  const at = (offset) => {
    let left = offset;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (left <= node.textContent.length) return [node, left];
      left -= node.textContent.length;
    }
  };
  const [a, ao] = at(start);
  walker.currentNode = passage;
  const [b, bo] = at(end);
  window.getSelection().setBaseAndExtent(a, ao, b, bo);
}"""


def test_touch_selection_handles_set_and_extend_the_answer(api, app_url, launch, profile):
    seed()
    context = launch(profile, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    sign_up(page, app_url, "touch-ann")
    page.goto(app_url + "/#/tasks/qa")
    passage = page.locator(".passage")
    expect(passage).to_be_visible()
    text = passage.inner_text()
    words = text.split(" ")
    start = len(words[0]) + 1
    first = words[1]
    page.evaluate(SELECT, [start, start + len(first)])
    answer = page.get_by_label("Answer")
    expect(answer).to_have_value(first)
    expect(page.locator("mark.answer-span")).to_have_text(first)

    # Drag the end handle over the next word: the highlight is in place, the selection extends from it.
    longer = first + " " + words[2]
    page.evaluate(SELECT, [start, start + len(longer)])
    expect(answer).to_have_value(longer)
    expect(page.locator("mark.answer-span")).to_have_text(longer)
    # The live selection survived the re-render of the highlight.
    assert page.evaluate("window.getSelection().toString()").strip() == longer
