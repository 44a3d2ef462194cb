"""Creating a task in the browser (issue #18): a new, non-admin owner fills the form beside its live preview, picks a
served target model (readiness shown), and gets a proposal with its first round open; another owner creates one from
the template in the "Advanced: JSON" editor. Errors, from the form's own checks or the server's field paths, show
next to their control with focus there; JSON syntax errors name the line. Phone viewport, plus one desktop layout check."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _open_form(page: Page, app_url: str) -> None:
    page.goto(app_url + "/#/owner")
    page.get_by_test_id("new-task-link").click()
    expect(page.get_by_role("heading", level=1, name="Create a task")).to_be_visible()


@pytest.mark.usefixtures("axe_available")
def test_a_new_owner_creates_a_task_from_the_form_with_a_served_model(app_url, launch, profile, community_model, target_models):
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "form-owner")
    _open_form(page, app_url)

    # The served models, with readiness: the operator's model is ready and chosen; the built-in task's own model is
    # listed but cannot be chosen by a non-admin.
    community = page.get_by_test_id(f"served-{community_model}")
    expect(community).to_have_attribute("data-ready", "true")
    expect(community).to_contain_text("held-out accuracy")
    expect(community.get_by_role("radio")).to_be_checked()
    builtin = page.get_by_test_id(f"served-{target_models['sentiment']}")
    expect(builtin.get_by_test_id("served-reason")).to_contain_text("belongs to the built-in task 'sentiment'")
    expect(builtin.get_by_test_id("served-reason")).to_contain_text("until an admin shares it with every task owner")
    expect(page.get_by_test_id("no-usable-models")).to_have_count(0)  # the operator's model can be chosen
    expect(builtin.get_by_role("radio")).to_be_disabled()

    page.get_by_label("Code").fill("form_sentiment")
    page.get_by_label("Name", exact=True).fill("Form sentiment")
    page.get_by_label("Instructions (markdown)").fill("Write a sentence the model gets wrong.\n\nKeep it short.")
    page.get_by_role("button", name="Preview the instructions").click()
    expect(page.locator("#ct-instructions-preview")).to_contain_text("Keep it short.")

    # The live preview follows the form: the input field's display name, the labels as radio buttons.
    first_input = page.get_by_test_id("ct-input-0-row")
    first_input.get_by_label("Display name").fill("Your sentence")
    preview = page.get_by_test_id("task-preview")
    expect(preview.get_by_label("Your sentence")).to_be_visible()
    expect(preview.get_by_role("radio", name="Neutral")).to_be_visible()
    # A second input field of another type (a list of choices), asked always: the preview shows its component.
    page.get_by_role("button", name="Add an input field").click()
    second = page.get_by_test_id("ct-input-1-row")
    second.get_by_label("Field name").fill("topic")
    second.get_by_label("Type").select_option(label="One choice (list)")
    second.get_by_label("Choices (comma-separated)").fill("films, food")
    expect(preview.get_by_role("combobox", name="Topic")).to_be_visible()
    expect(second).to_contain_text("Not sent to the model")
    # Phone: the preview is below the form.
    form_box = page.locator("#create-task-form").bounding_box()
    assert preview.bounding_box()["y"] >= form_box["y"] + form_box["height"] - 1

    # A bad field (the form's own check): its error is next to it and focus moves there.
    page.get_by_label("Labels (comma-separated)").fill("only_one")
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#ct-labels-error")).to_have_text("A classification task needs at least two labels.")
    expect(page.get_by_label("Labels (comma-separated)")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#ct-labels")).to_be_focused()
    page.get_by_role("button", name="Use its labels").click()  # the chosen model's labels
    expect(page.get_by_label("Labels (comma-separated)")).to_have_value("negative, positive, neutral")

    # A bad field the server finds (its InputError path config.validation.num_matching_validations).
    page.get_by_label("Matching validations needed").fill("30")
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#ct-votes-error")).to_contain_text("25")
    expect(page.locator("#ct-votes")).to_be_focused()
    assert sql("SELECT count(*) AS n FROM tasks WHERE code = 'form_sentiment'") == [{"n": 0}]
    assert axe_violations(page) == []  # with errors shown

    page.get_by_label("Matching validations needed").fill("2")
    page.get_by_role("button", name="Create task").click()
    status = page.get_by_test_id("create-task-status")
    expect(status).to_contain_text("Task “Form sentiment” created as a proposal")
    expect(status).to_contain_text("Round 1 is open.")
    [task] = sql("SELECT status, config, instructions FROM tasks WHERE code = 'form_sentiment'")
    config = json.loads(task["config"]) if isinstance(task["config"], str) else task["config"]
    assert task["status"] == "PROPOSED"
    assert config["labels"] == ["negative", "positive", "neutral"]
    assert config["validation"]["num_matching_validations"] == 2
    assert config["input_fields"][0]["display_name"] == "Your sentence"
    assert config["input_fields"][1] | {"type": "dropdown"} == config["input_fields"][1]
    assert [c["value"] for c in config["input_fields"][1]["choices"]] == ["films", "food"]
    assert config["model_inputs"] == ["statement"]
    [round_row] = sql(
        "SELECT r.number, r.end_at, r.target_models::text AS targets FROM rounds r JOIN tasks k ON r.task = k.id "
        "WHERE k.code = 'form_sentiment'"
    )
    assert round_row["number"] == 1 and round_row["end_at"] is None and community_model in round_row["targets"]

    # The proposal is the owner's, with its round open.
    page.get_by_role("link", name="Go to “Form sentiment”").click()
    expect(page.get_by_role("heading", level=1, name="Form sentiment")).to_be_visible()
    expect(page.get_by_test_id("round-1-state")).to_have_text("Open")
    assert axe_violations(page) == []

    # Desktop: the preview stands beside the form.
    desktop = launch(profile.parent / "desktop-profile", viewport=DESKTOP).new_page()
    sign_up(desktop, app_url, "form-owner-desktop")
    _open_form(desktop, app_url)
    form_box = desktop.locator("#create-task-form").bounding_box()
    preview_box = desktop.get_by_test_id("task-preview").bounding_box()
    assert preview_box["x"] >= form_box["x"] + form_box["width"] - 1
    assert preview_box["y"] < form_box["y"] + form_box["height"]


@pytest.mark.usefixtures("axe_available")
def test_an_owner_creates_a_task_from_the_json_template(app_url, launch, profile, community_model):
    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "json-owner")
    _open_form(page, app_url)
    page.get_by_label("Code").fill("json_sentiment")
    page.get_by_label("Name", exact=True).fill("JSON sentiment")
    page.get_by_role("button", name="Advanced: JSON").click()
    editor = page.get_by_label("Config (JSON)")
    template = editor.input_value()
    assert json.loads(template)["kind"] == "classification"

    # A syntax error names its line, next to the editor; the form cannot come back meanwhile.
    broken = template.replace('"kind": "classification",', '"kind": "classification"', 1)
    editor.fill(broken)
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if '"context_fields"' in text)
    expect(page.locator("#ct-json-syntax")).to_contain_text(f"line {line}")
    expect(page.get_by_role("button", name="Back to the form")).to_be_disabled()
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#ct-json-error")).to_contain_text(f"line {line}")
    expect(page.locator("#ct-json")).to_be_focused()

    # A config the server refuses: its errors show next to the editor, focus in it.
    one_label = json.loads(template) | {"labels": ["only"]}
    editor.fill(json.dumps(one_label, indent=2))
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#ct-json-error")).to_contain_text("at least two labels")
    expect(page.locator("#ct-json")).to_be_focused()

    # Valid JSON goes back to the form, which shows it; the template itself is accepted as it is.
    editor.fill(json.dumps(json.loads(template) | {"labels": ["yes", "no"]}, indent=2))
    page.get_by_role("button", name="Back to the form").click()
    expect(page.get_by_label("Labels (comma-separated)")).to_have_value("yes, no")
    page.get_by_role("button", name="Advanced: JSON").click()
    editor.fill(template)
    expect(page.get_by_test_id(f"served-{community_model}").get_by_role("radio")).to_be_checked()
    assert axe_violations(page) == []
    page.get_by_role("button", name="Create task").click()
    expect(page.get_by_test_id("create-task-status")).to_contain_text("Round 1 is open.")
    [task] = sql("SELECT status, config FROM tasks WHERE code = 'json_sentiment'")
    stored = json.loads(task["config"]) if isinstance(task["config"], str) else task["config"]
    assert task["status"] == "PROPOSED"
    assert {k: stored[k] for k in ("kind", "labels", "model_inputs")} == {
        k: json.loads(template)[k] for k in ("kind", "labels", "model_inputs")
    }
