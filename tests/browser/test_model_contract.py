"""A researcher on a phone, in Spanish (issue #29 points 3 and 4): the upload page states the task's model contract
and hands out an example archive; uploaded as it is, it passes the checks, is evaluated, and its scores appear on the
model's page as soon as it says so (no reload)."""

import asyncio

from playwright.sync_api import expect

from tests.browser.helpers import _in_thread, seed, sign_up

PHONE = {"width": 390, "height": 844}


def _seed_scoring_datasets() -> None:
    from server.evaluation.datasets.seed import seed_scoring_datasets

    asyncio.run(seed_scoring_datasets())


def test_the_example_model_from_the_upload_page_is_evaluated_live(api, app_url, launch, profile, target_models, tmp_path):
    seed()
    _in_thread(_seed_scoring_datasets)
    page = launch(profile, viewport=PHONE, accept_downloads=True).new_page()
    sign_up(page, app_url, "investigadora")
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("Language").select_option("es")
    expect(page.get_by_role("heading", level=1, name="Tu cuenta")).to_be_visible()
    page.goto(f"{app_url}/#/models")
    page.get_by_label("Tarea").select_option("sentiment")

    contract = page.get_by_test_id("model-contract")
    contract.get_by_text("Lo que tu modelo debe declarar").click()
    expect(contract).to_contain_text("statement TYPE_STRING [1]")
    expect(contract).to_contain_text("probs TYPE_FP32 [3]")
    expect(contract.locator(".contract-labels li")).to_have_text(["negative", "positive", "neutral"])
    expect(contract).to_contain_text("un archivo sin él se rechaza")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the contract widens the page"

    with page.expect_download() as info:
        contract.get_by_role("button", name="Descargar un modelo de ejemplo (sentiment-example-model.zip)").click()
    archive = tmp_path / info.value.suggested_filename
    info.value.save_as(archive)

    page.get_by_label("Nombre").fill("ejemplo")
    page.get_by_label("Archivo del repositorio del modelo").set_input_files(archive)
    page.get_by_role("button", name="Subir").click()
    expect(page.get_by_role("heading", level=1, name="ejemplo")).to_be_visible(timeout=60_000)
    scores = page.get_by_test_id("model-scores")
    expect(page.get_by_test_id("status-log").locator('li[data-status="evaluated"]')).to_have_count(1, timeout=300_000)
    expect(scores).to_be_visible()  # the same message that says "evaluated" brought the scores
    expect(scores).to_contain_text("demo-scoring-v1")
