"""Examples written offline wait in the outbox and are stored exactly once after reconnecting, even
when the server applied a batch but its reply was lost on the way back."""

from playwright.sync_api import Route, expect

from tests.browser.helpers import open_task, pending_count, read_store, seed, sign_up, sql, write_example


def test_offline_examples_sync_exactly_once_despite_a_lost_reply(api, app_url, launch, profile):
    seed()
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "offline-ann")
    open_task(page, app_url, "sentiment")

    context.set_offline(True)
    expect(page.locator(".sync-status")).to_contain_text("Offline")
    texts = [("Not the worst thing I have ever eaten.", "Negative"), ("What a dreadful delight.", "Positive")]
    for n, (text, label) in enumerate(texts, start=1):
        write_example(page, text, label)
        page.get_by_role("button", name="Submit").click()
        expect(pending_count(page)).to_have_text(str(n))
        expect(page.get_by_test_id("verdict-live")).to_contain_text("Waiting to sync")
        # The text stays for an edited variant (issue #19); the context stays too.
        expect(page.get_by_label("Statement")).to_have_value(text)
    queued = read_store(page, "outbox")
    client_ids = sorted(item["clientId"] for item in queued)
    assert len(client_ids) == 2 and all(item["state"] == "pending" for item in queued)
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0

    # Back online: the first submitExamples reaches the server, which stores both examples, but the
    # reply is dropped. The app must resend (same client UUIDs) and accept `duplicate: true`.
    calls = {"submitExamples": 0, "lost": 0}

    def lose_first_reply(route: Route) -> None:
        if "submitExamples" in (route.request.post_data or ""):
            calls["submitExamples"] += 1
            if calls["lost"] == 0:
                calls["lost"] += 1
                route.fetch(timeout=60_000)  # the server applies the batch ...
                route.abort("connectionreset")  # ... and the reply never arrives
                return
        route.continue_()

    page.route("**/graphql", lose_first_reply)
    context.set_offline(False)
    expect(pending_count(page)).to_have_text("0", timeout=60_000)
    expect(page.locator(".sync-status")).to_contain_text("Online")
    assert calls["lost"] == 1 and calls["submitExamples"] >= 2

    rows = sql("SELECT client_id::text AS client_id, count(*) AS n FROM examples GROUP BY client_id ORDER BY 1")
    assert rows == [{"client_id": c, "n": 1} for c in client_ids]
    assert sql("SELECT total_collected FROM round_totals WHERE total_collected > 0")[0]["total_collected"] == 2
    assert read_store(page, "outbox") == []

    # The last queued example's verdict replaced "Waiting to sync"; both show in the outbox's sent list.
    expect(page.get_by_test_id("verdict-live").locator("[data-verdict]")).to_be_visible()
    page.goto(app_url + "/#/outbox")
    synced = page.get_by_test_id("outbox-synced")
    for client_id in client_ids:
        expect(synced.locator(f'[data-client-id="{client_id}"] [data-verdict]')).to_be_visible()
    page.unroute("**/graphql")


def test_refused_outbox_items_stay_visible_as_failed(api, app_url, launch, profile):
    """A queued example the server refuses (its round closed meanwhile) stays, marked failed, with the message."""
    seed()
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "late-ann")
    open_task(page, app_url, "sentiment")
    context.set_offline(True)
    expect(page.locator(".sync-status")).to_contain_text("Offline")
    write_example(page, "Too late for this round.", "Neutral")
    page.get_by_role("button", name="Submit").click()
    expect(pending_count(page)).to_have_text("1")
    sql("UPDATE rounds SET end_at = now() FROM tasks WHERE rounds.task = tasks.id AND tasks.code = 'sentiment'")
    context.set_offline(False)
    expect(pending_count(page)).to_have_text("0", timeout=60_000)
    page.goto(app_url + "/#/outbox")
    failed = page.get_by_test_id("outbox-failed")
    expect(failed).to_contain_text("Too late for this round.")
    expect(failed.locator(".error")).not_to_be_empty()
    [item] = read_store(page, "outbox")
    assert item["state"] == "failed" and item["failure"]["code"] == "ROUND_CLOSED"
    assert sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0
