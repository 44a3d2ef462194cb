"""Annotation form components in the PWA (phone viewport): a task using every field type, filled in and
submitted; the model's verdict; the follow-up field asked because the model was fooled; then a validator's
"incorrect" vote with its corrected label. The values are checked in the round's export; axe finds nothing."""

from __future__ import annotations

import copy
import json

import httpx
import pytest
from playwright.sync_api import expect

from server.tasks.builtin import BUILTIN_TASKS
from tests.browser.helpers import read_store, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
CODE = "formparts"
PROMPT = "Write about a film you saw last weekend."
STATEMENT = "The film was a delight from start to finish."
FIELDS = [
    {"name": "statement", "max_length": 1000},
    {"name": "topic", "type": "single_label", "choices": ["food", "film", "other"], "help": "What is it about?"},
    {"name": "tags", "type": "multi_label", "choices": ["irony", "negation", "slang"], "min_selected": 1, "max_selected": 2},
    {"name": "intensity", "type": "number", "min": 0, "max": 10, "step": 1, "widget": "slider"},
    {"name": "word_count", "type": "number", "min": 1, "max": 100, "display_name": "Words"},
    {
        "name": "register",
        "type": "dropdown",
        "choices": [{"value": "formal", "label": "Formal"}, {"value": "casual", "label": "Casual"}],
    },
    {"name": "confidence", "type": "rating", "scale": 5},
    {"name": "sarcastic", "type": "boolean", "display_name": "It is sarcastic"},
    {"name": "notes", "type": "multiline_text", "required": False, "help": "Anything a validator should know."},
    {"name": "cue", "type": "span", "span_of": "context", "display_name": "Cue in the prompt"},
    {
        "name": "why_fooled",
        "type": "multiline_text",
        "show_when": "fooled",
        "required": True,
        "display_name": "Why did it fool the model?",
    },
    {"name": "why_not", "type": "text", "show_when": "not_fooled", "display_name": "Why did it not fool the model?"},
]
VALIDATOR_FIELDS = [
    {
        "name": "corrected_label",
        "type": "single_label",
        "choices": ["negative", "positive", "neutral"],
        "show_when": "incorrect",
        "required": True,
        "display_name": "The right label",
    }
]
SANDBOX = """mutation($i: CreateExampleInput!) { createExample(input: $i) {
  __typename ... on ExampleSubmitted { predictions { label } } ... on InputError { fields { field message } } ... on Error { message } } }"""
EXPORT = """mutation($r: ID!) { exportRound(roundId: $r, format: JSONL) { __typename ... on RoundExport { url } ... on Error { message } } }"""


def _config() -> dict:
    config = copy.deepcopy(next(t["config"] for t in BUILTIN_TASKS if t["code"] == "sentiment"))
    return {**config, "input_fields": FIELDS, "validator_fields": VALIDATOR_FIELDS}


