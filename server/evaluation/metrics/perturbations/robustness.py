"""Robustness perturbations: meaning-preserving noise (typos, case, punctuation / whitespace,
contractions), each a (text, rng) -> text operation. Pure."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from server.evaluation.metrics.perturbations.text import Operation, match_case
from server.evaluation.metrics.perturbations.words import CONTRACTIONS, EXPAND_ONLY, QWERTY_ROWS

_CONTRACT = {expanded.lower(): contracted for expanded, contracted in CONTRACTIONS}
_EXPAND = {contracted.lower(): expanded for expanded, contracted in (*CONTRACTIONS, *EXPAND_ONLY)}


def _phrase_pattern(expanded: str) -> str:
    pattern = re.escape(expanded).replace(r"\ ", r"\s+")
    # A negation contracts anywhere ("I do not." -> "I don't."); "it is" only before another word,
    # and not before "not" ("it will not" -> "it won't", never "it'll not").
    return pattern if expanded.endswith("not") else pattern + r"(?=\s+\w)(?!\s+not\b)"


_CONTRACT_RE = re.compile(
    r"\b(?:" + "|".join(_phrase_pattern(e) for e, _ in CONTRACTIONS) + r")\b",
    re.IGNORECASE,
)
_EXPAND_RE = re.compile(
    r"\b(" + "|".join(re.escape(c).replace("'", "['’]") for c in _EXPAND) + r")\b(?!\s+(?:been|got)\b)",
    re.IGNORECASE,
)


def _adjacent_keys() -> dict[str, str]:
    adjacent: dict[str, str] = {}
    for r, row in enumerate(QWERTY_ROWS):
        for c, ch in enumerate(row):
            near: list[str] = []
            for rr, cols in ((r - 1, (c, c + 1)), (r, (c - 1, c + 1)), (r + 1, (c - 1, c))):
                if 0 <= rr < len(QWERTY_ROWS):
                    near += [QWERTY_ROWS[rr][cc] for cc in cols if 0 <= cc < len(QWERTY_ROWS[rr])]
            adjacent[ch] = "".join(near)
    return adjacent


_ADJACENT_KEYS = _adjacent_keys()

_WORD_RE = re.compile(r"[^\W\d_]+")  # runs of letters
_WORD_START_RE = re.compile(r"(?<![\w'’])[^\W\d_]+")  # letter runs not right after a letter or ' ("don't": "don")
_GAP_RE = re.compile(r"(?<=\S) (?=\S)")  # single spaces between two non-spaces
_INSERTED_MARKS = (",", ".", "!", "?", ";", " -", "...")


def _typo_word(word: str, rng: random.Random) -> str:
    operations = ["substitute", "swap"] + (["delete"] if len(word) >= 3 else [])
    operation = rng.choice(operations)
    if operation == "substitute":
        candidates = [i for i, ch in enumerate(word) if ch.lower() in _ADJACENT_KEYS]
        if candidates:
            i = rng.choice(candidates)
            new = rng.choice(_ADJACENT_KEYS[word[i].lower()])
            return word[:i] + (new.upper() if word[i].isupper() else new) + word[i + 1 :]
        operation = "swap"
    if operation == "swap":
        candidates = [i for i in range(len(word) - 1) if word[i] != word[i + 1]]
        if candidates:
            i = rng.choice(candidates)
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        if len(word) < 3:
            return word
    i = rng.randrange(len(word))
    return word[:i] + word[i + 1 :]


def _typos(text: str, rng: random.Random) -> str:
    words = [m for m in _WORD_RE.finditer(text) if len(m.group()) >= 3]
    if not words:
        words = [m for m in _WORD_RE.finditer(text) if len(m.group()) >= 2]
    if not words:
        return text
    count = max(1, round(0.1 * len(words)))
    chosen = sorted(rng.sample(range(len(words)), count))
    pieces, last = [], 0
    for index in chosen:
        match = words[index]
        pieces += [text[last : match.start()], _typo_word(match.group(), rng)]
        last = match.end()
    return "".join(pieces) + text[last:]


def _case(text: str, rng: random.Random) -> str:
    words = list(_WORD_START_RE.finditer(text))
    options: list[Callable[[], str]] = [text.lower, text.upper, lambda: _title(text)]
    if words:

        def upper_one_word() -> str:
            match = rng.choice(words)
            return text[: match.start()] + match.group().upper() + text[match.end() :]

        options.append(upper_one_word)
    results = [option() for option in options]
    changed = [r for r in results if r != text]
    return rng.choice(changed) if changed else text


def _title(text: str) -> str:
    """Capitalize the first letter of every word ("don't stop" -> "Don't Stop"; "NASA" stays)."""
    return _WORD_START_RE.sub(lambda m: m.group()[:1].upper() + m.group()[1:], text)


def _punctuation(text: str, rng: random.Random) -> str:
    if not text.strip():
        return text
    choice = rng.choice(("space", "mark", "end"))
    gaps = list(_GAP_RE.finditer(text))
    words = list(_WORD_RE.finditer(text))
    if choice == "space" and gaps:
        gap = rng.choice(gaps)
        return text[: gap.start()] + " " * rng.choice((2, 3)) + text[gap.start() + 1 :]
    if choice == "mark" and words:
        word = rng.choice(words)
        return text[: word.end()] + rng.choice(_INSERTED_MARKS) + text[word.end() :]
    stripped = text.rstrip()
    trailing = text[len(stripped) :]
    if stripped[-1] in ".!?":
        return stripped + stripped[-1] * rng.choice((1, 2)) + trailing
    return stripped + rng.choice((".", "!", "...")) + trailing


def _contraction_sites(text: str) -> list[tuple[int, int, str]]:
    """Every (start, end, replacement) where a contraction can be made or undone, in text order."""
    sites = []
    for match in _CONTRACT_RE.finditer(text):
        phrase = match.group()
        key = " ".join(phrase.lower().split())
        sites.append((match.start(), match.end(), match_case(phrase, _CONTRACT[key])))
    for match in _EXPAND_RE.finditer(text):
        phrase = match.group()
        sites.append((match.start(), match.end(), match_case(phrase, _EXPAND[phrase.lower().replace("’", "'")])))
    sites.sort()
    kept, last_end = [], -1
    for site in sites:  # overlaps cannot happen in practice; keep the first to be safe
        if site[0] >= last_end:
            kept.append(site)
            last_end = site[1]
    return kept


def _contractions(text: str, rng: random.Random) -> str:
    sites = _contraction_sites(text)
    if not sites:
        return text
    chosen = sorted(rng.sample(range(len(sites)), rng.randint(1, len(sites))))
    pieces, last = [], 0
    for index in chosen:
        start, end, replacement = sites[index]
        pieces += [text[last:start], replacement]
        last = end
    return "".join(pieces) + text[last:]


_ROBUSTNESS_OPS: tuple[tuple[str, Callable[[str, random.Random], str]], ...] = (
    ("typos", _typos),
    ("case", _case),
    ("punctuation", _punctuation),
    ("contractions", _contractions),
)


def _robustness_applies(name: str, text: str) -> bool:
    if name == "typos":
        return any(len(m.group()) >= 2 for m in _WORD_RE.finditer(text))
    if name == "case":
        return any(ch.isalpha() for ch in text)
    if name == "punctuation":
        return bool(text.strip())
    return bool(_contraction_sites(text))


def operations(texts: Sequence[str]) -> list[Operation]:
    """The robustness types that apply to at least one of ``texts``, each changing every field, in a fixed order."""
    applicable: list[Operation] = []
    for name, op in _ROBUSTNESS_OPS:
        if any(_robustness_applies(name, t) for t in texts):
            # mypy cannot infer a lambda with a default argument (the default binds this loop's op).
            applicable.append(lambda ts, r, op=op: [op(t, r) for t in ts])  # type: ignore[misc]
    return applicable
