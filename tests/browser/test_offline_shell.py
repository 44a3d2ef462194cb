"""The app shell is precached by the service worker: it reloads while offline, and no GraphQL answer is cached."""

from playwright.sync_api import expect

from tests.browser.helpers import wait_for_service_worker


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
