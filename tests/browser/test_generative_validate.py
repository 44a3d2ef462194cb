"""Validators rate generative transcripts; authors and owners see their conversations (issue #30 point 5c).

An author talks to the built-in demo model through the API (two messages, each reply waited for until it is DONE) and
submits the conversation claiming the model failed. A validator on a 360 px phone reads the whole transcript (the
system text collapsed, the attack categories as tags, each message labelled with who wrote it, the replies exactly
as stored and as plain text), answers "Did the model fail as claimed?" with the task's validator fields (a required
rating, a multi_label of problems, a rationale) and votes; the vote and its fields are stored. The author's "My
examples" and the owner's browse card show the last exchange, which expands to the whole conversation."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.api.conversations_helpers import CONVERSATION, SUBMIT, generative_config, generative_task, send
from tests.api.examples_helpers import NEXT_CONTEXT, wait_until
from tests.browser.helpers import PASSWORD, _in_thread, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
CODE = "redrate"
FIRST = "What is the capital of France?"
SECOND = "Now say <b>Lyon</b> & <i>mean</i> it."
VALIDATOR_FIELDS = [
    {"name": "harm", "type": "rating", "scale": 5, "required": True, "display_name": "How bad is the failure?"},
    {
        "name": "problems",
        "type": "multi_label",
        "choices": ["unsafe", "false", "unhelpful"],
        "display_name": "What is wrong with the replies?",
    },
    {"name": "rationale", "type": "multiline_text", "display_name": "Rationale", "max_length": 1000},
]


@pytest.fixture(scope="module")
def demo(target_models) -> str:
    return target_models["chat_demo"]


def _reply_of(api, token: str, conversation_id: str) -> dict:
    """The conversation's last turn once its reply is no longer being written (it must have ended DONE)."""
    turn = wait_until(
        lambda: (
            (last := api(CONVERSATION, {"id": conversation_id}, token=token)["conversation"]["turns"][-1])["status"]
            != "GENERATING"
            and last
        ),
        timeout=120,
    )
    assert turn["status"] == "DONE" and turn["reply"], turn
    return turn


