"""A model's status log as its owner reads it: no internal names, no server paths.

Triton's and the python backend's messages name the model by its internal Triton name (``submission_12_ab12cd34``,
its instances ``submission_12_ab12cd34_0_1``) and quote tracebacks with the temporary folder Triton wrote the
uploaded files into (``/tmp/folderh5IFGa/1/model.py``). :func:`scrub` turns the first into "your model" and the
second into the file's path inside the model folder (``1/model.py``); other server paths keep only what helps
(a library's path below site-packages, else the file name), the stored archive becomes "your archive", internal
addresses become "the server", and control characters (NUL included) become U+FFFD. Pure and idempotent: applied when
a log entry is stored (server/evaluation/models/status.py) and again when one is served (entries stored before it
existed). Unit tests: tests/unit/test_log_text.py.
"""

from __future__ import annotations

import re

YOUR_MODEL = "your model"
YOUR_ARCHIVE = "your archive"
THE_SERVER = "the server"

_PATH_CHAR = r"[\w.\-+@~]"
# "model 'submission_12_ab12cd34'", "model submission_12_ab12cd34", "'submission_2'", and its instances' names.
_SUBMISSION = re.compile(
    r"""(?:\bmodel\s+)?(?P<q>['"]?)\bsubmission_\w+(?:-\w+)*(?P=q)""",
    re.IGNORECASE,
)
# The folder Triton writes a load request's files into (any scratch folder before it): dropped.
_OVERRIDE_FOLDER = re.compile(rf"(?:(?<![\w:/])/(?:{_PATH_CHAR}+/)*)?folder[A-Za-z0-9]{{6}}/")
# The stored upload (settings.model_store_dir/model-<id>.archive), absolute or relative.
_STORED_ARCHIVE = re.compile(rf"(?:{_PATH_CHAR}*/)*\.?(?:model-\d+\.archive|upload-(?:retrain-)?\d+-[\d.]+)\b")
# Any other absolute path: keep the part below site-packages/dist-packages, else the file name.
_ABSOLUTE_PATH = re.compile(rf"(?<![\w:/.])/(?:{_PATH_CHAR}+/)+(?P<file>{_PATH_CHAR}+)")
_PACKAGES = re.compile(r"/(?:site|dist)-packages/(?P<rest>.+)$")
# Characters a log entry cannot hold (PostgreSQL's jsonb refuses NUL and unpaired surrogates) or that only garble it:
# control characters other than newline and tab. A model's or a train.py's output may print anything.
_UNSTORABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")
# Internal addresses (Triton, the sandbox agent, Redis, ...).
_ADDRESS = re.compile(r"\b(?:(?:\d{1,3}\.){3}\d{1,3}|localhost|\[::1?\])(?::\d+)?(?:/[\w./\-]*)?")


def _path(match: re.Match[str]) -> str:
    packaged = _PACKAGES.search(match.group(0))
    return packaged.group("rest") if packaged else match.group("file")


def scrub(message: str, triton_name: str = "") -> str:
    """The message with internal model names, server paths and addresses replaced (see the module's doc)."""
    if triton_name:
        message = re.sub(rf"(?:\bmodel\s+)?(['\"]?){re.escape(triton_name)}\w*\1", YOUR_MODEL, message)
    message = _UNSTORABLE.sub("\ufffd", message)
    message = _SUBMISSION.sub(YOUR_MODEL, message)
    message = _OVERRIDE_FOLDER.sub("", message)
    message = _STORED_ARCHIVE.sub(YOUR_ARCHIVE, message)
    message = _ABSOLUTE_PATH.sub(_path, message)
    return _ADDRESS.sub(THE_SERVER, message)


EXCERPT_CHARS = 80


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A model's output as a status log quotes it: escaped (repr: no control characters, no line breaks) and at
    most ``limit`` characters of it, with its length when it was longer. The log is no channel for what the code
    read: a label a few bytes long shows whole, a megabyte of it does not."""
    text = value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


# Triton's own informational lines (glog: "I1128 07:40:55.124860 1499 server.cc:305] ...") and its signal notice: its
# lifecycle around the model (loaded, stopping), not what the model printed. Warnings and errors stay.
_TRITON_INFO = re.compile(r"^I\d{4} \d{2}:\d{2}:\d{2}\.\d+ +\d+ [\w./-]+:\d+\] ")
_SIGNAL = re.compile(r"^Signal \(\d+\) received\.$")


def model_output(tail: str) -> str:
    """The end of a model's log without Triton's informational lines: when the model is stopped after failing, the
    lines of its own shutdown would otherwise fill the excerpt and push out what the model last printed."""
    kept = [line for line in tail.splitlines() if not _TRITON_INFO.match(line) and not _SIGNAL.match(line.strip())]
    return "\n".join(kept)