def _task(api, target: str) -> tuple[str, str, str]:
    """An admin's task with every component, its round on the sentiment model and one context."""
    owner = api.sign_up("form-owner")
    sql("UPDATE users SET is_admin = true WHERE username = 'form-owner'")
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on InputError { fields { field message } } "
        "... on Error { message } } }",
        {"i": {"code": CODE, "name": "Form parts", "config": _config()}},
        token=owner,
    )["createTask"]
    assert created["__typename"] == "TaskCreated", created
    opened = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on RoundCreated { round { id } } "
        "... on Error { message } } }",
        {"i": {"taskCode": CODE, "targetModels": [{"name": target}]}},
        token=owner,
    )["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    round_id = opened["round"]["id"]
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": PROMPT}}]}},
        token=owner,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded", added
    return (
        owner,
        round_id,
        api("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id}, token=owner)["nextContext"]["id"],
    )


def _predicted(api, token, round_id, context_id) -> str:
    """The model's label for STATEMENT (asked in sandbox mode: nothing stored)."""
    fields = {
        "statement": STATEMENT,
        "topic": "film",
        "tags": ["irony"],
        "intensity": 7,
        "word_count": 9,
        "register": "casual",
        "confidence": 4,
        "sarcastic": True,
        "cue": {"start": PROMPT.index("a film"), "end": PROMPT.index("a film") + len("a film")},
    }
    variables = {"i": {"roundId": round_id, "contextId": context_id, "fields": fields, "label": "negative", "sandbox": True}}
    result = api(SANDBOX, variables, token=token)["createExample"]
    assert result["__typename"] == "ExampleSubmitted", result
    return result["predictions"][0]["label"]


@pytest.mark.usefixtures("axe_available")
def test_every_component_filled_submitted_followed_up_and_validated(api, app_url, launch, tmp_path, target_models):
    owner, round_id, context_id = _task(api, target_models["sentiment"])
    label = next(lab for lab in ("negative", "positive", "neutral") if lab != _predicted(api, owner, round_id, context_id))

    page = launch(tmp_path / "annotator", viewport=PHONE).new_page()
    sign_up(page, app_url, "form-ann")
    page.goto(f"{app_url}/#/tasks/{CODE}")
    form = page.locator("form.example-form")
    expect(form.get_by_label("Statement")).to_be_visible()
    expect(form.get_by_role("group", name="Why did it fool the model?")).to_have_count(0)  # asked after the verdict

    # Submitting the empty form: errors next to the fields, focus on the first invalid one.
    page.get_by_role("button", name="Submit").click()
    statement = form.get_by_label("Statement")
    expect(statement).to_be_focused()
    expect(statement).to_have_attribute("aria-invalid", "true")
    expect(form.locator('[data-field="tags"] .field-error')).to_have_text("Choose at least 1.")
    expect(form.locator('[data-field="notes"] .field-error')).to_have_count(0)  # optional
    assert axe_violations(page) == []

    statement.fill(STATEMENT)
    form.get_by_role("group", name="Topic").get_by_role("radio", name="Film").check()
    tags = form.get_by_role("group", name="Tags")
    for tag in ("Irony", "Negation", "Slang"):
        tags.get_by_role("checkbox", name=tag).check()
    page.get_by_role("button", name="Submit").click()
    expect(form.locator('[data-field="tags"] .field-error')).to_have_text("Choose at most 2.")
    tags.get_by_role("checkbox", name="Slang").uncheck()
    form.get_by_label("Intensity").fill("7")
    expect(form.locator('[data-field="intensity"] output')).to_have_text("7")
    form.get_by_label("Words").fill("250")
    form.get_by_label("Register").select_option("casual")
    form.get_by_role("radio", name="4 of 5").check()
    form.get_by_label("It is sarcastic").check()
    form.get_by_label("Notes").fill("Irony carried by one word.")
    form.get_by_label("Cue in the prompt").fill("a film")
    expect(form.locator('[data-field="cue"] mark')).to_have_text("a film")
    form.get_by_role("radio", name=label.capitalize()).check()
    page.get_by_role("button", name="Submit").click()
    words = form.get_by_label("Words")
    expect(words).to_be_focused()  # the only problem left: out of range
    expect(form.locator('[data-field="word_count"] .field-error')).to_have_text("At most 100.")
    words.fill("9")
    page.get_by_role("button", name="Submit").click()

    # The verdict, then the follow-up for a fooled model.
    verdict = page.locator(".verdict")
    expect(verdict.get_by_test_id("verdict-live").locator("[data-verdict]")).to_have_attribute(
        "data-verdict", "FOOLED", timeout=60_000
    )
    follow = page.get_by_test_id("follow-up")
    why = follow.get_by_label("Why did it fool the model?")
    expect(why).to_be_visible()
    expect(follow.get_by_label("Why did it not fool the model?")).to_have_count(0)
    follow.get_by_role("button", name="Send the answers").click()
    expect(why).to_be_focused()
    why.fill("The model reads 'delight' literally.")
    follow.get_by_role("button", name="Send the answers").click()
    expect(follow.get_by_role("status")).to_have_text("Your answers are saved with the example.")
    assert axe_violations(page) == []

    # A validator votes "incorrect" and gives the right label.
    vcontext = launch(tmp_path / "validator", viewport=PHONE)
    vpage = vcontext.new_page()
    sign_up(vpage, app_url, "form-val")
    vpage.goto(f"{app_url}/#/validate/{CODE}")
    example = vpage.locator(".queue-example")
    expect(example.locator('[data-field="statement"]')).to_have_text(STATEMENT)
    expect(example.locator('[data-field="confidence"]')).to_have_text("4 of 5")
    expect(example.locator('[data-field="cue"]')).to_have_text("a film")
    vpage.get_by_role("button", name="Incorrect", exact=True).click()
    fields = vpage.get_by_test_id("vote-fields")
    expect(fields.get_by_role("radio", name="Negative")).to_be_focused()
    fields.get_by_role("button", name="Send the vote").click()
    expect(fields.locator(".field-error")).to_have_text("Choose one.")
    assert axe_violations(vpage) == []
    fields.get_by_role("radio", name="Neutral").check()
    expect(fields.locator(".field-error")).to_have_count(0)  # fixed: its error goes
    # Sent offline: the vote waits in the outbox with its fields, and is stored once back online.
    vcontext.set_offline(True)
    expect(vpage.locator(".sync-status")).to_contain_text("Offline")
    fields.get_by_role("button", name="Send the vote").click()
    expect(vpage.get_by_test_id("vote-notice")).to_contain_text("saved on this device")
    [item] = read_store(vpage, "outbox")
    assert item["label"] == "INCORRECT" and item["fields"] == {"corrected_label": "neutral"}
    vcontext.set_offline(False)
    expect(vpage.get_by_test_id("vote-notice")).to_contain_text("is stored", timeout=60_000)

    # Every value, in the round's export.
    exported = api(EXPORT, {"r": round_id}, token=owner)["exportRound"]
    assert exported["__typename"] == "RoundExport", exported
    rows = [json.loads(line) for line in httpx.get(app_url + exported["url"], timeout=60).text.splitlines() if line.strip()]
    [row] = rows
    assert row["statement"] == STATEMENT and row["gold_label"] == label and row["fooled"] is True
    assert row["topic"] == "film" and row["tags"] == ["irony", "negation"]
    assert row["intensity"] == 7 and row["word_count"] == 9 and row["register"] == "casual"
    assert row["confidence"] == 4 and row["sarcastic"] is True and row["notes"] == "Irony carried by one word."
    cue = PROMPT.index("a film")
    assert row["cue"] == {"start": cue, "end": cue + len("a film"), "text": "a film"}
    assert row["why_fooled"] == "The model reads 'delight' literally." and row["why_not"] is None
    [vote] = row["validations"]
    assert vote["label"] == "incorrect" and vote["fields"] == {"corrected_label": "neutral"}
