"""Issue #19, the models pages for researchers: on a 390x844 phone nothing is wider than the screen (a long model
name, an unbroken token in a crash log, the scores table), the scores table is usable there (each row a block of
labelled values) and a real table on a desktop; a crash log shows neither the internal Triton name nor the
temporary folder Triton wrote the model's files into."""

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LONG_NAME = "distilroberta-base-finetuned-on-sst2-and-dynasent-round1-round2-with-adversarial-augmentation-v3"
# What a failed load stored before the log was scrubbed (the raw text of Triton's python backend).
RAW_CRASH = (
    "Triton refused to load the model: load failed for model 'submission_5_ab12cd34': version 1 is at UNAVAILABLE "
    "state: Internal: ValueError: checkpoint_tensor_shape_mismatch_expected_[768,2]_got_[1024,3]_in_classifier.out_proj."
    "weight_for_every_layer\n\nAt:\n  /tmp/folderh5IFGa/1/model.py(90): initialize\n"
)


def _models(owner: str) -> dict[str, int]:
    [user] = sql("SELECT id FROM users WHERE username = $1", owner)
    [task] = sql("SELECT id FROM tasks WHERE code = 'sentiment'")
    log = [
        {"at": "2026-11-24T10:00:00+00:00", "status": "uploaded", "message": "The archive passed every check."},
        {"at": "2026-11-24T10:00:05+00:00", "status": "failed", "message": RAW_CRASH},
    ]
    ids = {}
    for name, status, status_log, triton in (
        ("crashing", "failed", json.dumps(log), "submission_5_ab12cd34"),
        (LONG_NAME, "evaluated", "[]", ""),
    ):
        [row] = sql(
            "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, "
            "anonymous, created_at) VALUES ($1, $2, $3, '{}', $4, $5::jsonb, $6, '1', false, false, now()) RETURNING id",
            task["id"],
            user["id"],
            name,
            status,
            status_log,
            triton,
        )
        ids[name] = row["id"]
    for dataset in ("sst2-validation-with-a-rather-long-name", "dynasent-r2"):
        [row] = sql(
            "INSERT INTO datasets (task, round, name, access, weight, created_at) VALUES ($1, NULL, $2, 'scoring', 1, now()) "
            "RETURNING id",
            task["id"],
            dataset,
        )
        sql(
            "INSERT INTO scores (model, dataset, perf, perf_by_tag, throughput, memory_gb, robustness, fairness, created_at) "
            "VALUES ($1, $2, 91.25, '{}', 412.5, 1.25, 0.875, 0.9, now())",
            ids[LONG_NAME],
            row["id"],
        )
    return ids


def _model_url(base: str, pk: int) -> str:
    from strawberry import relay

    return f"{base}/#/models/{relay.to_base64('Model', pk)}"


def _no_sideways_scrolling(page: Page) -> None:
    width = page.evaluate("window.innerWidth")
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"the page is {overflow} px wide on a {width} px screen"


@pytest.mark.usefixtures("axe_available")
def test_models_pages_fit_a_phone_and_hide_internal_names(api, app_url, launch, profile):
    seed()
    context = launch(profile, viewport=PHONE)
    page = context.new_page()
    sign_up(page, app_url, "phone-researcher")
    ids = _models("phone-researcher")

    page.goto(f"{app_url}/#/models")
    expect(page.get_by_test_id("my-models").locator("li")).to_have_count(2)
    _no_sideways_scrolling(page)
    link = page.get_by_role("link", name=LONG_NAME)
    box = link.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert axe_violations(page) == []

    # The crash log: the file inside the archive and "your model", never the Triton name or the temporary folder.
    page.goto(_model_url(app_url, ids["crashing"]))
    message = page.get_by_test_id("status-log").locator('li[data-status="failed"] .log-message')
    expect(message).to_contain_text("weight_for_every_layer")
    text = message.inner_text()
    assert "submission_" not in text and "/tmp/" not in text and "folderh5IFGa" not in text, text
    assert "load failed for your model" in text and "1/model.py(90): initialize" in text, text
    _no_sideways_scrolling(page)
    assert axe_violations(page) == []

    # The scores: each row a block of labelled values inside the screen.
    page.goto(_model_url(app_url, ids[LONG_NAME]))
    table = page.get_by_role("table")
    expect(table.get_by_role("row")).to_have_count(3)  # the header row stays in the accessibility tree
    _no_sideways_scrolling(page)
    cells = table.locator("tbody td")
    expect(cells).to_have_count(10)
    for i in range(10):
        box = cells.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (i, box)
    assert cells.first.get_attribute("data-label") == "Performance"
    label = cells.first.evaluate("cell => getComputedStyle(cell, '::before').content")
    assert label == '"Performance"', label  # shown next to its value, since the header row is hidden
    expect(cells.first).to_have_text("91.3%")
    assert axe_violations(page) == []

    # On a desktop it is a plain table with its header row.
    page.set_viewport_size(DESKTOP)
    header = table.locator("thead th")
    expect(header).to_have_count(6)
    rows = [header.nth(i).bounding_box() for i in range(6)]
    assert all(r and abs(r["y"] - rows[0]["y"]) < 1 for r in rows), rows  # one line of column headers
    _no_sideways_scrolling(page)
