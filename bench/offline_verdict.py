"""Offline provisional verdicts in the browser: agreement with the served model, and time to a verdict on a
phone-class CPU.

    .venv/bin/python bench/offline_verdict.py [--sentences 500] [--timed 60] [--profile fast|full]
        [--model-repository DIR (default: the tests' model cache when built)]

Needs a built PWA (cd pwa && npm run build) and Debian's chromium. Starts its own stack serving pwa/dist, signs up in
a headless chromium at 390×844, opens the sentiment task and presses "Prepare for offline" (the round's int8 ONNX
model, its tokenizer and onnxruntime-web's wasm go into the Cache API). Then:

1. agreement: the app's own worker chunk labels ``--sentences`` DynaSent sentences (round 1, yelp dev) in the
   browser; the served model (plain tritonclient) labels the same; the share of equal labels is printed;
2. time to a provisional verdict, unthrottled and with CDP ``Emulation.setCPUThrottlingRate`` 4 (phone-class):
   "cold" = a new worker's first answer (wasm instantiation + model and tokenizer loaded from the cache + one
   inference), "warm" = one more example to the same worker, and "UI" = Submit pressed offline → the provisional
   label shown on the annotate page. Printed as a table (p50/p99). Chromium's CPU throttling applies to pages only
   (not to workers), so the throttled rows run the same worker chunk on the page's main thread; the UI rows throttle
   the page (rendering, outbox) while the worker itself runs at full speed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, SHARED_DATA, percentile, start_stack

PWA_DIST = ROOT / "pwa" / "dist"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TEST_MODELS = ROOT / ".dynabench-test-cache" / "models"
DYNASENT = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-dev.jsonl"
PHONE = {"width": 390, "height": 844}

TIMED_WORKER = """async ({workerUrl, roundId, sentences, fresh}) => {
  const times = [];
  const labels = [];
  let worker = null;
  for (let i = 0; i < sentences.length; i++) {
    if (!worker || fresh) { if (worker) worker.terminate(); worker = new Worker(workerUrl, { type: "module" }); }
    const started = performance.now();
    const label = await new Promise((resolve, reject) => {
      worker.onmessage = (e) => e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.label);
      worker.postMessage({ id: i + 1, roundId, fields: { statement: sentences[i] } });
    });
    times.push(performance.now() - started);
    labels.push(label);
  }
  worker.terminate();
  return { times, labels };
}"""


# The worker chunk run on the page's own thread (which CDP can throttle): importing it sets window.onmessage, and
# its self.postMessage is caught. A fresh import (new query string) is a new module: wasm and model loaded again.
TIMED_MAIN_THREAD = """async ({workerUrl, roundId, sentences, fresh}) => {
  const times = [];
  const labels = [];
  const post = window.postMessage;
  let handler = null;
  for (let i = 0; i < sentences.length; i++) {
    const started = performance.now();
    if (!handler || fresh) {
      const before = window.onmessage;
      await import(`${workerUrl}?main=${i}-${Math.random()}`);
      handler = window.onmessage;
      window.onmessage = before;
    }
    const label = await new Promise((resolve, reject) => {
      window.postMessage = (m) => m.error ? reject(new Error(m.error)) : resolve(m.label);
      handler({ data: { id: i + 1, roundId, fields: { statement: sentences[i] } } });
    });
    window.postMessage = post;
    times.push(performance.now() - started);
    labels.push(label);
  }
  return { times, labels };
}"""

SHOWN_GUESS = """(previous) => {
  const card = document.querySelector("[data-testid=provisional-verdict]");
  return !!card && card.dataset.clientId !== previous && !!card.dataset.label;
}"""


def _served_labels(triton_url: str, sentences: list[str]) -> list[str]:
    import numpy as np
    import tritonclient.http as triton_http

    client = triton_http.InferenceServerClient(triton_url, network_timeout=300)
    labels: list[str] = []
    for start in range(0, len(sentences), 32):
        batch = sentences[start : start + 32]
        tensor = triton_http.InferInput("statement", [len(batch), 1], "BYTES")
        tensor.set_data_from_numpy(np.array([[s.encode()] for s in batch], dtype=np.object_))
        result = client.infer("sentiment_minilm", [tensor])
        labels.extend(v.decode() for v in result.as_numpy("label").reshape(-1))
    client.close()
    return labels


def _row(name: str, times: list[float]) -> str:
    return f"| {name:<36} | {len(times):>4} | {percentile(times, 50):9.1f} | {percentile(times, 99):9.1f} |"


def run(stack, n_agree: int, n_timed: int) -> None:
    from playwright.sync_api import expect, sync_playwright

    rows = [json.loads(line) for line in DYNASENT.read_text(encoding="utf-8").splitlines() if line.strip()]
    sentences = [r["sentence"] for r in rows[:n_agree]]
    timed = [r["sentence"] for r in rows[n_agree : n_agree + n_timed]] or sentences[:n_timed]
    [worker_file] = sorted((PWA_DIST / "assets").glob("worker-*.js"))
    worker_url = f"{stack.api_url}/assets/{worker_file.name}"
    table: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport=PHONE, service_workers="allow")
        page = context.new_page()
        page.goto(f"{stack.api_url}/#/login?mode=signup")
        page.locator("form").get_by_label("Username").fill("bench-offline")
        page.locator("form").get_by_label("Password").fill("bench offline password")
        page.locator("form").get_by_role("button", name="Create an account").click()
        expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()
        page.goto(f"{stack.api_url}/#/tasks/sentiment")
        page.get_by_test_id("offline-panel").get_by_role("button", name="Prepare for offline").click()
        expect(page.get_by_test_id("offline-ready")).to_be_visible(timeout=300_000)
        page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=60_000)
        round_id = page.evaluate(
            """async () => { const r = await fetch('/graphql', {method: 'POST', headers: {'content-type': 'application/json'},
                 body: JSON.stringify({query: '{ task(code: "sentiment") { currentRound { id } } }'})});
                 return (await r.json()).data.task.currentRound.id; }"""
        )

        # 1. agreement on n_agree sentences (one warm worker)
        result = page.evaluate(
            TIMED_WORKER, {"workerUrl": worker_url, "roundId": round_id, "sentences": sentences, "fresh": False}
        )
        served = _served_labels(stack.env["TRITON_URL"], sentences)
        agree = sum(a == b for a, b in zip(result["labels"], served, strict=True))
        table.append(_row("warm worker, no throttle", result["times"][1:]))

        # 2. times. Chromium throttles pages, not workers (Emulation.setCPUThrottlingRate on a worker's session:
        # "Operation is only supported for pages, not workers"; on the page's session the worker runs at full
        # speed). So the phone-class figures run the same worker chunk on the page's throttled main thread.
        cdp = context.new_cdp_session(page)
        cold = page.evaluate(TIMED_WORKER, {"workerUrl": worker_url, "roundId": round_id, "sentences": timed[:5], "fresh": True})
        warm = page.evaluate(TIMED_WORKER, {"workerUrl": worker_url, "roundId": round_id, "sentences": timed, "fresh": False})
        table.append(_row("cold worker (not throttled)", cold["times"]))
        table.append(_row("warm worker (not throttled)", warm["times"][1:]))
        for rate in (1, 4):
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            args = {"workerUrl": worker_url, "roundId": round_id, "sentences": timed[:5], "fresh": True}
            cold = page.evaluate(TIMED_MAIN_THREAD, args)
            warm = page.evaluate(TIMED_MAIN_THREAD, {**args, "sentences": timed, "fresh": False})
            table.append(_row(f"cold, page thread, CPU x{rate}", cold["times"]))
            table.append(_row(f"warm, page thread, CPU x{rate}", warm["times"][1:]))
            ui = []
            context.set_offline(True)
            previous = ""
            for sentence in timed[:10]:
                page.get_by_label("Statement").fill(sentence)
                page.get_by_role("radio", name="Positive").check()
                started = time.perf_counter()
                page.get_by_role("button", name="Submit").click()
                # this example's provisional label (not the previous example's card, still shown a moment)
                page.wait_for_function(SHOWN_GUESS, arg=previous, timeout=120_000)
                ui.append((time.perf_counter() - started) * 1000)
                previous = page.get_by_test_id("provisional-verdict").get_attribute("data-client-id") or ""
            context.set_offline(False)
            expect(page.get_by_test_id("pending-count")).to_have_text("0", timeout=120_000)
            table.append(_row(f"UI Submit→provisional, page x{rate}", ui))
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        browser.close()
    print(
        f"\nagreement, browser (onnxruntime-web wasm, int8) vs served model: {agree}/{len(sentences)} = {agree / len(sentences):.1%}"
    )
    print("\n| what                                 |    n |  p50 (ms) |  p99 (ms) |")
    print("|--------------------------------------|------|-----------|-----------|")
    print("\n".join(table))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--timed", type=int, default=60)
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--model-repository", type=Path, default=None)
    args = parser.parse_args()
    if not (PWA_DIST / "index.html").exists():
        print("pwa/dist is missing: cd pwa && npm run build", file=sys.stderr)
        return 2
    if not DYNASENT.exists():
        print(f"DynaSent is missing ({DYNASENT})", file=sys.stderr)
        return 2
    # Default: the tests' fast-profile models, trained on the real datasets (tests/conftest.py MODEL_CACHE).
    repository = args.model_repository
    if repository is None and (TEST_MODELS / "sentiment_minilm").exists():
        repository = TEST_MODELS
    stack = start_stack(repository, args.profile)
    try:
        run(stack, args.sentences, args.timed)
    finally:
        stack.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
