"""The owners' training runs page (issue #35) on a 390 px phone, against the real stack: an owner starts a fast
retraining of the built-in sentiment task's target from round 1 (40 validated examples, so too few held out for the
gate) after the form refused an out-of-range tolerance, sees its progress, then the run end rejected with the gate's
two comparisons (held-out examples, one scoring dataset) and its cost; overrides the gate with a reason (refused
without one) and sees it published, then opens round 2 with the new version. A queued run is cancelled (asked first),
and offline the page says so and waits. Nothing overflows the phone (in Arabic too) and axe finds nothing."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.api.test_training import INSERT_VALIDATED
from tests.api.test_training_gate import _reset, _scoring_dataset
from tests.browser.helpers import seed, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"viewport": {"width": 390, "height": 844}}
TRAINING_MS = 1_200_000  # a fast-profile build, judged, on a loaded machine


def _owner_page(launch, profile, app_url, username: str):
    page = launch(profile, **PHONE).new_page()
    sign_up(page, app_url, username)
    sql("UPDATE users SET is_admin = true WHERE username = $1", username)  # retraining a built-in model: admins
    page.goto(f"{app_url}/#/owner/sentiment")
    page.get_by_test_id("training-link").click()
    expect(page.get_by_role("heading", level=1, name=re.compile("^Retraining of "))).to_be_visible(timeout=30_000)
    return page


def test_an_owner_retrains_sees_the_gate_reject_overrides_and_opens_the_next_round(
    stack,
    api,
    admin_token,
    app_url,
    launch,
    profile,
    target_models,
    axe_available,  # noqa: F811
):
    model = target_models["sentiment"]
    try:
        seed()
        _scoring_dataset(api, admin_token)
        page = _owner_page(launch, profile, app_url, "train-owner")
        [where] = sql(
            "SELECT r.id AS round, (SELECT min(c.id) FROM contexts c WHERE c.round = r.id) AS context, "
            "(SELECT id FROM users WHERE username = 'train-owner') AS author FROM rounds r JOIN tasks t ON t.id = r.task "
            "WHERE t.code = 'sentiment' AND r.number = 1"
        )
        sql(INSERT_VALIDATED, where["round"], where["context"], where["author"], model, 40, 40, "validated", False)
        expect(page.get_by_test_id("training-none")).to_have_text("No training run yet.")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe_violations(page) == []

        # The form checks the server's ranges before sending.
        expect(page.get_by_role("checkbox", name="Round 1")).to_be_checked()
        page.get_by_role("radio", name=re.compile("^Fast")).check()
        tolerance = page.get_by_label("Scoring tolerance")
        tolerance.fill("2")
        page.get_by_role("button", name="Start the retraining").click()
        expect(page.get_by_test_id("train-scoringTolerance-error")).to_have_text("Enter a number from 0 to 1, such as 0.01.")
        expect(tolerance).to_have_attribute("aria-invalid", "true")
        expect(tolerance).to_be_focused()
        tolerance.fill("0.01")
        page.get_by_role("button", name="Start the retraining").click()
        expect(page.get_by_test_id("train-status")).to_have_text(
            "The retraining has started. Its progress shows in the list below."
        )

        run = page.get_by_test_id("training-run").first
        expect(run.get_by_role("heading", level=3)).to_be_focused()
        expect(run.get_by_test_id("run-progress")).to_contain_text("done")
        expect(run.get_by_label("Progress")).to_be_visible()
        expect(run.get_by_test_id("run-rounds")).to_have_text("Rounds 1 · Fast")
        expect(page.get_by_test_id("train-blocked")).to_be_visible()  # one retraining at a time
        expect(run.get_by_role("button", name="Cancel the run")).to_be_enabled()

        # It ends rejected: too few held-out examples (40 validated, about a fifth held out, 30 needed).
        expect(run).to_have_attribute("data-status", "rejected", timeout=TRAINING_MS)
        expect(run.get_by_test_id("run-status")).to_have_text("Rejected by the gate")
        expect(page.get_by_test_id("training-announcement")).to_contain_text("is now: Rejected by the gate")
        expect(run.get_by_test_id("gate-decision")).to_have_text(
            "The gate rejected the new version: it is not offered for the next round."
        )
        held_out = run.get_by_test_id("gate-held-out")
        expect(held_out.get_by_role("rowheader", name="95% interval")).to_be_visible()
        expect(run.get_by_test_id("held-out-examples")).to_contain_text("(at least 30)")
        expect(run.get_by_test_id("held-out-examples")).to_contain_text("Not enough held-out examples")
        expect(run.get_by_test_id("held-out-better")).to_have_text("No")
        expect(run.get_by_test_id("gate-summary")).not_to_be_empty()
        scoring = run.get_by_test_id("scoring-row")
        expect(scoring).to_have_count(1)
        expect(scoring.get_by_role("rowheader")).to_have_text("dynasent-sample")
        expect(scoring.locator("td").nth(3)).to_have_text("1%")
        expect(run.get_by_test_id("run-version")).to_have_text(re.compile(r"^\S+ 2$"))
        expect(run.get_by_test_id("run-cost")).to_contain_text("CPU seconds")
        expect(run.get_by_role("button", name="Cancel the run")).to_have_count(0)
        run.get_by_test_id("run-log").locator("summary").click()
        expect(run.get_by_test_id("run-log").locator(".status-log li").last).to_contain_text("Rejected")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe_violations(page) == []

        # Override: a reason is required; then the run is published with who and why.
        reason = run.get_by_label("Reason for overriding the gate")
        run.get_by_role("button", name="Override the gate").click()
        expect(run.get_by_test_id("reason-error")).to_have_text("Give a reason.")
        expect(reason).to_be_focused()
        expect(reason).to_have_attribute("aria-invalid", "true")
        why = "Round 1's held-out visits were easy ones; round 2 needs the new labels."
        reason.fill(why)
        expect(run).to_contain_text(f"{len(why)} of 500 characters")
        run.get_by_role("button", name="Override the gate").click()
        expect(run).to_have_attribute("data-status", "published")
        expect(run.get_by_test_id("run-message")).to_have_text(
            "The gate was overridden: the version is offered for the next round."
        )
        expect(run.get_by_test_id("run-overridden")).to_contain_text("overridden by train-owner")
        expect(run.get_by_test_id("run-overridden")).to_contain_text(why)
        expect(run.get_by_role("heading", level=3)).to_be_focused()
        assert sql("SELECT status, override_reason FROM training_runs") == [{"status": "published", "override_reason": why}]

        # Open round 2 with the published version (asked first: it closes round 1).
        run.get_by_role("button", name="Open the next round with version 2").click()
        expect(run.get_by_test_id("confirm-open")).to_contain_text("closes the open round")
        expect(run.get_by_role("button", name="Yes, open the round")).to_be_focused()
        run.get_by_role("button", name="Yes, open the round").click()
        expect(run.get_by_test_id("run-message")).to_have_text("Round 2 is open, judged by version 2.")
        expect(run.get_by_role("button", name="Open the next round with version 2")).to_have_count(0)
        expect(run).to_contain_text("The open round is judged by version 2.")
        targets = sql(
            "SELECT r.target_models::text AS t FROM rounds r JOIN tasks t ON t.id = r.task "
            "WHERE t.code = 'sentiment' AND r.number = 2"
        )
        assert targets == [{"t": f'[{{"name": "{model}", "version": "2"}}]'}]

        # In Arabic the page mirrors, the gate's tables included, and still fits the phone.
        page.goto(f"{app_url}/#/account")
        page.locator("main").get_by_label("Language").select_option("ar")
        expect(page.get_by_role("heading", level=1, name="حسابك")).to_be_visible()
        page.goto(f"{app_url}/#/owner/sentiment/training")
        expect(page.get_by_role("heading", level=1, name=re.compile("^إعادة تدريب "))).to_be_visible()
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.get_by_test_id("training-run").get_by_test_id("run-status")).to_have_text("منشورة")
        expect(page.get_by_test_id("gate-held-out")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe_violations(page) == []
    finally:
        _reset(stack, model)


def test_an_owner_cancels_a_queued_run_and_offline_the_page_waits(api, app_url, launch, profile, axe_available):  # noqa: F811
    seed()
    page = _owner_page(launch, profile, app_url, "cancel-owner")
    # A queued run whose job is not picked up (none was enqueued), made after the page loaded: a reload lists it.
    sql(
        "INSERT INTO training_runs (task, requested_by, status, from_rounds, profile, created_at) "
        "SELECT t.id, u.id, 'queued', '[1]', 'fast', now() FROM tasks t, users u "
        "WHERE t.code = 'sentiment' AND u.username = 'cancel-owner'"
    )
    page.reload()
    run = page.get_by_test_id("training-run")
    expect(run).to_have_count(1, timeout=30_000)
    expect(run.get_by_test_id("run-status")).to_have_text("Queued")
    expect(run.get_by_test_id("run-progress")).to_have_text("0% done")
    expect(page.get_by_role("button", name="Start the retraining")).to_be_disabled()

    # Offline: said, and the actions wait for the connection.
    page.context.set_offline(True)
    expect(page.get_by_test_id("training-offline")).to_be_visible()
    expect(run.get_by_role("button", name="Cancel the run")).to_be_disabled()
    page.context.set_offline(False)
    expect(page.get_by_test_id("training-offline")).to_have_count(0)

    run.get_by_role("button", name="Cancel the run").click()
    expect(run.get_by_test_id("confirm-cancel")).to_contain_text("No new version is kept")
    expect(run.get_by_role("button", name="Yes, cancel it")).to_be_focused()
    run.get_by_role("button", name="No, keep it running").click()
    expect(run.get_by_test_id("run-status")).to_have_text("Queued")
    run.get_by_role("button", name="Cancel the run").click()
    run.get_by_role("button", name="Yes, cancel it").click()
    expect(run.get_by_test_id("run-message")).to_have_text("The run was cancelled.")
    expect(run).to_have_attribute("data-status", "cancelled")
    expect(run.get_by_test_id("run-status")).to_have_text("Cancelled")
    expect(run.get_by_role("heading", level=3)).to_be_focused()
    expect(page.get_by_role("button", name="Start the retraining")).to_be_enabled()
    assert sql("SELECT status FROM training_runs") == [{"status": "cancelled"}]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert axe_violations(page) == []
