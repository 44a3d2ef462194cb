"""The PWA in Spanish, French and Arabic on a phone (issue #19 point 6): the language picked on the log-in page applies at
once (no reload), sets <html lang>, follows the person after logging in and survives a reload; French formats numbers
and dates the French way; Arabic turns the page right-to-left (dir="rtl", text hugging the right edge) while user text
keeps its own direction (dir="auto"). axe-core finds no WCAG 2 A/AA violation in any of them."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from server.core.i18n import tr, translate
from tests.browser.helpers import PASSWORD, sql
from tests.browser.test_accessibility import axe_available, axe_violations  # noqa: F401 (a fixture)
from tests.browser.test_leaderboard import _scored_models

PHONE = {"width": 390, "height": 844}

# Where a block's text sits inside its card: (gap on the left, gap on the right), from the text's own rectangle.
TEXT_GAPS = """(selector) => {
  const element = document.querySelector(selector);
  const range = document.createRange();
  range.selectNodeContents(element);
  const text = range.getBoundingClientRect();
  const card = element.closest('.card').getBoundingClientRect();
  return [text.left - card.left, card.right - text.right];
}"""


def _html(page: Page):
    return page.locator("html")


def _performance_of(page: Page, model: str):
    # The first metric column after rank, model and Dynascore is Performance.
    return page.locator(f'[data-testid="leaderboard-table"] tr[data-model="{model}"] td').nth(2)


def test_spanish_french_and_arabic_on_a_phone(api, app_url, launch, profile, axe_available):  # noqa: F811
    _scored_models(api)  # sentiment with three ranked models (alpha: performance 90)
    api.sign_up("lectora", PASSWORD)
    sql("UPDATE users SET is_admin = true WHERE username = 'lectora'")  # the admin pages show dates
    page = launch(profile, viewport=PHONE).new_page()

    # Español on the log-in page: the page switches at once, without a reload.
    page.goto(f"{app_url}/#/login")
    expect(page.get_by_role("heading", level=1, name="Log in")).to_be_visible()
    expect(_html(page)).to_have_attribute("lang", "en")
    page.evaluate("window.__sameDocument = true")
    page.get_by_label("Language").select_option("es")
    expect(page.get_by_role("heading", level=1, name="Iniciar sesión")).to_be_visible()
    expect(_html(page)).to_have_attribute("lang", "es")
    expect(_html(page)).to_have_attribute("dir", "ltr")
    assert page.evaluate("window.__sameDocument") is True
    assert axe_violations(page) == []

    form = page.locator("form")
    form.get_by_label("Nombre de usuario").fill("lectora")
    # The server's refusal comes in Spanish too (the PWA sends its language as Accept-Language).
    form.get_by_label("Contraseña").fill("not the password")
    form.get_by_role("button", name="Iniciar sesión").click()
    refusal = translate(tr("Wrong username or password."), "es")
    assert refusal != "Wrong username or password."
    expect(page.get_by_role("alert")).to_have_text(refusal)
    form.get_by_label("Contraseña").fill(PASSWORD)
    form.get_by_role("button", name="Iniciar sesión").click()
    expect(page).not_to_have_url(re.compile(r"/login"))

    page.goto(f"{app_url}/#/account")
    expect(page.get_by_role("heading", level=1, name="Tu cuenta")).to_be_visible()
    expect(page.get_by_text("Sesión iniciada como lectora.")).to_be_visible()
    expect(page.locator("main").get_by_label("Idioma")).to_have_value("es")
    assert axe_violations(page) == []

    page.goto(f"{app_url}/#/leaderboard/sentiment")
    expect(page.get_by_role("heading", level=1, name="Clasificación: sentiment")).to_be_visible()
    expect(page.get_by_test_id("leaderboard-status")).to_have_text("3 modelos clasificados.")
    expect(_performance_of(page, "alpha")).to_have_text(re.compile(r"^90,0\s%$"))
    assert axe_violations(page) == []

    # The choice survives a reload (and a fresh start of the app).
    page.reload()
    expect(page.get_by_role("heading", level=1, name="Clasificación: sentiment")).to_be_visible()
    expect(_html(page)).to_have_attribute("lang", "es")

    # Français from the account page: French number and date formats.
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("Idioma").select_option("fr")
    expect(page.get_by_role("heading", level=1, name="Votre compte")).to_be_visible()
    expect(_html(page)).to_have_attribute("lang", "fr")
    page.goto(f"{app_url}/#/leaderboard/sentiment")
    expect(page.get_by_role("heading", level=1, name="Classement : sentiment")).to_be_visible()
    expect(_performance_of(page, "alpha")).to_have_text(re.compile(r"^90,0\s%$"))
    memory = page.locator('[data-testid="leaderboard-table"] tr[data-model="alpha"] td').nth(4)
    expect(memory).to_have_text(re.compile(r"^2,00\sGo$"))
    assert axe_violations(page) == []
    page.goto(f"{app_url}/#/admin")
    # e.g. "Inscrit le 24 nov. 2026, 18:20": day, French month abbreviation, year, 24-hour time.
    expect(page.get_by_text(re.compile(r"Inscrit le \d{1,2} [a-zéû]+\.? \d{4}(,| à) \d{2}:\d{2}")).first).to_be_visible()
    assert axe_violations(page) == []

    # Text in another script keeps its own direction in an input (dir="auto").
    page.goto(f"{app_url}/#/leaderboard/sentiment")
    name = page.get_by_label("Nom de la configuration")
    name.fill("الأداء أولا")
    assert name.evaluate("(e) => e.matches(':dir(rtl)')") is True
    name.fill("speed first")
    assert name.evaluate("(e) => e.matches(':dir(ltr)')") is True

    # العربية: the whole UI mirrors.
    page.goto(f"{app_url}/#/account")
    expect(page.locator("main").get_by_label("Langue")).to_be_visible()  # the picker shows once the account has loaded
    gaps_ltr = page.evaluate(TEXT_GAPS, 'label[for="account-language"]')
    assert gaps_ltr[0] < gaps_ltr[1], gaps_ltr  # French: the label starts at the left
    page.locator("main").get_by_label("Langue").select_option("ar")
    expect(page.get_by_role("heading", level=1, name="حسابك")).to_be_visible()
    expect(_html(page)).to_have_attribute("lang", "ar")
    expect(_html(page)).to_have_attribute("dir", "rtl")
    gaps = page.evaluate(TEXT_GAPS, 'label[for="account-language"]')
    assert gaps[1] < gaps[0], gaps  # Arabic: the label hugs the right edge
    heading = page.evaluate(TEXT_GAPS, "#page-title")
    assert heading[1] < heading[0], heading
    select = page.locator("main").get_by_label("اللغة").bounding_box()
    card = page.locator("section.card").first.bounding_box()
    assert select is not None and card is not None
    assert abs((card["x"] + card["width"]) - (select["x"] + select["width"])) < abs(select["x"] - card["x"]) + 1
    assert axe_violations(page) == []

    page.goto(f"{app_url}/#/leaderboard/sentiment")
    expect(page.get_by_role("heading", level=1, name="لوحة الصدارة: sentiment")).to_be_visible()
    # Table cells start on the right in RTL: the model column's text hugs its cell's right edge.
    cell = page.locator('[data-testid="leaderboard-table"] tr[data-model="alpha"] th')
    assert cell.evaluate("(e) => getComputedStyle(e).textAlign") in ("start", "right")
    assert cell.evaluate("(e) => getComputedStyle(e).direction") == "rtl"
    assert axe_violations(page) == []

    # Back to English: everything returns, left-to-right.
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label("اللغة").select_option("en")
    expect(page.get_by_role("heading", level=1, name="Your account")).to_be_visible()
    expect(_html(page)).to_have_attribute("dir", "ltr")
    expect(_html(page)).to_have_attribute("lang", "en")


# The second pass (annotate, validate, the shell): a task translated into Spanish, its contexts written in Arabic.
SPANISH_TASK = (
    '{"es": {"name": "Análisis de sentimiento", "instructions": "## Sé concreto\\n\\nEscribe una frase que el modelo '
    'clasifique **mal**.", "fields": {"context": "Frase de partida", "statement": "Tu frase"},'
    ' "labels": {"positive": "Positiva", "negative": "Negativa", "neutral": "Neutra"}}}'
)
ARABIC_CONTEXT = "كان الفيلم طويلا لكن النهاية كانت جميلة جدا."

# The x of each tab of the bottom bar, in DOM order (the first is Tasks).
TAB_XS = """() => [...document.querySelectorAll('[data-testid="tab-bar"] .tab')].map((t) => t.getBoundingClientRect().x)"""


def _pick_language(page: Page, app_url: str, label: str, code: str, heading: str):
    page.goto(f"{app_url}/#/account")
    page.locator("main").get_by_label(label).select_option(code)
    expect(page.get_by_role("heading", level=1, name=heading)).to_be_visible()
    expect(_html(page)).to_have_attribute("lang", code)


def test_annotate_and_validate_in_spanish_and_arabic_on_a_phone(api, app_url, launch, profile, target_models, axe_available):  # noqa: F811
    from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
    from tests.browser.helpers import seed, sign_up

    seed()
    sql("UPDATE tasks SET config = jsonb_set(config, '{translations}', $1::jsonb) WHERE code = 'sentiment'", SPANISH_TASK)
    sql(
        "UPDATE contexts SET fields = jsonb_build_object('context', $1::text) WHERE round IN "
        "(SELECT r.id FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment')",
        ARABIC_CONTEXT,
    )
    author = api.sign_up("autora")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    fooling_example(api, author, round_id, context_id, "The plot twists were as fresh as last week's bread.")

    page = launch(profile, viewport=PHONE).new_page()
    sign_up(page, app_url, "escritora")
    _pick_language(page, app_url, "Language", "es", "Tu cuenta")

    # The annotate page in Spanish: the task's own translation, the shell, the form and the verdict.
    page.goto(f"{app_url}/#/tasks/sentiment")
    expect(page.get_by_role("heading", level=1, name="Análisis de sentimiento")).to_be_visible()
    # The task's instructions exist only in Spanish here: they come translated, before the first example.
    instructions = page.locator("#task-instructions")
    expect(instructions.get_by_role("heading", name="Sé concreto")).to_be_visible()
    expect(instructions.locator("strong")).to_have_text("mal")
    instructions.get_by_role("button", name="Empezar a escribir").click()
    expect(instructions).to_have_count(0)
    expect(_html(page)).to_have_attribute("lang", "es")
    expect(_html(page)).to_have_attribute("dir", "ltr")
    bar = page.get_by_test_id("tab-bar")
    expect(bar.get_by_role("link", name="Tareas")).to_be_visible()
    expect(bar.get_by_role("link", name="Validar")).to_be_visible()
    expect(page.locator(".context .field-title").first).to_have_text("Frase de partida")
    context = page.locator(".context .context-text").first
    expect(context).to_have_text(ARABIC_CONTEXT)
    assert context.evaluate("(e) => e.matches(':dir(rtl)')") is True  # an Arabic context reads right-to-left
    assert context.evaluate("(e) => getComputedStyle(e).direction") == "rtl"
    expect(page.get_by_test_id("pending-count")).to_have_text("0")
    expect(page.locator("header .sync-status")).to_contain_text("pendientes de sincronizar")
    page.get_by_label("Tu frase").fill("Not the worst film of the year.")
    page.get_by_role("radio", name="Positiva").check()
    page.get_by_role("button", name="Enviar", exact=True).click()
    verdict = page.get_by_test_id("verdict-live").locator("[data-verdict]")
    expect(verdict).to_be_visible(timeout=60_000)
    expect(verdict).to_have_text(re.compile(r"^(Engañado|No engañado|Pendiente|Tú decides)$"))
    expect(page.get_by_role("heading", name="Veredicto del modelo")).to_be_visible()
    expect(page.get_by_text("Tú dijiste").first).to_be_visible()
    expect(page.get_by_text("Tus intentos con este contexto").first).to_be_visible()
    ltr_tabs = page.evaluate(TAB_XS)
    assert ltr_tabs == sorted(ltr_tabs), ltr_tabs  # left to right: Tasks first
    assert axe_violations(page) == []

    # The validate page in Spanish: vote buttons, queue count, the task's label names.
    page.goto(f"{app_url}/#/validate/sentiment")
    expect(page.get_by_role("heading", level=1, name="Validar: Análisis de sentimiento")).to_be_visible()
    expect(page.get_by_test_id("queue-count")).to_contain_text("1 en espera")
    expect(page.get_by_role("button", name="Correcto", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Incorrecto", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Tu voto")).to_be_visible()
    expect(page.get_by_test_id("intended")).to_have_text(re.compile(r"^(Positiva|Negativa|Neutra)$"))
    assert axe_violations(page) == []
    page.keyboard.press("1")
    expect(page.get_by_test_id("vote-notice")).to_contain_text("está guardado")

    # العربية: the shell mirrors (the tab bar runs right to left), the Arabic context stays right-to-left.
    _pick_language(page, app_url, "Idioma", "ar", "حسابك")
    page.goto(f"{app_url}/#/tasks/sentiment")
    expect(page.get_by_role("heading", level=1, name="Sentiment analysis")).to_be_visible()  # no Arabic translation: as written
    expect(_html(page)).to_have_attribute("dir", "rtl")
    expect(page.get_by_test_id("tab-bar").get_by_role("link", name="المهام")).to_be_visible()
    expect(page.get_by_role("button", name="إرسال", exact=True)).to_be_visible()
    rtl_tabs = page.evaluate(TAB_XS)
    assert rtl_tabs == sorted(rtl_tabs, reverse=True), rtl_tabs  # mirrored: Tasks is the rightmost tab
    context = page.locator(".context .context-text").first
    assert context.evaluate("(e) => getComputedStyle(e).direction") == "rtl"
    gaps = page.evaluate(TEXT_GAPS, ".context .context-text")
    assert gaps[1] <= gaps[0], gaps  # the Arabic context hugs the right edge of its card
    statement = page.get_by_label("Statement")
    statement.fill("A plain English sentence.")
    assert statement.evaluate("(e) => e.matches(':dir(ltr)')") is True  # the registry's input: dir="auto"
    assert axe_violations(page) == []
