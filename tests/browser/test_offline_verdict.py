"""A verdict even offline (issue #19 point 7): an annotator prepares the round's model for offline use, goes
offline, writes an example and sees the offline model's PROVISIONAL label; back online the outbox syncs it and the
server's verdict replaces it, with a note when the two differ. Then the browser's worker (onnxruntime-web, wasm)
labels ~100 real DynaSent sentences and its labels are compared with the served model's."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.api.examples_helpers import triton_predict
from tests.browser.conftest import PWA_DIST
from tests.browser.helpers import open_task, pending_count, seed, sign_up, sql, wait_for_service_worker, write_example
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)
from tests.conftest import SHARED_DATA

# Both boxes in one frame: the page may still be scrolling the verdict into view, and two separate reads of
# viewport-relative boxes would then compare positions from different moments.
ABOVE_THE_ATTEMPTS = """() => {
  const provisional = document.querySelector('[data-testid="provisional-verdict"]').getBoundingClientRect();
  const attempts = document.querySelector("section.card.verdict section.attempts").getBoundingClientRect();
  return provisional.bottom <= attempts.top + 0.5;
}"""

PHONE = {"width": 390, "height": 844}
DYNASENT = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-dev.jsonl"
N_BROWSER = 100

# Runs the app's own offline worker (the built chunk) on sentences, reading the model the page prepared.
CLASSIFY = """async ({workerUrl, roundId, sentences}) => {
  const worker = new Worker(workerUrl, { type: "module" });
  const ask = (id, fields) => new Promise((resolve, reject) => {
    const listener = (event) => {
      if (event.data.id !== id) return;
      worker.removeEventListener("message", listener);
      event.data.error ? reject(new Error(event.data.error)) : resolve(event.data.label);
    };
    worker.addEventListener("message", listener);
    worker.postMessage({ id, roundId, fields });
  });
  const labels = [];
  for (let i = 0; i < sentences.length; i++) labels.push(await ask(i + 1, { statement: sentences[i] }));
  worker.terminate();
  return labels;
}"""


def worker_url(base: str) -> str:
    [worker] = sorted((PWA_DIST / "assets").glob("worker-*.js"))
    return f"{base}/assets/{worker.name}"


# "Download: 36.2 MB (model 22.6 MB + offline runtime 13.6 MB)": the total, and what it is made of.
DOWNLOAD = re.compile(r"^Download: ([\d.]+) MB \(model ([\d.]+) MB \+ offline runtime ([\d.]+) MB\)$")


def prepare(page: Page) -> None:
    """Prepare the round's model; the size shown before is the one shown after, and what the device then keeps."""
    panel = page.get_by_test_id("offline-panel")
    expect(panel).to_be_visible()
    size = page.get_by_test_id("offline-size")
    expect(size).to_have_text(DOWNLOAD)
    before = size.inner_text()
    total, model, runtime = (float(n) for n in DOWNLOAD.match(before).groups())
    assert abs(total - (model + runtime)) <= 0.11
    panel.get_by_role("button", name="Prepare for offline").click()
    expect(page.get_by_test_id("offline-ready")).to_contain_text("Ready offline", timeout=120_000)
    expect(size).to_have_text(before)
    expect(page.get_by_test_id("offline-ready")).to_have_text(f"Ready offline. Stored on this device: {total:.1f} MB")


def round_id() -> str:
    import base64

    [row] = sql("SELECT r.id FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment' AND r.end_at IS NULL")
    return base64.b64encode(f"Round:{row['id']}".encode()).decode()


