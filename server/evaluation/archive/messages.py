"""What a researcher reads when an archive is refused: plain sentences saying what is wrong and how to fix it.

The refusal's stable code (``LAYOUT``, ``CONTRACT``, ...) travels in its own field of the API error (``reason``);
it never prefixes the message. Pure: no I/O, unit-tested in tests/unit/test_archive_messages.py.
"""

from __future__ import annotations

from typing import Any

from server.core.i18n import Text, tr
from server.evaluation.archive.limits import ArchiveRejected

_REPACK = tr("Create the archive again from the model folder alone, e.g. `tar czf model.tar.gz my_model`, and upload it.")
_LAYOUT = tr("The expected layout is my_model/config.pbtxt with the model's files in my_model/1/ (e.g. my_model/1/model.py).")
_SMALLER = tr("Upload only the files the model needs: config.pbtxt and its version folders.")
_CONFIG = tr("Correct config.pbtxt and upload the archive again.")

# How to fix each refusal, added after its own explanation (None: the explanation already says how).
FIXES: dict[str, Text | None] = {
    "PATH_ESCAPE": _REPACK,
    "ABSOLUTE_PATH": None,  # names the tar command itself
    "BAD_PATH": tr("Rename the file (letters, digits, '.', '_' and '-' are safe), then create the archive again."),
    "PATH_TOO_LONG": tr("Use shorter folder and file names, then create the archive again."),
    "PATH_TOO_DEEP": tr("Put the files in fewer nested folders, then create the archive again."),
    "DUPLICATE_PATH": _REPACK,
    "LINK": None,  # says how to archive the file itself
    "DEVICE": _REPACK,
    "UNSUPPORTED_ENTRY": _REPACK,
    "TOO_MANY_FILES": _SMALLER,
    "TOO_LARGE": _SMALLER,
    "BOMB": _SMALLER,
    "NOT_AN_ARCHIVE": tr("Upload a .tar.gz, .tgz, .tar or .zip of the model folder; if the upload was cut short, try again."),
    "NO_CONFIG": _LAYOUT,
    "BAD_CONFIG": _CONFIG,
    "BACKEND": None,  # names the backends that run here and what to do
    "LAYOUT": _LAYOUT,
    "CONTRACT": tr("Change config.pbtxt (and the model's code) so its inputs and outputs match, then upload it again."),
    "CONFIG_LIMIT": _CONFIG,
}


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    first_word = text.split(maxsplit=1)[0]
    if first_word.isalpha():  # a file name ("config.pbtxt", "model.py") keeps its own case
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


class _Capitalized(Text):
    """A message whose English starts with a capital letter; in other languages it is the message's own translation
    (the catalogs write the explanations that open a refusal with a capital letter already)."""

    _message: Text

    def __new__(cls, message: Text) -> _Capitalized:  # type: ignore[misc]
        text = str.__new__(cls, message[:1].upper() + message[1:])
        text.__dict__.update(vars(message))  # its template and values: translated as the message itself
        text._message = message
        return text

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:  # pickle and copy rebuild it from the message
        return (_Capitalized, (self._message,))


def _translatable_sentence(message: Text, sentence: str) -> str:
    """``sentence`` (``_sentence(message)``) as a message that is said in the reader's language too."""
    opened: Text = _Capitalized(message) if sentence[:1] != message[:1] else message
    if sentence == opened:
        return opened
    if sentence == opened + ".":
        return tr("{explanation}.", explanation=opened)
    return sentence  # the explanation had surrounding blanks: said as it is, in English


def researcher_message(rejected: ArchiveRejected) -> str:
    """The refusal as sentences: the explanation, capitalized (unless it starts with a file name) and ended, then how to fix it (when the explanation does
    not already say so). Never starts with the internal code."""
    explanation = _sentence(rejected.message)
    fix = FIXES.get(rejected.code, _REPACK)
    said_how = fix is None or fix in explanation or (rejected.code == "NOT_AN_ARCHIVE" and "; upload " in explanation)
    if isinstance(rejected.message, Text) and explanation:
        sentence = _translatable_sentence(rejected.message, explanation)
        return sentence if said_how else tr("{explanation} {fix}", explanation=sentence, fix=fix)
    return explanation if said_how else f"{explanation} {fix}"
