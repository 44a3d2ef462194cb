"""Issue #19 point 3 on a 390×844 phone: the validator's queue refills as it drains and its count is the true
number waiting for them (validationWaiting), so voting through more than the first page of 20 never shows "none"
until the last example; the vote bar stays in reach (sticky) while the example is read from the top."""

from __future__ import annotations

import json
from itertools import pairwise

from playwright.sync_api import expect

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
from tests.browser.helpers import seed, sign_up, sql

PHONE = {"width": 390, "height": 844}
TOTAL = 30

# Remembers whether the "no examples wait" line was ever in the page, and every count shown (MutationObservers: no
# sampling gaps).
WATCH_COUNTS = """() => {
  window.__emptySeen = Boolean(document.querySelector('[data-testid="queue-empty"]'));
  new MutationObserver(() => {
    if (document.querySelector('[data-testid="queue-empty"]')) window.__emptySeen = true;
  }).observe(document.body, { childList: true, subtree: true });
  // Every count shown, in order: with no example added, it may only go down (never back up as answers cross).
  window.__counts = [];
  const record = () => {
    const count = document.querySelector('[data-testid="queue-count"]');
    if (count) window.__counts.push(Number(count.getAttribute("data-count")));
  };
  record();
  new MutationObserver(record).observe(document.body, { attributes: true, attributeFilter: ["data-count"], subtree: true });
}"""


def _open_examples(api, total: int) -> None:
    """`total` open examples of another author (copies of one that fooled the model) in the sentiment round."""
    seed()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    fooling_example(api, author, round_id, context_id, "The soup was as warm as a glacier, wonderful.")
    sql(
        'INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, fooled, status) '
        'SELECT gen_random_uuid(), round, context, "user", input, model_output, model_name, fooled, status '
        f"FROM examples, generate_series(1, {total - 1}) WHERE status = 'open'"
    )


def test_a_validator_votes_through_more_than_a_page_and_never_sees_none_until_the_last(
    api, app_url, launch, profile, target_models
):
    _open_examples(api, TOTAL)  # more than the live queue's first page

    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "validator")
    page.goto(f"{app_url}/#/validate/sentiment")
    expect(page.get_by_test_id("live-state")).to_have_attribute("data-live", "live")
    count = page.get_by_test_id("queue-count")
    expect(count).to_have_text(f"({TOTAL} waiting)")
    page.evaluate(WATCH_COUNTS)

    correct = page.get_by_role("button", name="Correct", exact=True)
    seen: set[str] = set()
    for voted in range(TOTAL):
        shown = page.locator(".queue-example")
        expect(shown).to_have_count(1)
        example_id = shown.get_attribute("data-example-id")
        assert example_id not in seen, f"example {example_id} came back after the vote"
        seen.add(example_id)
        assert page.evaluate("window.__emptySeen") is False, f"'none waiting' shown after {voted} votes of {TOTAL}"
        if voted == 0:
            # The vote bar is on screen while the page shows the example from its top (a sticky bar on the phone).
            page.evaluate("window.scrollTo(0, 0)")
            box = correct.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
            assert box["height"] >= 24 and box["width"] >= 24
        correct.click()
        expect(count).to_have_attribute("data-count", str(TOTAL - voted - 1))
        if voted < TOTAL - 1:
            expect(page.locator(f'.queue-example[data-example-id="{example_id}"]')).to_have_count(0)

    expect(page.get_by_test_id("queue-empty")).to_be_visible()
    expect(count).to_have_text("(0 waiting)")
    assert len(seen) == TOTAL
    counts = page.evaluate("window.__counts")
    assert all(later <= earlier for earlier, later in pairwise(counts)), f"the count went back up: {counts}"
    expect(page.get_by_test_id("vote-notice")).to_contain_text("is stored")
    votes = sql("SELECT count(DISTINCT example) AS n FROM validations")[0]["n"]
    assert votes == TOTAL


def _refill_with_a_count(message: str | bytes) -> bool:
    """A live queue update refilling the window with the absolute count (read when it was sent)."""
    update = (json.loads(message).get("payload") or {}).get("data", {}).get("examplesToValidate") or {}
    return bool(update.get("waiting")) and not update.get("reset") and bool(update.get("removedIds"))


def test_a_count_sent_before_the_next_vote_was_stored_does_not_bring_that_vote_back(api, app_url, launch, profile, target_models):
    # 21 examples: the live queue sends 20 and counts the 21st; after 11 votes it refills with an absolute count, read
    # when the 11th vote's removal was sent. That message (and all after it) is held back here until the 12th vote is
    # stored, as a slow link would: its count predates the 12th vote and must not bring it back (10 waiting, then 9).
    total = 21
    _open_examples(api, total)
    context = launch(profile, viewport=PHONE)
    link: dict = {"page_side": None, "holding": False, "seen": False, "held": []}

    def relay(ws) -> None:
        link["page_side"] = ws
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if not link["seen"] and _refill_with_a_count(message):
                link["holding"] = link["seen"] = True
            if link["holding"]:
                link["held"].append(message)
            else:
                ws.send(message)

        server.on_message(from_server)

    context.route_web_socket("**/graphql", relay)
    page = context.new_page()
    sign_up(page, app_url, "validator")
    page.goto(f"{app_url}/#/validate/sentiment")
    expect(page.get_by_test_id("live-state")).to_have_attribute("data-live", "live")
    count = page.get_by_test_id("queue-count")
    expect(count).to_have_attribute("data-count", str(total))
    page.evaluate(WATCH_COUNTS)
    correct = page.get_by_role("button", name="Correct", exact=True)

    def vote(votes: int) -> None:
        expect(page.locator(".queue-example")).to_have_count(1)
        correct.click()
        expect(count).to_have_attribute("data-count", str(total - votes))

    for votes in range(1, 12):
        vote(votes)
    for _ in range(300):  # the refill is sent once the 11th vote's event reaches the live queue
        if link["seen"]:
            break
        page.wait_for_timeout(50)
    assert link["seen"], "the live queue never refilled with a count"
    vote(12)  # stored: its answer came back over HTTP while the refill waits

    rereads = lambda response: "validationWaiting" in (response.request.post_data or "")  # noqa: E731
    with page.expect_response(rereads):
        link["holding"] = False
        for message in link["held"]:
            link["page_side"].send(message)
    expect(count).to_have_attribute("data-count", str(total - 12))
    for votes in range(13, total + 1):
        vote(votes)
    expect(page.get_by_test_id("queue-empty")).to_be_visible()
    counts = page.evaluate("window.__counts")
    assert all(later <= earlier for earlier, later in pairwise(counts)), f"the count went back up: {counts}"