@pytest.mark.usefixtures("axe_available")
def test_a_provisional_verdict_offline_then_the_servers(api, app_url, launch, profile, target_models):
    seed()
    context = launch(profile, viewport=PHONE)
    page = context.new_page()
    sign_up(page, app_url, "offline-verdict")
    open_task(page, app_url, "sentiment")
    wait_for_service_worker(page)
    prepare(page)
    assert axe_violations(page) == []

    context.set_offline(True)
    expect(page.locator(".sync-status")).to_contain_text("Offline")
    write_example(page, "The waiter was rude and the soup was cold.", "Positive")
    page.get_by_role("button", name="Submit").click()
    expect(pending_count(page)).to_have_text("1")
    provisional = page.get_by_test_id("provisional-verdict")
    expect(provisional).to_contain_text("Provisional: the model would probably say")
    expect(provisional).to_contain_text("the offline model's guess; the server's verdict comes when this example syncs")
    guess = provisional.get_attribute("data-label")
    assert guess in ("negative", "positive", "neutral")
    box = provisional.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]
    # Where the writer looks: in the verdict card, right under "saved", above the attempts (newest first).
    verdict_card = page.locator("section.card.verdict")
    expect(verdict_card.get_by_test_id("provisional-verdict")).to_be_visible()
    attempts = verdict_card.locator("section.attempts")
    expect(attempts).to_be_visible()
    assert page.evaluate(ABOVE_THE_ATTEMPTS)
    # A second try offline: its guess replaces the first's, still above the (now two) attempts, in view.
    first_client_id = provisional.get_attribute("data-client-id")
    write_example(page, "The soup was cold but the waiter was lovely.", "Negative")
    page.get_by_role("button", name="Submit").click()
    expect(pending_count(page)).to_have_text("2")
    expect(page.get_by_test_id("attempt")).to_have_count(2)
    expect(provisional).not_to_have_attribute("data-client-id", first_client_id or "")
    expect(provisional).to_have_count(1)
    expect(provisional).to_contain_text("Provisional: the model would probably say")
    guess = provisional.get_attribute("data-label")
    client_id = provisional.get_attribute("data-client-id")
    assert guess in ("negative", "positive", "neutral") and client_id
    expect(provisional).to_be_in_viewport()
    assert page.evaluate(ABOVE_THE_ATTEMPTS)
    assert axe_violations(page) == []

    context.set_offline(False)
    expect(pending_count(page)).to_have_text("0", timeout=60_000)
    expect(page.get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible()
    expect(provisional).to_have_count(0)  # the server's verdict replaced the provisional one
    [row] = sql("SELECT model_output FROM examples WHERE client_id::text = $1", client_id)
    output = row["model_output"] if isinstance(row["model_output"], dict) else json.loads(row["model_output"])
    server = output["label"]
    compare = page.get_by_test_id("offline-compare")
    expect(compare).to_have_attribute("data-comparison", "agree" if server == guess else "differ")
    if server != guess:
        expect(compare).to_contain_text("The server's verdict is the one that counts")


def test_browser_labels_agree_with_the_served_model(api, app_url, launch, profile, stack, target_models):
    if not DYNASENT.exists():
        pytest.skip(f"DynaSent is absent ({DYNASENT}): the agreement is measured on its sentences")
    seed()
    context = launch(profile, viewport=PHONE)
    page = context.new_page()
    sign_up(page, app_url, "offline-agree")
    open_task(page, app_url, "sentiment")
    prepare(page)
    rows = [json.loads(line) for line in DYNASENT.read_text(encoding="utf-8").splitlines() if line.strip()]
    sentences = [r["sentence"] for r in rows[:N_BROWSER]]
    browser = page.evaluate(CLASSIFY, {"workerUrl": worker_url(app_url), "roundId": round_id(), "sentences": sentences})
    served = [triton_predict(stack.env["TRITON_URL"], target_models["sentiment"], {"statement": s})[0] for s in sentences]
    agreement = sum(a == b for a, b in zip(browser, served, strict=True)) / len(sentences)
    print(f"\nbrowser (onnxruntime-web, int8) vs served model, {N_BROWSER} DynaSent sentences: {agreement:.1%}")
    assert agreement >= 0.98


# Makes the device's record of the prepared model look like an earlier version's (as after a retrain).
AGE_RECORD = """async (roundId) => {
  const cache = await caches.open("dynabench-offline-models-v1");
  const url = "/__offline/prepared/" + encodeURIComponent(roundId);
  const record = await (await cache.match(url)).json();
  record.model.version = "0";
  await cache.put(url, new Response(JSON.stringify(record), { headers: { "content-type": "application/json" } }));
}"""


def test_an_outdated_offline_model_is_offered_again(api, app_url, launch, profile, target_models):
    seed()
    context = launch(profile, viewport=PHONE)
    page = context.new_page()
    sign_up(page, app_url, "offline-outdated")
    open_task(page, app_url, "sentiment")
    prepare(page)
    expect(page.get_by_test_id("offline-outdated")).to_have_count(0)
    page.evaluate(AGE_RECORD, round_id())
    page.reload()
    outdated = page.get_by_test_id("offline-outdated")
    expect(outdated).to_contain_text("A newer model is available")
    expect(page.get_by_test_id("offline-ready")).to_be_visible()  # the old copy still answers meanwhile
    page.get_by_role("button", name="Download the newer model").click()
    expect(outdated).to_have_count(0, timeout=120_000)
    expect(page.get_by_test_id("offline-ready")).to_be_visible()
