"""Browser tests of the PWA: Debian's chromium driven by pytest-playwright's sync API.

The API process is started once per session (tests/conftest.py `stack`) and serves pwa/dist only if
it existed at that moment, so the PWA must be built before pytest starts:
    (cd pwa && npm install && npm run build)
Each test gets its own browser profile (a persistent context, as an installed PWA would have).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
PWA_DIST = ROOT / "pwa" / "dist"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# pytest-playwright must never try to download browsers: we use the system chromium.
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


@pytest.fixture(scope="session")
def pwa_built() -> Path:
    if not (PWA_DIST / "index.html").exists():
        pytest.fail(f"{PWA_DIST}/index.html is missing: run `cd pwa && npm install && npm run build` before pytest.")
    return PWA_DIST


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not (shutil.which(CHROMIUM) or Path(CHROMIUM).exists()):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (scripts/test.sh does it).")
    return CHROMIUM


@pytest.fixture(scope="session")
def app_url(stack, pwa_built) -> str:
    """The API's origin, checked to serve the built PWA (the API was started after the build)."""
    response = httpx.get(stack.api_url + "/", timeout=10)
    if response.status_code != 200 or 'rel="manifest"' not in response.text:
        pytest.fail(
            f"The API at {stack.api_url} does not serve pwa/dist (HTTP {response.status_code}); "
            "it was probably started before the PWA was built. Build the PWA, then start pytest."
        )
    return stack.api_url


@pytest.fixture
def pw(api, chromium_path) -> Iterator[Playwright]:
    """Playwright's sync API, started per test *after* `api` truncated the tables.

    The sync API keeps an asyncio loop marked as running on this thread while it is started, so
    `asyncio.run` (tests.conftest.run_sql, seed_builtin_tasks) must not run here meanwhile: tests
    call them through helpers.sql / helpers.seed, which use a worker thread.
    """
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture
def launch(pw, chromium_path) -> Iterator[Callable]:
    """launch(profile_dir, **options) → a persistent chromium context; all are closed after the test, which fails if
    the browser refused anything under the server's Content-Security-Policy (server/core/security_headers.py)."""
    opened = []
    refused: list[str] = []

    def note_csp(message) -> None:
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    def _launch(profile: Path, **options):
        options.setdefault("viewport", {"width": 1280, "height": 800})
        context = pw.chromium.launch_persistent_context(
            str(profile),
            executable_path=chromium_path,
            args=CHROMIUM_ARGS,
            headless=True,
            service_workers="allow",
            **options,
        )
        context.set_default_timeout(30_000)
        context.on("console", note_csp)
        opened.append(context)
        return context

    yield _launch
    for context in opened:
        try:
            for page in context.pages:
                page.goto("about:blank")  # an offline page left open would let a request escape on close
            context.close()
        except Exception:  # noqa: BLE001 — teardown: a context that died with its browser has nothing left to close
            pass
    assert refused == [], refused


@pytest.fixture
def profile(tmp_path) -> Path:
    return tmp_path / "chromium-profile"
