"""The generator's side of suggestions: the prompt built from the task's goal, the context, the label set and the
author's draft, and the parsing of whatever the generator writes back into candidate examples. Pure, no I/O.

Generators chatter ("Sure! Here are three examples:"), number their lines, quote them, add labels in several styles or
write one paragraph; the parser keeps one candidate per line (or per sentence when there is a single line), drops
lines that introduce or close a list, reads a leading label when it is one of the task's, and caps count and length.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.generation.params import ChatMessage

MAX_GOAL_CHARS = 1200
MAX_CONTEXT_CHARS = 1500  # per field: a long passage is cut, the generator needs its gist
MAX_DRAFT_CHARS = 1000
MIN_CANDIDATE_CHARS = 3

_BULLET = re.compile(r"^\s*(?:[-*•·>]+|\(?\d{1,2}[.):]|\(?[a-e][.)])\s*")
_SPEAKER = re.compile(r"^\s*(?:user|assistant|example|candidate|message|statement|text)\s*\d*\s*[:\-–]\s*", re.IGNORECASE)
_CHATTER = re.compile(
    r"^(?:sure|certainly|of course|okay|ok|here (?:are|is)|i hope|let me know|these (?:examples|messages)|"
    r"note:|i can(?:not|'t)|as an ai)\b",
    re.IGNORECASE,
)
_QUOTES = "\"'“”‘’«»`"
_LABEL = re.compile(r"^\s*(?:\[(\w+)\]|\((\w+)\)|(\w+)\s*[:|–-])\s*(.+)$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")


@dataclass(frozen=True)
class Brief:
    """What the generator is told."""

    kind: str  # the task's kind: classification | extractive_qa | generative
    goal: str  # the generative goal, else the task's description or instructions
    field_name: str  # the input field a candidate fills (the opening message, for a generative task)
    labels: tuple[str, ...] = ()
    context: Mapping[str, str] | None = None
    draft: str = ""
    count: int = 3


@dataclass(frozen=True)
class Candidate:
    text: str
    label: str | None = None  # the label the generator meant, when it gave one of the task's


def messages(brief: Brief) -> tuple[ChatMessage, ...]:
    """The chat the generator is asked (system text, then one user message)."""
    system = (
        "You help people write test examples that a model might get wrong. "
        "Answer with the examples only, one per line, no numbering and no explanations."
    )
    parts = [f"Goal: {_cut(brief.goal, MAX_GOAL_CHARS)}"]
    for name, value in (brief.context or {}).items():
        if value.strip():
            parts.append(f"{name.replace('_', ' ').capitalize()}: {_cut(value, MAX_CONTEXT_CHARS)}")
    n = max(1, brief.count)
    if brief.kind == "generative":
        ask = f"Write {n} different opening messages a person could send to the model to reach the goal."
    elif brief.kind == "classification" and brief.labels:
        parts.append("Labels: " + ", ".join(brief.labels))
        ask = (
            f"Write {n} different {_field_words(brief.field_name)} a classifier is likely to label wrongly. "
            "Start each line with the label it really has, then a colon."
        )
    else:
        ask = f"Write {n} different {_field_words(brief.field_name)} the model is likely to answer wrongly."
    if brief.draft.strip():
        parts.append(f"The person's draft: {_cut(brief.draft, MAX_DRAFT_CHARS)}")
        ask += " Stay close to the draft's topic."
    parts.append(ask)
    return (ChatMessage("system", system), ChatMessage("user", "\n".join(parts)))


def parse(text: str, count: int, max_length: int, labels: Sequence[str] = ()) -> list[Candidate]:
    """At most `count` distinct candidates of at most `max_length` characters from the generator's text."""
    lines = [line for line in (_clean(raw) for raw in text.replace("\r", "\n").split("\n")) if line]
    if len(lines) == 1 and count > 1:
        lines = [piece.strip() for piece in _SENTENCE.split(lines[0]) if piece.strip()]
    known = {label.lower(): label for label in labels}
    out: list[Candidate] = []
    seen: set[str] = set()
    for line in lines:
        label, body = _labelled(line, known)
        body = _trim(_unquote(body), max_length)
        key = " ".join(body.lower().split())
        if len(body) < MIN_CANDIDATE_CHARS or key in seen:
            continue
        seen.add(key)
        out.append(Candidate(body, label))
        if len(out) >= count:
            break
    return out


def _clean(raw: str) -> str:
    line = _BULLET.sub("", raw.strip())
    while (shorter := _SPEAKER.sub("", line, count=1)) != line:
        line = shorter
    line = line.strip()
    if not line or _CHATTER.match(line) or line.endswith(":"):
        return ""
    return line


def _labelled(line: str, known: Mapping[str, str]) -> tuple[str | None, str]:
    """A leading "label:", "label -", "label |", "[label]" or "(label)" naming one of the task's labels."""
    match = _LABEL.match(line)
    if match:
        label = next(group for group in match.groups()[:3] if group is not None)
        if label.lower() in known:
            return known[label.lower()], match.group(4).strip()
    return None, line


def _unquote(text: str) -> str:
    text = text.strip()
    while len(text) > 1 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1].strip()
    return text


def _trim(text: str, max_length: int) -> str:
    """Cut at a word boundary within the field's limit."""
    if len(text) <= max_length:
        return text
    cut = text[:max_length]
    space = cut.rfind(" ")
    return (cut[:space] if space > max_length // 2 else cut).rstrip()


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _field_words(name: str) -> str:
    return name.replace("_", " ") + "s" if not name.endswith("s") else name.replace("_", " ")
