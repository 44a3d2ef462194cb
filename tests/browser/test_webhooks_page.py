"""Task owners manage webhooks on a phone (issue #18 point 8): a refused URL is named next to its field, a hook
pointing at a real receiver on 127.0.0.1 shows its secret once, an example's delivery appears in the log with its 2xx
code (and the page's Python snippet verifies the real delivery's signature), the secret is rotated (the new one shown
once), the hook disabled, then deleted. (The session's stack allows private targets: tests/conftest.py.)"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from server.webhooks.signing import verify_signature
from tests.api.examples_helpers import NEXT_CONTEXT, submit, wait_until
from tests.api.webhooks_helpers import DELIVERIES, LIST, Receiver
from tests.browser.helpers import seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
ROUND = 'query { task(code: "sentiment") { currentRound { id number } } }'
EXAMPLE_CREATED = "An example is written (example.created)"


@pytest.fixture
def receiver():
    served = Receiver()
    yield served
    served.close()


def _add(page, url, events=(EXAMPLE_CREATED,), description=""):
    form = page.get_by_test_id("webhook-form")
    form.get_by_label("URL", exact=True).fill(url)
    for label in events:
        form.get_by_label(label).check()
    form.get_by_label("Description (optional)").fill(description)
    form.get_by_role("button", name="Add the webhook").click()
    return form


@pytest.mark.usefixtures("axe_available")
def test_owner_adds_a_hook_sees_its_delivery_rotates_disables_and_deletes_it(
    api, admin_token, app_url, launch, profile, target_models, receiver
):
    seed()
    author = api.sign_up("hook-author")
    current = api(ROUND)["task"]["currentRound"]
    context_id = api(NEXT_CONTEXT, {"r": current["id"]}, token=author)["nextContext"]["id"]

    context = launch(profile, viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    page = context.new_page()
    sign_up(page, app_url, "hook-owner")
    sql(
        'INSERT INTO task_owners (task, "user") SELECT t.id, u.id FROM tasks t, users u '
        "WHERE t.code = 'sentiment' AND u.username = 'hook-owner'"
    )

    # From the owner page, the task's "Webhooks" link: none yet.
    page.goto(app_url + "/#/owner/sentiment")
    page.get_by_test_id("webhooks-link").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Webhooks of")
    expect(page.get_by_text("No webhook yet.")).to_be_visible()
    url_field = page.get_by_test_id("webhook-form").get_by_label("URL", exact=True)

    # Refused in the browser: the error sits next to its field, which gets the focus.
    form = _add(page, "ftp://files.example.org/", events=())
    expect(form.locator("#webhook-url-error")).to_have_text("Webhook URLs must start with https://.")
    expect(form.locator("#webhook-events-error")).to_have_text("Choose at least one event.")
    expect(url_field).to_be_focused()
    expect(url_field).to_have_attribute("aria-invalid", "true")
    assert "webhook-url-error" in url_field.get_attribute("aria-describedby")
    # Refused by the server (the browser does not know this rule): the same place, the server's words.
    url_field.fill("")
    form = _add(page, "https://someone:secret@127.0.0.1/hook")
    expect(form.locator("#webhook-url-error")).to_have_text("Webhook URLs cannot carry a user name or password.")
    expect(form.locator("#webhook-events-error")).to_have_count(0)
    expect(url_field).to_be_focused()
    expect(page.get_by_test_id("webhook")).to_have_count(0)

    # A hook on the real receiver: its secret is shown once, in a read-only field with a Copy button.
    _add(page, receiver.url, description="CI relay")
    expect(page.get_by_test_id("webhook-form-status")).to_have_text("Webhook added. Copy its signing secret now.")
    hook = page.get_by_test_id("webhook")
    expect(hook).to_have_count(1)
    expect(hook).to_contain_text(receiver.url)
    expect(hook).to_contain_text("CI relay")
    expect(hook.get_by_test_id("webhook-state")).to_have_text("Enabled")
    panel = hook.get_by_test_id("webhook-secret")
    expect(panel).to_contain_text("you will not see it again")
    secret_field = panel.get_by_label("Signing secret (shown only now)")
    expect(secret_field).to_have_attribute("readonly", "")
    secret = secret_field.input_value()
    assert secret.startswith("whsec_")
    expect(panel.get_by_role("heading", name="Signing secret")).to_be_focused()
    panel.get_by_role("button", name="Copy the secret").click()
    expect(panel.get_by_test_id("copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == secret
    assert axe_violations(page) == []
    [listed] = api(LIST, {"t": "sentiment"}, token=admin_token)["webhooks"]
    assert listed["url"] == receiver.url and listed["events"] == ["EXAMPLE_CREATED"] and listed["description"] == "CI relay"

    # An example is written: the receiver gets a delivery signed with that secret, and the page's snippet checks it.
    written = submit(api, author, current["id"], context_id, {"statement": "The hook should hear of this."}, label="positive")
    assert written["__typename"] == "ExampleSubmitted", written
    received = receiver.wait_for(1)[0]
    header = received.headers["x-dynabench-signature"]
    assert verify_signature(secret, header, received.body, now=time.time())
    snippet: dict = {}
    exec(page.get_by_test_id("verify-snippet").inner_text(), snippet)  # the help text's own code
    assert snippet["verify"](secret, header, received.body) and not snippet["verify"](secret, header, received.body + b" ")
    event_id = json.loads(received.body)["id"]
    wait_until(
        lambda: (
            api(DELIVERIES, {"id": listed["id"]}, token=admin_token)["webhookDeliveries"]["edges"][0]["node"]["status"]
            == "DELIVERED"
        )
    )

    # The delivery log: the delivery, its status and its attempt with the receiver's 200.
    hook.get_by_role("button", name="I have stored it").click()
    expect(hook.get_by_test_id("webhook-secret")).to_have_count(0)
    hook.get_by_role("button", name="Show the delivery log").click()
    delivery = hook.get_by_test_id("delivery")
    expect(delivery).to_have_count(1)
    expect(delivery).to_contain_text("example.created")
    expect(delivery).to_contain_text(event_id)
    expect(delivery.get_by_test_id("delivery-status")).to_have_text("Delivered")
    expect(delivery.get_by_test_id("attempt")).to_have_count(1)
    expect(delivery.get_by_test_id("attempt")).to_contain_text("Attempt 1: HTTP 200")
    expect(hook.get_by_role("button", name="Load more")).to_have_count(0)
    assert axe_violations(page) == []

    # Shown once: after a reload the secret is nowhere on the page.
    page.reload()
    expect(page.get_by_test_id("webhook")).to_have_count(1)
    assert secret not in page.content()

    # Rotation, confirmed: a grace period beyond a week is refused next to its field; then a new secret, shown once.
    hook = page.get_by_test_id("webhook")
    hook.get_by_role("button", name="Rotate the secret").click()
    hours = hook.get_by_label("Keep the old secret for (hours)")
    expect(hours).to_have_value("24")
    hours.fill("200")
    hook.get_by_role("button", name="Make the new secret").click()
    expect(hook.get_by_text("A whole number of hours from 0 to 168.")).to_be_visible()
    expect(hours).to_be_focused()
    hours.fill("24")
    hook.get_by_role("button", name="Make the new secret").click()
    expect(hook.get_by_test_id("webhook-status")).to_have_text("New secret made. Copy it now.")
    panel = hook.get_by_test_id("webhook-secret")
    rotated = panel.get_by_label("Signing secret (shown only now)").input_value()
    assert rotated.startswith("whsec_") and rotated != secret
    expect(panel).to_contain_text("The previous secret also signs deliveries until")
    expect(hook).to_contain_text("The previous secret also signs until")

    # Disabled by the owner: the state and its reason; the API agrees.
    hook.get_by_role("button", name="Disable").click()
    expect(hook.get_by_test_id("webhook-state")).to_have_text("Disabled")
    expect(hook.get_by_test_id("webhook-disabled-reason")).to_have_text("Disabled by an owner of the task.")
    expect(hook.get_by_role("button", name="Enable")).to_be_visible()
    [listed] = api(LIST, {"t": "sentiment"}, token=admin_token)["webhooks"]
    assert listed["enabled"] is False and listed["disabledReason"] == "Disabled by an owner of the task."
    assert axe_violations(page) == []

    # Deleted, confirmed: gone from the page and from the API.
    hook.get_by_role("button", name="Delete", exact=True).click()
    hook.get_by_role("button", name="Delete the webhook").click()
    expect(page.get_by_test_id("webhooks-status")).to_have_text("Webhook deleted.")
    expect(page.get_by_text("No webhook yet.")).to_be_visible()
    assert api(LIST, {"t": "sentiment"}, token=admin_token)["webhooks"] == []
