"""The validator's page: a live queue fed by the examplesToValidate subscription, votes by key or
button, and votes cast offline that go through the outbox and are stored exactly once."""

from playwright.sync_api import Route, expect

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
from tests.browser.helpers import pending_count, read_store, seed, sign_up, sql


def _author_world(api):
    """Another user (the author) with a context of the sentiment task's current round, through GraphQL."""
    seed()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    return author, round_id, context_id


def _open_validator(page, app_url):
    page.goto(f"{app_url}/#/validate/sentiment")
    expect(page.get_by_role("heading", level=1, name="Validate: Sentiment")).to_be_visible()


def test_queue_updates_live_and_key_1_votes(api, app_url, launch, profile, target_models):
    author, round_id, context_id = _author_world(api)
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "validator")
    _open_validator(page, app_url)
    expect(page.get_by_test_id("live-state")).to_have_attribute("data-live", "live")
    expect(page.get_by_test_id("queue-empty")).to_be_visible()
    expect(page.get_by_role("button", name="Correct", exact=True)).to_be_disabled()
    # No owner mode for a validator who does not own the task.
    expect(page.get_by_label("Owner mode")).to_have_count(0)

    # Another user's example fools the model: it is pushed into the open page.
    text = "The plot twists were as fresh as last week's bread."
    example = fooling_example(api, author, round_id, context_id, text)
    shown = page.locator(f'.queue-example[data-example-id="{example["id"]}"]')
    expect(shown.locator(".example-input")).to_have_text(text)
    expect(page.get_by_test_id("queue-count")).to_contain_text("1 waiting")
    intended = example["input"]["label"]
    predicted = example["modelOutput"]["label"]
    assert intended != predicted
    expect(page.get_by_test_id("intended")).to_have_text(intended.capitalize())
    expect(page.get_by_test_id("model-answer")).to_have_text(predicted.capitalize())
    expect(shown.locator(".context-text").first).not_to_be_empty()  # the context it was written against

    page.keyboard.press("1")
    expect(page.get_by_test_id("queue-empty")).to_be_visible()
    expect(page.get_by_test_id("vote-notice")).to_contain_text("is stored")
    expect(pending_count(page)).to_have_text("0")
    rows = sql('SELECT v.label, v.mode, u.username FROM validations v JOIN users u ON u.id = v."user"')
    assert rows == [{"label": "correct", "mode": "user", "username": "validator"}]

    # A reload re-reads the queue from the server: the example voted on does not come back.
    page.reload()
    expect(page.get_by_test_id("live-state")).to_have_attribute("data-live", "live")
    expect(page.get_by_test_id("queue-empty")).to_be_visible()


def test_offline_vote_syncs_exactly_once_despite_a_lost_reply(api, app_url, launch, profile, target_models):
    author, round_id, context_id = _author_world(api)
    example = fooling_example(api, author, round_id, context_id, "I laughed so hard I forgot to breathe. Awful.")
    context = launch(profile)
    page = context.new_page()
    sign_up(page, app_url, "offline-validator")
    _open_validator(page, app_url)
    expect(page.locator(f'.queue-example[data-example-id="{example["id"]}"]')).to_be_visible()

    context.set_offline(True)
    expect(page.locator(".sync-status")).to_contain_text("Offline")
    page.get_by_role("button", name="Incorrect", exact=True).click()
    expect(pending_count(page)).to_have_text("1")
    expect(page.get_by_test_id("vote-notice")).to_contain_text("saved on this device")
    expect(page.get_by_test_id("queue-empty")).to_be_visible()
    # The count agrees with the empty queue: the vote this device holds is not counted as waiting (issue #29).
    expect(page.get_by_test_id("queue-count")).to_have_attribute("data-count", "0")
    [item] = read_store(page, "outbox")
    assert item["kind"] == "validation" and item["exampleId"] == example["id"] and item["label"] == "INCORRECT"
    assert sql("SELECT count(*) AS n FROM validations")[0]["n"] == 0

    # Online again: the first validateExample reaches the server and is stored, but its reply is lost.
    # The app sends the vote again and takes "already validated" as done.
    calls = {"validateExample": 0, "lost": 0}

    def lose_first_reply(route: Route) -> None:
        if "validateExample" in (route.request.post_data or ""):
            calls["validateExample"] += 1
            if calls["lost"] == 0:
                calls["lost"] += 1
                route.fetch(timeout=60_000)
                route.abort("connectionreset")
                return
        route.continue_()

    page.route("**/graphql", lose_first_reply)
    context.set_offline(False)
    expect(pending_count(page)).to_have_text("0", timeout=60_000)
    expect(page.get_by_test_id("vote-notice")).to_contain_text("is stored")
    assert calls["lost"] == 1 and calls["validateExample"] >= 2
    rows = sql('SELECT v.label, u.username FROM validations v JOIN users u ON u.id = v."user"')
    assert rows == [{"label": "incorrect", "username": "offline-validator"}]
    assert read_store(page, "outbox") == []
    # The queue was re-read after reconnecting and the voted example stays gone.
    expect(page.get_by_test_id("queue-empty")).to_be_visible()
    page.unroute("**/graphql")
