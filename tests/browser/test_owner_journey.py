"""From an idea to a running round, alone (issue #29 point 1): a new, non-admin owner creates a task in the form, where
a built-in task's model says why it cannot be picked (and, when nothing can, what to do instead); the task's pages
and the Own tasks list say it is a proposal and what the owner can do meanwhile; an admin approves it and shares the
built-in model from the admin pages; the owner then opens the first round by ticking that model in the list (no
Triton name typed). On a phone in English and on a desktop in Spanish."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, sign_up, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

SERVED = """query { servedTargetModels(kind: "classification") { targets { name usable ready } } }"""

# The owner's words in each language the journey runs in.
WORDS = {
    "en": {
        "proposal": "Proposal — waiting for an admin's approval",
        "meanwhile": "You can already open rounds, add contexts and datasets",
        "choose": "Choose at least one target model.",
        "open": "Open round",
        "opened": "Round 1 is open.",
    },
    "es": {
        "proposal": "Propuesta — a la espera de la aprobación de un administrador",
        "meanwhile": "Ya puedes abrir rondas, añadir contextos y conjuntos de datos",
        "choose": "Elige al menos un modelo objetivo.",
        "open": "Abrir ronda",
        "opened": "La ronda 1 está abierta.",
    },
}


def _fits_the_width(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _admin_approves_and_shares(launch, profile, app_url: str, api, code: str, model: str) -> None:
    """An admin, in English on a desktop: approves the proposal, then shares the built-in model with every task owner."""
    api.sign_up("journey-admin")
    sql("UPDATE users SET is_admin = true WHERE username = 'journey-admin'")
    page = launch(profile.parent / "admin-profile", viewport=DESKTOP).new_page()
    page.goto(f"{app_url}/#/login")
    form = page.locator("form")
    form.get_by_label("Username").fill("journey-admin")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()

    page.goto(f"{app_url}/#/admin/approvals")
    proposal = page.locator(f'[data-task="{code}"]')
    proposal.get_by_role("button", name="Approve").click()
    proposal.get_by_role("button", name="Confirm").click()
    expect(page.get_by_test_id("admin-status")).to_contain_text(f"{code} is approved and public.")

    page.get_by_role("navigation", name="Admin sections").get_by_role("link", name="Models").click()
    section = page.get_by_test_id("admin-target-models")
    expect(section.get_by_role("heading", level=2, name="Target models")).to_be_visible()
    target = section.locator(f'[data-target="{model}"]')
    expect(target).to_contain_text("Built-in model of the task sentiment")
    expect(target).to_have_attribute("data-shared", "false")
    target.get_by_role("button", name="Share with every task owner").click()
    confirm = target.get_by_role("group")
    expect(confirm).to_contain_text(f"Share {model} with every task owner?")
    assert axe_violations(page) == []
    confirm.get_by_role("button", name="Confirm").click()
    expect(page.get_by_test_id("target-share-status")).to_have_text(f"{model} is shared with every task owner.")
    expect(target).to_have_attribute("data-shared", "true")  # from the mutation's answer, without a reload
    expect(target.get_by_role("button", name="Stop sharing")).to_be_visible()
    assert sql("SELECT name FROM shared_target_models") == [{"name": model}]


@pytest.mark.usefixtures("axe_available")
@pytest.mark.parametrize(("viewport", "language"), [(PHONE, "en"), (DESKTOP, "es")], ids=["phone-en", "desktop-es"])
def test_a_new_owner_goes_from_an_idea_to_a_running_round(api, app_url, launch, profile, target_models, viewport, language):
    words = WORDS[language]
    code, name, builtin = f"idea_{language}", f"Idea {language}", target_models["sentiment"]
    # What a non-admin may pick for a new classification task (an operator's model may be served in this session).
    peek = api.sign_up("journey-peek")
    usable = [t["name"] for t in api(SERVED, token=peek)["servedTargetModels"]["targets"] if t["usable"] and t["ready"]]
    assert builtin not in usable

    page = launch(profile, viewport=viewport).new_page()
    sign_up(page, app_url, f"idea-owner-{language}")
    if language != "en":
        page.goto(f"{app_url}/#/account")
        page.locator("main").get_by_label("Language").select_option(language)
        expect(page.locator("html")).to_have_attribute("lang", language)

    # The form: the built-in task's model is listed, disabled, with the reason; with nothing to pick, it says what to do.
    page.goto(f"{app_url}/#/new-task")
    row = page.get_by_test_id(f"served-{builtin}")
    expect(row.get_by_role("radio")).to_be_disabled()
    expect(row.get_by_test_id("served-reason")).to_contain_text("'sentiment'")
    expect(page.get_by_test_id("no-usable-models")).to_have_count(0 if usable else 1)
    page.locator("#ct-code").fill(code)
    page.locator("#ct-name").fill(name)
    page.locator('input[name="ct-target"][value=""]').check()  # create it now, open the round later
    page.locator('#create-task-form button[type="submit"]').click()
    expect(page.get_by_test_id("create-task-status")).to_contain_text(name)
    assert sql("SELECT status FROM tasks WHERE code = $1", code) == [{"status": "PROPOSED"}]

    # Its page says it is a proposal and what the owner can do meanwhile; the picker shows the model, not usable yet.
    page.locator(f'a[href="#/owner/{code}"]').click()
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    state = page.get_by_test_id("task-state")
    expect(state).to_have_attribute("data-status", "PROPOSED")
    expect(state).to_contain_text(words["proposal"])
    expect(state).to_contain_text(words["meanwhile"])
    target = page.get_by_test_id(f"target-{builtin}")
    expect(target).to_have_attribute("data-choosable", "false")
    expect(target.get_by_role("checkbox")).to_be_disabled()
    expect(target.get_by_test_id("target-reason")).to_contain_text("'sentiment'")
    expect(page.get_by_test_id("no-usable-targets")).to_have_count(0 if usable else 1)
    assert _fits_the_width(page)
    assert axe_violations(page) == []
    # Every other owner page of the task says so too, and so does the Own tasks list.
    for part in ("settings", "campaigns", "flags", "webhooks", "browse"):
        page.goto(f"{app_url}/#/owner/{code}/{part}")
        testid = "task-status" if part == "settings" else "task-state"
        expect(page.get_by_test_id(testid)).to_have_attribute("data-status", "PROPOSED")
    page.goto(f"{app_url}/#/owner")
    expect(page.get_by_test_id(f"owned-{code}")).to_have_attribute("data-status", "PROPOSED")
    expect(page.get_by_test_id(f"owned-{code}").locator(".badge")).to_be_visible()

    _admin_approves_and_shares(launch, profile, app_url, api, code, builtin)

    # Back on the task page: public now (no state note), and the shared model can be ticked.
    page.goto(f"{app_url}/#/owner/{code}")
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    target = page.get_by_test_id(f"target-{builtin}")
    expect(target).to_have_attribute("data-choosable", "true")
    expect(page.get_by_test_id("task-state")).to_have_count(0)
    expect(page.get_by_test_id("no-usable-targets")).to_have_count(0)
    # Nothing ticked: the error is tied to the list and focus goes to its first choice; nothing is opened.
    page.get_by_role("button", name=words["open"], exact=True).click()
    expect(page.locator("#round-targets-error")).to_have_text(words["choose"])
    expect(page.get_by_test_id("round-targets")).to_have_attribute("aria-describedby", "round-targets-hint round-targets-error")
    expect(page.get_by_test_id("round-targets").locator('[data-choosable="true"] input').first).to_be_focused()
    assert sql("SELECT count(*) AS n FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = $1", code) == [{"n": 0}]

    target.get_by_role("checkbox").check()
    expect(page.locator("#round-targets-error")).to_have_count(0)
    assert axe_violations(page) == []
    page.get_by_role("button", name=words["open"], exact=True).click()
    expect(page.get_by_test_id("round-status")).to_have_text(words["opened"])
    expect(page.get_by_test_id("round-1")).to_have_attribute("data-state", "open")
    [opened] = sql(
        "SELECT r.number, r.end_at, r.target_models::text AS targets FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = $1",
        code,
    )
    assert opened["number"] == 1 and opened["end_at"] is None and builtin in opened["targets"]
    assert _fits_the_width(page)
