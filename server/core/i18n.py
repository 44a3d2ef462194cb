"""Messages for people, in their language.

A service says `tr("Round {number} is closed.", number=3)`: that is an English `str` (logs, tests and API clients
that send no Accept-Language see exactly that) which remembers its template and values, so the API can say it in
the reader's language at the edge (`localize`, called where errors leave the GraphQL layer). Templates are gettext
message ids; the translations live in server/locales/<locale>/<area>.po (tests check every template has one in
each locale, with the same placeholders). A value that is itself a `Text` is translated too.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

DEFAULT_LOCALE = "en"
LOCALES = ("en", "es", "fr", "ar")  # the PWA's languages (pwa/src/i18n/locales.ts)
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"


class Text(str):
    """An English message that can be said again in another language (see the module's docstring)."""

    template: str
    plural: str | None
    quantity: int | None  # what chooses the plural form (not `count`: str.count must keep working)
    params: Mapping[str, object]

    def __new__(cls, template: str, params: Mapping[str, object], plural: str | None = None, quantity: int | None = None):
        chosen = plural if plural is not None and quantity != 1 else template
        text = super().__new__(cls, chosen.format(**params))
        text.template, text.plural, text.quantity, text.params = template, plural, quantity, dict(params)
        return text

    def __getnewargs__(self) -> tuple:  # type: ignore[override]  # pickle and copy rebuild it from its parts
        return (self.template, self.params, self.plural, self.quantity)


def tr(template: str, /, **params: object) -> Text:
    """A translatable message; `template` must be a literal (it is the catalogs' message id)."""
    return Text(template, params)


def trn(singular: str, plural: str, /, count: int, **params: object) -> Text:
    """A translatable message with plural forms, chosen by `count` (also a placeholder: `{count}`)."""
    return Text(singular, {"count": count, **params}, plural, count)


def read_catalog(locale: str) -> Catalog:
    """Every server/locales/<locale>/*.po file (one per area of the server) as one catalog."""
    combined = Catalog(locale=locale)
    for path in sorted((LOCALES_DIR / locale).glob("*.po")):
        with path.open("rb") as po:
            for message in read_po(po, locale=locale):
                translated = all(message.string) if isinstance(message.string, tuple) else bool(message.string)
                if message.id and translated and not message.fuzzy:  # an area's empty entry never hides another's
                    combined[message.id] = message
    return combined


@cache
def _catalog(locale: str) -> Translations:
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog(locale))  # gettext reads the compiled form; fuzzy entries are left out
    compiled.seek(0)
    return Translations(compiled)


def translate(message: str, locale: str) -> str:
    """`message` in `locale`; a plain str, an unknown locale or a missing translation stays as it is (English)."""
    if not isinstance(message, Text) or locale == DEFAULT_LOCALE or locale not in LOCALES:
        return str(message)
    catalog = _catalog(locale)
    if message.plural is not None:
        pattern = catalog.ngettext(message.template, message.plural, message.quantity or 0)
    else:
        pattern = catalog.gettext(message.template)
    params = {name: translate(value, locale) if isinstance(value, Text) else value for name, value in message.params.items()}
    try:
        return pattern.format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation must not hide the message
        return str(message)


_LANGUAGE_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:[-_][A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([01](?:\.\d{0,3})?))?\s*$")


def negotiate(accept_language: str | None) -> str:
    """The best of LOCALES for an Accept-Language header (RFC 9110 weights; "es-MX" means "es"), else English."""
    best, best_weight = DEFAULT_LOCALE, 0.0
    for item in (accept_language or "")[:512].split(","):
        match = _LANGUAGE_RANGE.match(item)
        if not match:
            continue
        language, weight = match.group(1).lower(), float(match.group(2) or 1)
        if language in LOCALES and weight > best_weight:  # strictly: on a tie, the one listed first wins
            best, best_weight = language, weight
    return best


# The reader of the current GraphQL operation (set by server/graphql/core/locale.py).
reader_locale: ContextVar[str] = ContextVar("reader_locale", default=DEFAULT_LOCALE)


def localize(message: str) -> str:
    """`message` in the current reader's language."""
    return translate(message, reader_locale.get())