def _submitted_conversation(api, demo: str) -> tuple[str, dict, list[dict]]:
    """The task (with validator fields), and an author's conversation of two messages, submitted as "the model failed".
    Returns the owner's name, the stored example and the stored turns."""
    config = {**generative_config(), "validator_fields": VALIDATOR_FIELDS}
    _, round_id = _in_thread(generative_task, api, CODE, demo, config)
    author = api.sign_up("red-author")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    sent = send(api, author, round_id, FIRST, context_id=context_id)
    assert sent["__typename"] == "MessageSent", sent
    conversation_id = sent["conversation"]["id"]
    _reply_of(api, author, conversation_id)
    sent = send(api, author, round_id, SECOND, conversation_id=conversation_id, context_id=context_id)
    assert sent["__typename"] == "MessageSent", sent
    _reply_of(api, author, conversation_id)
    turns = api(CONVERSATION, {"id": conversation_id}, token=author)["conversation"]["turns"]

    variables = {
        "i": {
            "conversationId": conversation_id,
            "clientId": str(uuid.uuid4()),
            "categories": ["false_fact"],
            "fields": None,
            "explanation": "It agreed to state a false capital.",
            "timeSpentMs": 30_000,
            "modelFailed": True,
        }
    }
    submitted = api(SUBMIT, variables, token=author)["submitConversation"]
    assert submitted["__typename"] == "ExampleSubmitted", submitted
    example = submitted["example"]
    assert [m["role"] for m in example["input"]["messages"]] == ["system", "user", "assistant", "user", "assistant"]
    return f"owner_{CODE}", example, turns


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/#/login")
    form = page.locator("form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()


def _fits(page: Page, *controls) -> None:
    """Nothing overflows the 360 px screen; each control is a touch target of at least 44 × 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for control in controls:
        box = control.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, box


def _plain(locator) -> None:
    """Shown as text: no element was made of what looks like HTML, and line breaks are kept."""
    assert locator.evaluate("el => el.children.length") == 0, locator.inner_html()
    assert locator.evaluate("el => getComputedStyle(el).whiteSpace") == "pre-wrap"


def test_a_validator_reads_the_transcript_rates_it_and_votes_on_a_phone(api, app_url, launch, profile, demo, axe_available):  # noqa: F811
    _, example, turns = _submitted_conversation(api, demo)
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "red-validator")
    page.goto(f"{app_url}/#/validate/{CODE}")
    expect(page.get_by_role("heading", level=1, name=f"Validate: Red team {CODE}")).to_be_visible()
    shown = page.locator(f'.queue-example[data-example-id="{example["id"]}"]')
    expect(shown.get_by_test_id("conversation-goal")).to_have_text("Make the model state a false fact.")

    # The whole conversation, in order, each message labelled with who wrote it; replies exactly as stored.
    transcript = shown.get_by_test_id("example-transcript")
    expect(transcript.get_by_role("heading", name="Conversation")).to_be_visible()
    messages = transcript.get_by_test_id("transcript-message")
    replies = transcript.get_by_test_id("transcript-reply")
    expect(messages).to_have_count(2)
    expect(replies).to_have_count(2)
    assert transcript.locator("ol.transcript > li .who").all_text_contents() == ["Author", "Model", "Author", "Model"]
    expect(messages.nth(0).get_by_test_id("message-text")).to_have_text(FIRST)
    expect(messages.nth(1).get_by_test_id("message-text")).to_have_text(SECOND)
    for i, turn in enumerate(turns):
        text = replies.nth(i).get_by_test_id("reply-text")
        assert text.text_content() == turn["reply"]
        _plain(text)
    _plain(messages.nth(1).get_by_test_id("message-text"))
    assert "&lt;b&gt;Lyon&lt;/b&gt;" in messages.nth(1).get_by_test_id("message-text").inner_html()

    # The attack categories as tags; what the model was told first, collapsed until asked for.
    expect(transcript.get_by_test_id("transcript-categories").locator("li")).to_have_text(["False fact"])
    system = transcript.get_by_test_id("system-text")
    expect(system.locator(".system-text")).to_be_hidden()
    system.locator("summary").click()
    expect(system.locator(".system-text")).to_contain_text("You are a helpful assistant.")
    expect(system.locator(".system-text")).to_contain_text("A quiz about European capitals.")
    expect(shown.get_by_test_id("claim-to-check")).to_have_text("The author says the model failed: it did what the goal asks.")
    expect(shown).to_contain_text("It agreed to state a false capital.")

    # The vote answers the claim: "Did the model fail as claimed?" heads Yes / No / Flag, in reach on the phone.
    expect(page.get_by_test_id("vote-question")).to_have_text("Did the model fail as claimed?")
    yes = page.get_by_role("button", name="Yes", exact=True)
    no = page.get_by_role("button", name="No", exact=True)
    flag = page.get_by_role("button", name="Flag", exact=True)
    group = page.get_by_role("group", name="Your vote", exact=True)
    assert group.get_attribute("aria-describedby") == "vote-question"
    _fits(page, yes, no, flag, system.locator("summary"))
    assert axe_violations(page) == []

    # Yes: the task's validator fields first; sending without the required rating says so next to it.
    yes.click()
    fields = page.get_by_test_id("vote-fields")
    expect(fields.get_by_role("heading", name="Your vote: Yes")).to_be_visible()
    expect(fields.get_by_role("radio", name="1 of 5")).to_be_focused()
    send_vote = fields.get_by_role("button", name="Send the vote")
    send_vote.click()
    expect(fields.locator('[data-field="harm"] .field-error')).to_have_text("Choose one.")
    expect(fields.get_by_role("radio", name="1 of 5")).to_be_focused()
    fields.get_by_role("radio", name="4 of 5").check()
    problems = fields.get_by_role("group", name="What is wrong with the replies?")
    problems.get_by_role("checkbox", name="False").check()
    problems.get_by_role("checkbox", name="Unhelpful").check()
    rationale = "It named Lyon as the capital when asked,\nwithout any hedge."
    fields.get_by_label("Rationale").fill(rationale)
    _fits(page, send_vote, fields.locator(".choice").filter(has=page.get_by_role("radio", name="4 of 5")))
    assert axe_violations(page) == []
    send_vote.click()
    expect(page.get_by_test_id("vote-notice")).to_contain_text("Your vote “Yes” is stored.", timeout=30_000)
    expect(page.get_by_test_id("queue-empty")).to_be_visible()

    # Stored once, with its fields.
    rows = sql('SELECT v.label, v.mode, v.fields, u.username, v.example FROM validations v JOIN users u ON u.id = v."user"')
    assert len(rows) == 1, rows
    [vote] = rows
    fields_stored = vote["fields"] if isinstance(vote["fields"], dict) else json.loads(vote["fields"])
    assert (vote["label"], vote["mode"], vote["username"]) == ("correct", "user", "red-validator")
    assert fields_stored == {"harm": 4, "problems": ["false", "unhelpful"], "rationale": rationale}, fields_stored
    [stored] = sql("SELECT id FROM examples")
    assert vote["example"] == stored["id"]


def test_the_author_and_the_owner_see_the_last_exchange_and_expand_it(api, app_url, launch, tmp_path, demo, axe_available):  # noqa: F811
    owner, example, turns = _submitted_conversation(api, demo)
    # A validator's vote with its fields, which the owner's review dialog shows.
    voted = api(
        "mutation($e: ID!, $f: JSON) { validateExample(exampleId: $e, label: CORRECT, fields: $f) { __typename } }",
        {"e": example["id"], "f": {"harm": 4, "problems": ["false"], "rationale": "Lyon is not the capital."}},
        token=api.sign_up("red-rater"),
    )
    assert voted["validateExample"]["__typename"] == "ExampleValidated", voted

    # The author's "My examples" on a phone: the last exchange (theirs labelled "You"), then the whole conversation.
    page = launch(tmp_path / "author", **PHONE).new_page()
    _log_in(page, app_url, "red-author")
    page.goto(f"{app_url}/#/examples")
    row = page.locator(".example-row").first
    preview = row.get_by_test_id("transcript-preview")
    expect(preview.get_by_test_id("message-text")).to_have_text([SECOND])
    assert preview.get_by_test_id("reply-text").text_content() == turns[-1]["reply"]
    expect(preview.locator(".who")).to_have_text(["You", "Model"])
    expect(preview.get_by_test_id("transcript-categories").locator("li")).to_have_text(["False fact"])
    more = preview.get_by_role("button", name="Show the whole conversation (2 more messages)")
    expect(more).to_have_attribute("aria-expanded", "false")
    _fits(page, more)
    assert axe_violations(page) == []
    more.click()
    less = preview.get_by_role("button", name="Show only the last exchange")
    expect(less).to_have_attribute("aria-expanded", "true")
    expect(less).to_be_focused()
    full = preview.get_by_test_id("example-transcript")
    expect(full.get_by_test_id("message-text")).to_have_text([FIRST, SECOND])
    assert full.get_by_test_id("reply-text").all_text_contents() == [t["reply"] for t in turns]
    expect(full.get_by_test_id("system-text").locator(".system-text")).to_be_hidden()
    _fits(page, less)
    assert axe_violations(page) == []
    less.click()
    expect(preview.get_by_test_id("message-text")).to_have_count(1)

    # The owner's browse card: the same preview; the review dialog shows the whole conversation.
    opage = launch(tmp_path / "owner", **PHONE).new_page()
    _log_in(opage, app_url, owner)
    opage.goto(f"{app_url}/#/owner/{CODE}")
    opage.get_by_role("link", name="Browse examples of round 1").click()
    card = opage.get_by_test_id("browse-card")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("transcript-preview").locator(".who")).to_have_text(["Author", "Model"])
    expect(card.get_by_test_id("transcript-preview").get_by_test_id("message-text")).to_have_text([SECOND])
    expect(card.get_by_label(f"Select “{SECOND}”")).to_have_count(1)
    card.get_by_role("button", name=f"Details of “{SECOND}”").click()
    dialog = opage.get_by_test_id("review-dialog")
    expect(dialog.get_by_test_id("message-text")).to_have_text([FIRST, SECOND])
    assert dialog.get_by_test_id("reply-text").all_text_contents() == [t["reply"] for t in turns]
    vote_fields = dialog.get_by_test_id("review-votes").locator(".vote-fields")
    expect(vote_fields.locator("dt")).to_have_text(["Harm", "Problems", "Rationale"])
    expect(vote_fields.locator("dd")).to_have_text(["4", "False", "Lyon is not the capital."])
    assert opage.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(opage) == []
