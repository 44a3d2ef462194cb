"""The config's optional `translations`: per-locale task name, instructions and display names, validated."""

import copy

from server.tasks.builtin import BUILTIN_TASKS
from server.tasks.config import parse_task_config
from server.tasks.config_changes import breaking_changes
from server.tasks.translations import translated_instructions

VALID = copy.deepcopy(next(t for t in BUILTIN_TASKS if t["config"]["kind"] == "classification")["config"])
LABEL = VALID["labels"][0]
FIELD = VALID["input_fields"][0]["name"]


def with_translations(translations):
    document = copy.deepcopy(VALID)
    document["translations"] = translations
    return document


def errors_of(document):
    config, errors = parse_task_config(document)
    assert config is None
    return {error.field: error.message for error in errors}


def test_a_config_without_translations_stores_as_before():
    config, errors = parse_task_config(VALID)
    assert errors == []
    assert config.translations == {}
    assert "translations" not in config.model_dump()


def test_translations_are_kept_with_their_locales():
    document = with_translations(
        {
            "es": {"name": "Sentimiento", "instructions": "Escribe una frase.", "labels": {LABEL: "negativo"}},
            "ar": {"name": "المشاعر", "fields": {FIELD: "العبارة"}},
            "pt-BR": {"labels": {LABEL: "negativo"}},
        }
    )
    config, errors = parse_task_config(document)
    assert errors == []
    assert config.translations["es"].labels == {LABEL: "negativo"}
    assert config.translations["ar"].fields == {FIELD: "العبارة"}
    stored = config.model_dump()
    assert stored["translations"]["es"]["name"] == "Sentimiento"
    assert parse_task_config(stored)[1] == []  # what is stored parses again


def test_unknown_labels_fields_and_bad_locales_are_named():
    errors = errors_of(
        with_translations(
            {
                "es": {"labels": {"nope": "no"}, "fields": {"missing": "falta", FIELD: "  "}},
                "Spanish!": {"name": "x"},
            }
        )
    )
    assert errors == {
        "translations.es.labels.nope": "the config has no label 'nope'",
        "translations.es.fields.missing": "the config has no field 'missing'",
        f"translations.es.fields.{FIELD}": "must be 1–200 characters",
        "translations.Spanish!": "must be keyed by a language tag such as es, fr, ar or pt-BR",
    }


def test_shape_errors_and_limits():
    errors = errors_of(with_translations({"es": {"name": "", "color": "red"}}))
    assert set(errors) == {"translations.es.name", "translations.es.color"}
    many = {f"x{chr(97 + i // 26)}{chr(97 + i % 26)}": {"name": "n"} for i in range(21)}
    assert errors_of(with_translations(many)) == {"translations": "at most 20 locales"}


def test_adding_or_changing_translations_never_breaks_an_open_round():
    old, _ = parse_task_config(VALID)
    new, errors = parse_task_config(with_translations({"fr": {"name": "Sentiment", "labels": {LABEL: "négatif"}}}))
    assert errors == []
    assert breaking_changes(old, new) == []
    assert breaking_changes(new, old) == []  # and removing them neither


def test_translated_instructions_pick_the_locale_then_its_language():
    config = {"translations": {"es": {"instructions": "Hola"}, "pt-BR": {"instructions": "Olá"}, "fr": {"name": "x"}}}
    assert translated_instructions(config, "es") == "Hola"
    assert translated_instructions(config, "es-MX") == "Hola"
    assert translated_instructions(config, "pt") == "Olá"
    assert translated_instructions(config, "fr") is None  # translated name only
    assert translated_instructions(config, "de") is None
    assert translated_instructions(config, "<bad>") is None
    assert translated_instructions({}, "es") is None
    assert translated_instructions({"translations": {"es": {"instructions": "  "}}}, "es") is None
