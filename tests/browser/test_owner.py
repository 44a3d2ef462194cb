"""Task owners in the browser: create a task from a JSON config, open a round on a loaded model, add
contexts, export the round (a same-origin download link) and close it."""

from __future__ import annotations

import copy
import json
import uuid
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

CODE = "owned_sentiment"
NAME = "Owned sentiment"
TEXT = "The owner's export must carry exactly this sentence."

CREATE = """mutation($i: CreateExampleInput!) { createExample(input: $i) {
  __typename ... on ExampleSubmitted { example { id } } ... on Error { code message } } }"""
ROUND = """query($code: String!) { task(code: $code) { currentRound { id number endAt } } }"""
NEXT_CONTEXT = "query($r: ID!) { nextContext(roundId: $r) { id fields } }"


def sentiment_config() -> dict:
    from server.tasks.builtin import BUILTIN_TASKS

    return copy.deepcopy(next(spec["config"] for spec in BUILTIN_TASKS if spec["code"] == "sentiment"))


def create_task_in_the_owner_pages(page, app_url: str, code: str, name: str) -> None:
    """A task from a JSON config (the built-in sentiment config under a new code), in the task creation page's
    "Advanced: JSON" editor, without a first round (tests/browser/test_task_create.py covers that); ends on its
    owner page."""
    page.goto(app_url + "/#/owner")
    expect(page.get_by_role("heading", level=1, name="Your tasks")).to_be_visible()
    page.get_by_test_id("new-task-link").click()
    page.get_by_label("Code", exact=True).fill(code)
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_role("button", name="Advanced: JSON").click()
    page.get_by_label("Config (JSON)").fill(json.dumps(sentiment_config(), indent=2))
    page.get_by_role("radio", name="No model now: open a round later").check()
    page.get_by_role("button", name="Create task").click()
    expect(page.get_by_test_id("create-task-status")).to_contain_text(f"Task “{name}” created")
    page.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()


