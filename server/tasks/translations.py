"""Per-locale overrides of what annotators read about a task (docs/task-config.md, "Translations"). Pure, no I/O.

A config may carry `translations: {"es": {"name": ..., "instructions": ..., "labels": {...}, "fields": {...}}}`:
the task's name and instructions (markdown), the display names of labels and of form fields, for a UI locale. What a
locale leaves out falls back to the untranslated text; labels and field names stay the identifiers the data uses.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from server.core.i18n import tr
from server.core.markdown import MAX_MARKDOWN

MAX_LOCALES = 20
# A BCP 47 language tag of the usual shape: "es", "fr", "ar", "pt-BR", "zh-Hant".
LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$")


class TaskTranslation(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str | None = Field(default=None, min_length=1, max_length=200)
    instructions: str | None = Field(default=None, max_length=MAX_MARKDOWN)
    labels: dict[str, str] = Field(default_factory=dict)
    fields: dict[str, str] = Field(default_factory=dict)


def translation_errors(
    translations: dict[str, TaskTranslation], labels: list[str], field_names: list[str]
) -> list[tuple[str, str]]:
    """Locale tags of the right shape, display names only for labels and fields the config has, none empty or long."""
    errors: list[tuple[str, str]] = []
    if len(translations) > MAX_LOCALES:
        errors.append(("translations", tr("at most {limit} locales", limit=MAX_LOCALES)))
    for locale, translation in translations.items():
        where = f"translations.{locale}"
        if not LOCALE.match(locale):
            errors.append((where, tr("must be keyed by a language tag such as es, fr, ar or pt-BR")))
        for part, known in (("labels", labels), ("fields", field_names)):
            for key, text in getattr(translation, part).items():
                if key not in known:
                    unknown = (
                        tr("the config has no label '{key}'", key=key)
                        if part == "labels"
                        else tr("the config has no field '{key}'", key=key)
                    )
                    errors.append((f"{where}.{part}.{key}", unknown))
                elif not 1 <= len(text.strip()) <= 200:
                    errors.append((f"{where}.{part}.{key}", tr("must be 1–200 characters")))
    return errors


def translated_instructions(config: Any, locale: str) -> str | None:
    """The config's instructions for `locale` (the exact tag, else one of the same language: "pt-BR" for "pt"), or None
    when it has none; the PWA's i18n/taskText.ts picks a translation the same way."""
    translations = config.get("translations") if isinstance(config, dict) else None
    if not isinstance(translations, dict) or not LOCALE.match(locale):
        return None
    language = locale.lower().split("-")[0]
    match = translations.get(locale) or next(
        (t for key, t in translations.items() if key.lower().split("-")[0] == language), None
    )
    text = match.get("instructions") if isinstance(match, dict) else None
    return text if isinstance(text, str) and text.strip() else None
