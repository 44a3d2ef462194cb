"""Adversary runs in the PWA (issue #31 point 5): on a 360 px phone the owner of a sentiment task whose config names a
generator (the demo generative model, through Triton) starts "Run the generator" on the round page and watches the
run's figures fill in as it ends (polled); the examples are the machine account's; nothing overflows and axe finds
nothing. tests/api/test_adversary_runs.py covers the validation queue, idempotency and refusals."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.helpers import seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)
from tests.browser.test_suggestions import PHONE, _offer_suggestions


def test_the_owner_runs_the_generator_and_sees_its_figures(api, app_url, launch, profile, target_models, axe_available):  # noqa: F811
    seed()
    _offer_suggestions(target_models["chat_demo"])
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, "run-owner")
    sql("UPDATE users SET is_admin = true WHERE username = 'run-owner'")
    page.goto(f"{app_url}/#/owner/sentiment")
    panel = page.get_by_test_id("runs-1")
    expect(panel.get_by_role("heading", name="Run the generator on round 1")).to_be_visible(timeout=30_000)
    count = panel.get_by_label("Examples to write")
    count.fill("0")
    panel.get_by_role("button", name="Start the run").click()
    expect(panel.get_by_test_id("runs-1-status")).to_have_text("Enter a whole number from 1 to 200.")
    expect(count).to_have_attribute("aria-invalid", "true")
    count.fill("2")
    panel.get_by_role("button", name="Start the run").click()
    expect(panel.get_by_test_id("runs-1-status")).to_have_text("The run has started. Its figures update every few seconds.")
    run = panel.get_by_test_id("adversary-run").first
    expect(run).to_have_attribute("data-status", "DONE", timeout=120_000)
    expect(run.get_by_test_id("run-progress")).to_have_text("2 of 2 written")
    expect(run.get_by_test_id("run-produced")).to_have_text("2")
    assert {r["username"] for r in sql('SELECT u.username FROM examples e JOIN users u ON u.id = e."user"')} == {"~machine"}
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