@pytest.mark.usefixtures("axe_available")
def test_owner_creates_a_task_opens_a_round_exports_it_and_closes_it(api, app_url, launch, profile, target_models):
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "round-owner")
    sql("UPDATE users SET is_admin = true WHERE username = 'round-owner'")

    create_task_in_the_owner_pages(page, app_url, CODE, NAME)
    expect(page.get_by_role("heading", name="Rounds")).to_be_visible()

    # A round whose target is the loaded sentiment model, then two contexts.
    page.get_by_role("checkbox", name=target_models["sentiment"], exact=True).check()
    page.get_by_role("button", name="Open round").click()
    expect(page.get_by_test_id("round-status")).to_have_text("Round 1 is open.")
    expect(page.get_by_test_id("round-1-state")).to_have_text("Open")
    [opened] = sql("SELECT r.target_models::text AS targets FROM rounds r JOIN tasks k ON r.task = k.id WHERE k.code = $1", CODE)
    assert target_models["sentiment"] in opened["targets"]
    page.get_by_label("Contexts, one JSON object per line").fill(
        '{"fields": {"context": "Write about a film you saw."}, "tag": "films"}\n{"context": "Write about a meal."}'
    )
    page.get_by_role("button", name="Add contexts").click()
    expect(page.get_by_test_id("contexts-status")).to_have_text("2 contexts added to round 1.")

    # One example, written through GraphQL by someone else.
    author = api.sign_up("round-author")
    round_id = api(ROUND, {"code": CODE})["task"]["currentRound"]["id"]
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    created = api(
        CREATE,
        {
            "i": {
                "roundId": round_id,
                "contextId": context_id,
                "fields": {"statement": TEXT},
                "label": "positive",
                "clientId": str(uuid.uuid4()),
            }
        },
        token=author,
    )["createExample"]
    assert created["__typename"] == "ExampleSubmitted", created

    # Export as JSONL: the page offers a same-origin download link; following it downloads the round.
    round_item = page.get_by_test_id("round-1")
    expect(round_item.get_by_label("Format of the round 1 export")).to_have_value("JSONL")
    round_item.get_by_role("button", name="Export round 1").click()
    link = round_item.get_by_role("link", name="Download round 1 (JSONL)")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href.startswith("/exports/"), href
    assert link.get_attribute("download") == f"{CODE}-round-1.jsonl"
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.failure() is None
    # The server's Content-Disposition names the file (it takes precedence over the attribute's fallback).
    assert download.suggested_filename == f"{CODE}-round-1.jsonl"
    lines = [json.loads(line) for line in Path(download.path()).read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) == 1, lines
    row = lines[0]
    assert (row["sentence"], row["statement"], row["gold_label"]) == (TEXT, TEXT, "positive")
    assert (row["task"], row["round"]) == (CODE, 1)
    assert row["model"]["name"] == target_models["sentiment"]
    assert row["prompt_data"]["context_id"] is not None
    # The link itself is the credential: a plain HTTP client without a token gets the same rows.
    fetched = httpx.get(app_url + href, timeout=60)
    assert fetched.status_code == 200
    assert [json.loads(line) for line in fetched.text.splitlines() if line.strip()] == lines

    # Choosing another format drops the JSONL link; exporting again offers the HF-datasets archive.
    round_item.get_by_label("Format of the round 1 export").select_option("HF_DATASET")
    expect(round_item.get_by_role("link", name="Download round 1 (JSONL)")).to_have_count(0)
    round_item.get_by_role("button", name="Export round 1").click()
    hf_link = round_item.get_by_role("link", name="Download round 1 (HF dataset (tar.gz))")
    expect(hf_link).to_be_visible()
    assert hf_link.get_attribute("download") == f"{CODE}-round-1-hf.tar.gz"
    archive = httpx.get(app_url + hf_link.get_attribute("href"), timeout=120)
    assert archive.status_code == 200
    assert archive.content[:2] == b"\x1f\x8b"  # gzip

    # Close the round (with a confirmation step): the UI shows it closed, the DB has end_at, writing is refused.
    round_item.get_by_role("button", name="Close round 1").click()
    expect(round_item.get_by_role("group", name="Confirm closing round 1")).to_be_visible()
    assert axe_violations(page) == []  # with the download link and the confirmation shown
    round_item.get_by_role("button", name="Cancel").click()
    expect(page.get_by_test_id("round-1-state")).to_have_text("Open")
    assert sql("SELECT r.end_at FROM rounds r JOIN tasks k ON r.task = k.id WHERE k.code = $1", CODE)[0]["end_at"] is None
    round_item.get_by_role("button", name="Close round 1").click()
    round_item.get_by_role("button", name="Yes, close round 1").click()
    expect(page.get_by_test_id("round-1-status")).to_have_text("Round 1 is closed: it takes no new examples.")
    expect(page.get_by_test_id("round-1-state")).to_contain_text("Closed")
    expect(round_item.get_by_role("button", name="Close round 1")).to_have_count(0)
    [stored] = sql("SELECT r.end_at FROM rounds r JOIN tasks k ON r.task = k.id WHERE k.code = $1", CODE)
    assert stored["end_at"] is not None
    assert api(ROUND, {"code": CODE})["task"]["currentRound"]["endAt"] is not None
    refused = api(
        CREATE,
        {
            "i": {
                "roundId": round_id,
                "contextId": context_id,
                "fields": {"statement": "Too late."},
                "label": "negative",
                "clientId": str(uuid.uuid4()),
            }
        },
        token=author,
    )["createExample"]
    assert refused["__typename"] == "RoundClosedError", refused

    # After a reload the state comes from the server: still closed, and it can still be exported.
    page.reload()
    expect(page.get_by_test_id("round-1-state")).to_contain_text("Closed")
    expect(page.get_by_test_id("round-1").get_by_role("button", name="Close round 1")).to_have_count(0)
    expect(page.get_by_test_id("round-1").get_by_role("button", name="Export round 1")).to_be_enabled()
