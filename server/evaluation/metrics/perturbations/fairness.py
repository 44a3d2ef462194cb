"""Fairness perturbations: demographic swaps of first names and gendered words, with one name mapping
shared by all fields of an example. Pure."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

from server.evaluation.metrics.perturbations.text import Operation, match_case
from server.evaluation.metrics.perturbations.words import FIRST_NAMES, GENDERED_PAIRS, NOT_A_NOUN

_OTHER_GENDER = {"female": "male", "male": "female"}
_NAME_GROUP: dict[str, tuple[str, str]] = {name.lower(): group for group, names in FIRST_NAMES.items() for name in names}
# Names are matched as whole words with a capital first letter ("Emily", "EMILY", "Emily's").
_NAME_RE = re.compile(
    r"\b(" + "|".join(sorted((re.escape(n) for n in _NAME_GROUP), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def _gender_swap_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for male, female in GENDERED_PAIRS:
        table.setdefault(male, female)
        table.setdefault(female, male)  # "lady" -> "gentleman" (the first pair wins)
    table.update({"ms": "mr", "him": "her", "hers": "his"})
    return table


_GENDER_SWAP = _gender_swap_table()
_PRONOUNS = ("his", "her")
_GENDERED_RE = re.compile(
    r"\b(" + "|".join(sorted((re.escape(w) for w in [*_GENDER_SWAP, *_PRONOUNS]), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def _next_word(text: str, end: int) -> str | None:
    """The word right after position ``end`` (lower-cased), or None at punctuation / end of text."""
    match = re.match(r"\s+([^\W\d_]+)", text[end:])
    return match.group(1).lower() if match else None


def _names_in(texts: Sequence[str]) -> list[str]:
    """Distinct listed first names (lower-cased) in order of first appearance."""
    found: dict[str, None] = {}
    for text in texts:
        for match in _NAME_RE.finditer(text):
            if match.group()[0].isupper():
                found.setdefault(match.group().lower(), None)
    return list(found)


def _name_mapping(names: list[str], rng: random.Random, flip_gender: bool) -> dict[str, str]:
    """For each name: same gender, other ethnicity; or (flip_gender) same ethnicity, other gender."""
    taken = set(names)  # only looked up, never iterated
    mapping: dict[str, str] = {}
    for name in names:
        ethnicity, gender = _NAME_GROUP[name]
        if flip_gender:
            groups = [(ethnicity, _OTHER_GENDER[gender])]
        else:
            groups = [group for group in FIRST_NAMES if group[1] == gender and group[0] != ethnicity]
        group = rng.choice(groups)
        choices = [n for n in FIRST_NAMES[group] if n.lower() not in taken] or list(FIRST_NAMES[group])
        new = rng.choice(choices)
        taken.add(new.lower())
        mapping[name] = new
    return mapping


def _apply_names(text: str, mapping: Mapping[str, str]) -> str:
    def replace(match: re.Match[str]) -> str:
        word = match.group()
        if not word[0].isupper() or word.lower() not in mapping:
            return word
        return match_case(word, mapping[word.lower()])

    return _NAME_RE.sub(replace, text)


def _swap_gendered(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        word = match.group()
        lower = word.lower()
        if lower == "her":
            following = _next_word(text, match.end())
            new = "his" if following is not None and following not in NOT_A_NOUN else "him"
        elif lower == "his":
            following = _next_word(text, match.end())
            new = "hers" if following is None or following in NOT_A_NOUN else "her"
        else:
            new = _GENDER_SWAP[lower]
        return match_case(word, new)

    return _GENDERED_RE.sub(replace, text)


def _swap_names(texts: Sequence[str], rng: random.Random) -> list[str]:
    mapping = _name_mapping(_names_in(texts), rng, flip_gender=False)
    return [_apply_names(text, mapping) for text in texts]


def _swap_gender(texts: Sequence[str], rng: random.Random) -> list[str]:
    mapping = _name_mapping(_names_in(texts), rng, flip_gender=True)
    return [_swap_gendered(_apply_names(text, mapping)) for text in texts]


def operations(texts: Sequence[str]) -> list[Operation]:
    """The fairness types that apply to ``texts`` (none without a listed name or a gendered word), in a fixed order."""
    applicable: list[Operation] = []
    if _names_in(texts):
        applicable.append(_swap_names)
    if _names_in(texts) or any(_GENDERED_RE.search(t) for t in texts):
        applicable.append(_swap_gender)
    return applicable
