"""Leave-one-out occlusion: which words of an example moved the model's answer. Pure domain code, no I/O.

Each piece (a word or punctuation mark, or a run of them in a long text) is removed in turn and the model asked again;
a piece's attribution is how much the model's support for its original answer falls without it (positive: the piece
supported the answer; negative: it pulled the other way). The model's "support" is the probability of the label it
chose (classification), or its confidence when it still gives the same answer and 0 when it answers something else
(extractive QA). Needs nothing from the model but its ordinary outputs, so it works for any target, submissions too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.annotation.fooling import squad_normalize

# Words (with inner apostrophes: "don't") and single punctuation marks; whitespace separates and is never a piece.
TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
_SPACES = re.compile(r"[ \t]{2,}")


@dataclass(frozen=True)
class Piece:
    field: str
    start: int  # character offsets in the field's text
    end: int
    text: str


def pieces(fields: Mapping[str, str], names: Sequence[str], max_pieces: int) -> list[Piece]:
    """The pieces of the named fields' texts, in order. When there are more tokens than `max_pieces`, adjacent tokens
    of a field are grouped (k per piece, the smallest k that fits), so a long text is still covered end to end."""
    tokens = {name: [(m.start(), m.end()) for m in TOKEN.finditer(fields.get(name) or "")] for name in names}
    total = sum(len(spans) for spans in tokens.values())
    if total == 0 or max_pieces < 1:
        return []
    group = max(1, math.ceil(total / max_pieces))
    while sum(math.ceil(len(spans) / group) for spans in tokens.values()) > max_pieces:
        group += 1
    out = []
    for name in names:
        text, spans = fields.get(name) or "", tokens[name]
        for i in range(0, len(spans), group):
            start, end = spans[i][0], spans[min(i + group, len(spans)) - 1][1]
            out.append(Piece(name, start, end, text[start:end]))
    return out


def without(fields: Mapping[str, str], piece: Piece) -> dict[str, str]:
    """The fields with the piece removed (the spaces around it closed up)."""
    text = fields[piece.field]
    return {**fields, piece.field: _SPACES.sub(" ", text[: piece.start] + text[piece.end :]).strip()}


def support(kind: str, output: Mapping[str, Any], original: Mapping[str, Any]) -> float:
    """How much `output` backs the original answer: the probability of the original label, or the confidence in the
    same (SQuAD-normalized) answer, else 0."""
    if kind == "classification":
        return float((output.get("probs") or {}).get(original.get("label"), 0.0))
    same = squad_normalize(str(output.get("answer") or "")) == squad_normalize(str(original.get("answer") or ""))
    return float(output.get("confidence") or 0.0) if same else 0.0


def attributions(kind: str, original: Mapping[str, Any], occluded: Sequence[Mapping[str, Any]]) -> list[float]:
    """One attribution per occluded variant, in order: support(original) − support(variant), rounded to 1e-4."""
    base = support(kind, original, original)
    return [round(base - support(kind, output, original), 4) for output in occluded]
