"""Steps the browser tests share."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import Page, expect

from tests.conftest import run_sql, seed_builtin_tasks

PASSWORD = "correct horse battery"

READ_STORE = """async (store) => await new Promise((resolve, reject) => {
  const open = indexedDB.open("dynabench");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains(store)) { db.close(); resolve([]); return; }
    const request = db.transaction(store).objectStore(store).getAll();
    request.onsuccess = () => { db.close(); resolve(request.result); };
    request.onerror = () => { db.close(); reject(request.error); };
  };
})"""


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/#/login?mode=signup")
    form = page.locator("form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Create an account").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()


def wait_for_js(page: Page, expression: str, arg: Any = None, timeout_s: float = 30.0) -> None:
    """Until `expression` (a JavaScript expression or function of `arg`) is truthy in the page. Playwright's own
    wait_for_function evaluates its predicate with eval, which the PWA's Content-Security-Policy refuses (no
    'unsafe-eval'); page.evaluate is not subject to it."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s:g} s: {expression}")
        time.sleep(0.1)


def wait_for_service_worker(page: Page) -> None:
    wait_for_js(page, "navigator.serviceWorker && navigator.serviceWorker.controller !== null")


def open_task(page: Page, base: str, code: str) -> None:
    page.goto(f"{base}/#/tasks/{code}")
    expect(page.locator(".context .context-text").first).to_be_visible()


def write_example(page: Page, text: str, label: str) -> None:
    page.get_by_label("Statement").fill(text)
    page.get_by_role("radio", name=label).check()


def pending_count(page: Page):
    return page.get_by_test_id("pending-count")


def read_store(page: Page, store: str) -> list[dict]:
    return page.evaluate(READ_STORE, store)


def _in_thread(function, *args):
    # Playwright's sync API marks an asyncio loop as running on the test's thread; asyncio.run needs another.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


def sql(query: str, *args: Any) -> list[dict]:
    return _in_thread(run_sql, query, *args)


def seed() -> None:
    _in_thread(seed_builtin_tasks)
