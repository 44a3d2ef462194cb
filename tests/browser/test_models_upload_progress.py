"""Issue #19: uploading a large model archive shows its progress (a progressbar with percentage and bytes, from
XMLHttpRequest upload events) and can be cancelled; a refusal reads as sentences, without an internal code in front.
The upload is throttled through the DevTools protocol so that it lasts long enough to watch (no sleeps)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
SIZE = 3_000_000  # bytes: 3.0 MB
SLOW_UPLOAD = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 250_000}
IN_FLIGHT = re.compile(r"^[1-9][0-9]?$")  # 1–99 %


@pytest.mark.usefixtures("axe_available")
def test_upload_progress_then_a_plain_refusal_then_cancel(api, app_url, launch, profile):
    seed()
    context = launch(profile, viewport=PHONE)
    page = context.new_page()
    sign_up(page, app_url, "big-uploader")
    page.goto(f"{app_url}/#/models")
    upload = page.get_by_role("button", name="Upload", exact=True)
    expect(upload).to_be_enabled()
    page.get_by_label("Task").select_option("sentiment")
    page.get_by_label("Name").fill("large model")
    big = {"name": "large-model.zip", "mimeType": "application/zip", "buffer": b"not a zip archive\n" * (SIZE // 18)}
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_UPLOAD)

    # Progress: a progressbar with its value, the percentage and the bytes; checked by axe while it moves.
    page.get_by_label("Model repository archive").set_input_files(big)
    upload.click()
    bar = page.get_by_role("progressbar", name="Upload progress")
    expect(bar).to_have_attribute("aria-valuenow", IN_FLIGHT)
    expect(bar).to_have_attribute("aria-valuemin", "0")
    expect(bar).to_have_attribute("aria-valuemax", "100")
    expect(page.get_by_test_id("upload-progress-text")).to_have_text(re.compile(r"^\d{1,3}% · [\d.]+ [kMG]B of 3\.0 MB$"))
    assert axe_violations(page) == []
    box = page.get_by_test_id("upload-progress").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box

    # Every byte sent: the server refuses the file, in sentences, with no internal code in front.
    status = page.get_by_test_id("upload-status")
    expect(status).to_have_text(re.compile(r"^The uploaded file is not an archive"), timeout=120_000)
    assert not re.match(r"^[A-Z_]{3,}:", status.inner_text())
    expect(bar).to_have_count(0)

    # Cancel while it is under way: nothing is stored and focus returns to Upload.
    page.get_by_label("Model repository archive").set_input_files(big)
    upload.click()
    expect(bar).to_have_attribute("aria-valuenow", IN_FLIGHT)
    page.get_by_role("button", name="Cancel upload").click()
    expect(status).to_have_text("Upload cancelled. Nothing was stored.")
    expect(bar).to_have_count(0)
    expect(upload).to_be_focused()
    assert sql("SELECT count(*) AS n FROM models")[0]["n"] == 0
