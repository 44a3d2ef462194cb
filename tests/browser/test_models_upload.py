"""Researchers upload a model archive from the PWA (a multipart GraphQL request) and follow its
status log live on the model's page (modelUpdated)."""

from playwright.sync_api import expect

from tests.api.models_helpers import tar_gz_of
from tests.browser.helpers import seed, sign_up, sql
from tests.conftest import MODEL_CACHE


def test_upload_refusal_then_live_status(api, app_url, launch, profile, target_models, tmp_path):
    seed()
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "researcher")
    page.goto(f"{app_url}/#/models")
    expect(page.get_by_role("button", name="Upload")).to_be_enabled()
    page.get_by_label("Task").select_option("sentiment")

    # Not an archive: the server's reason is shown, nothing is stored.
    page.get_by_label("Name").fill("not a model")
    page.get_by_label("Model repository archive").set_input_files(
        {"name": "notes.zip", "mimeType": "application/zip", "buffer": b"hello"}
    )
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_test_id("upload-status")).not_to_have_text("Uploading…")
    expect(page.get_by_test_id("upload-status")).not_to_be_empty()
    assert sql("SELECT count(*) AS n FROM models")[0]["n"] == 0

    # The real sentiment model: the page moves to the model and its status log grows live.
    archive = tmp_path / "model.tar.gz"
    archive.write_bytes(tar_gz_of(MODEL_CACHE / target_models["sentiment"]))
    page.get_by_label("Name").fill("my minilm")
    page.get_by_label("Description (model card)").fill("MiniLM fine-tuned on SST-2")
    page.get_by_label("Model repository archive").set_input_files(archive)
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_role("heading", level=1, name="my minilm")).to_be_visible(timeout=60_000)
    log = page.get_by_test_id("status-log")
    expect(log.locator('li[data-status="uploaded"]')).to_have_count(1)
    # Entries after "uploaded" arrive through the subscription, without reloading the page.
    expect(log.locator('li:not([data-status="uploaded"])').first).to_be_visible(timeout=120_000)
    [row] = sql("SELECT name, card FROM models")
    assert row["name"] == "my minilm" and "MiniLM fine-tuned" in str(row["card"])
    page.goto(f"{app_url}/#/models")
    expect(page.get_by_test_id("my-models").locator('[data-model="my minilm"]')).to_be_visible()
