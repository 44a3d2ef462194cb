"""The server's messages in the reader's language (server/core/i18n.py): the catalogs are complete and consistent
with the code, and translation, plurals and language negotiation behave."""

from __future__ import annotations

import copy
import pickle

import pytest

from server.core.i18n import DEFAULT_LOCALE, LOCALES, Text, negotiate, read_catalog, tr, translate, trn
from server.core.i18n_sources import SERVER_DIR, Message, NonLiteral, placeholders, scan

FOUND = list(scan([SERVER_DIR]))
MESSAGES = {item.id: item for item in FOUND if isinstance(item, Message)}
TRANSLATED = [locale for locale in LOCALES if locale != DEFAULT_LOCALE]


def test_every_template_is_a_literal():
    assert [item.where for item in FOUND if isinstance(item, NonLiteral)] == []


def test_the_server_has_translatable_messages():
    assert len(MESSAGES) > 100


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(locale):
    catalog = read_catalog(locale)
    problems = []
    for message in MESSAGES.values():
        entry = catalog.get(message.id)
        if entry is None or entry.fuzzy:
            problems.append(f"{message.where}: not translated: {message.id!r}")
            continue
        forms = list(entry.string) if isinstance(entry.string, tuple) else [entry.string]
        if message.plural is not None and len(forms) != catalog.num_plurals:
            problems.append(f"{message.where}: {len(forms)} plural forms, {locale} has {catalog.num_plurals}: {message.id!r}")
        expected = placeholders(message.id) | (placeholders(message.plural) if message.plural else set())
        for form in forms:
            if not form:
                problems.append(f"{message.where}: empty translation: {message.id!r}")
            elif message.plural is None and placeholders(form) != expected:
                problems.append(f"{message.where}: placeholders {placeholders(form)} != {expected}: {form!r}")
            elif message.plural is not None and not placeholders(form) <= expected:
                problems.append(f"{message.where}: unknown placeholders in {form!r}")  # a form may omit {count}
    assert problems == []


@pytest.mark.parametrize("locale", TRANSLATED)
def test_no_translation_is_left_over_from_removed_messages(locale):
    assert (
        sorted(
            entry.id if isinstance(entry.id, str) else entry.id[0]
            for entry in read_catalog(locale)
            if entry.id and (entry.id if isinstance(entry.id, str) else entry.id[0]) not in MESSAGES
        )
        == []
    )


def test_a_message_is_english_until_translated():
    message = tr("{what} does not exist.", what=tr("That round"))
    assert isinstance(message, str) and isinstance(message, Text)
    assert message == "That round does not exist."
    assert translate(message, "en") == "That round does not exist."
    assert translate("a plain string", "es") == "a plain string"
    assert translate(message, "de") == "That round does not exist."  # not a UI language


def test_nested_values_are_translated_too():
    message = tr("{what} does not exist.", what=tr("That round"))
    spanish = translate(message, "es")
    assert spanish != str(message) and "{" not in spanish
    assert translate(tr("That round"), "es") in spanish


def test_plural_forms_follow_the_language():
    def examples(n):
        return trn("{count} example", "{count} examples", count=n)

    assert [examples(n) for n in (1, 2)] == ["1 example", "2 examples"]
    # Arabic has six forms (CLDR): zero, one, two, few (3-10), many (11-99), other (100-102...).
    arabic = {n: translate(examples(n), "ar") for n in (0, 1, 2, 5, 11, 100)}
    assert len(set(arabic.values())) == 6, arabic
    assert arabic[2] == "مثالان" and arabic[11] == "11 مثالًا" and arabic[100] == "100 مثال"
    assert translate(examples(1), "fr") != translate(examples(2), "fr")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("es", "es"),
        ("es-MX,es;q=0.9,en;q=0.8", "es"),
        ("de-DE, fr;q=0.5, ar;q=0.4", "fr"),
        ("en;q=0.5, ar", "ar"),
        ("fr, es", "fr"),
        ("es;q=0", "en"),
        ("*", "en"),
        ("x" * 10_000, "en"),
        ("es;q=abc, fr;q=0.2", "fr"),
    ],
)
def test_negotiating_the_language(header, expected):
    assert negotiate(header) == expected


def test_a_message_survives_pickling_and_copying():
    """Job results and errors cross processes pickled (arq): a message keeps what it needs to be translated."""
    message = tr("{what} does not exist.", what=tr("That round"))
    for copied in (pickle.loads(pickle.dumps(message)), copy.deepcopy(message)):
        assert copied == message and isinstance(copied, Text)
        assert translate(copied, "es") == translate(message, "es")


def test_a_message_is_still_an_ordinary_string():
    message = trn("{count} example", "{count} examples", count=3)
    assert message.count("e") == 2 and message.upper() == "3 EXAMPLES" and message.split() == ["3", "examples"]


def test_every_rate_limited_action_is_worded():
    from server.core.rate_limits import Action, _amount

    for action in Action:
        assert _amount(action, 2) == f"2 {action.value}"
        assert _amount(action, 1) == f"1 {action.value.removesuffix('s')}"
