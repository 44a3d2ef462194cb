"""The app shell is precached by the service worker: it reloads while offline (emulated, and with the
server process really gone), and no GraphQL answer is cached."""

import os
import subprocess
import sys
import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT
from tests.browser.helpers import seed, sign_up, wait_for_service_worker


def test_shell_reloads_from_the_service_worker_offline(app_url, launch, profile):
    context = launch(profile)
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(app_url + "/")
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    wait_for_service_worker(page)
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])

    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Offline").first).to_be_visible()
    # A deep link is served by the cached shell too (hash routes need no server).
    page.goto(app_url + "/#/outbox")
    expect(page.locator("header.topbar")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "en"

    cached = page.evaluate("""async () => {
      const urls = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls;
    }""")
    assert any(url.endswith("/index.html") or "index.html" in url for url in cached), cached
    assert not any("/graphql" in url for url in cached), cached
    page.goto("about:blank")


def _wait_for_health(origin: str, process: subprocess.Popen, log_path) -> None:
    """Poll the spawned API's /health until it answers 200 (failing at once if the process exits)."""
    deadline = time.monotonic() + 180  # a guard against hanging, not an assertion about speed
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the second API exited with {process.returncode}:\n{log_path.read_text(errors='replace')[-3000:]}")
        try:
            if httpx.get(origin + "/health", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    pytest.fail(f"the second API never became healthy:\n{log_path.read_text(errors='replace')[-3000:]}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_shell_reloads_from_the_service_worker_with_the_server_killed(stack, pwa_built, api, launch, profile, tmp_path):
    """Not offline emulation: the origin's server process is terminated, and the shell still loads."""
    from server.runtime import free_port

    seed()
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "second-api.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            env={**os.environ, **stack.env},
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_for_health(origin, process, log_path)
            context = launch(profile)
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(origin + "/")
            expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
            wait_for_service_worker(page)
            sign_up(page, origin, "shell-user")
            expect(page.locator('[data-task="sentiment"]')).to_contain_text("Sentiment analysis")
            expect(page.get_by_role("status").filter(has_text="Online").first).to_be_visible()

            process.terminate()
            process.wait(timeout=60)
            assert process.returncode is not None
            with pytest.raises(httpx.TransportError):
                httpx.get(origin + "/health", timeout=5)  # nothing listens on the origin any more

            page.reload()
            expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()
            expect(page.locator("header.topbar")).to_be_visible()
            # The failed task-list request marks the API unreachable; the list comes from IndexedDB.
            expect(page.get_by_role("status").filter(has_text="Offline").first).to_be_visible()
            expect(page.get_by_text("Showing the saved list")).to_be_visible()
            expect(page.locator('[data-task="sentiment"]')).to_contain_text("Sentiment analysis")
            # Signed out, the cached shell shows the log-in page, again without any server.
            page.evaluate("() => localStorage.clear()")
            page.reload()
            expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
            expect(page.get_by_role("button", name="Create an account")).to_be_visible()
            page.goto("about:blank")
        finally:
            _stop(process)
