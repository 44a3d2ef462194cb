"""Small helpers shared by the robustness and fairness perturbations. Pure."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

# One perturbation type: an example's perturbable texts (and the seeded generator) -> the new texts.
Operation = Callable[[Sequence[str], random.Random], list[str]]


def match_case(source: str, replacement: str) -> str:
    """``replacement`` in the case pattern of ``source``: UPPER, Capitalized or as given."""
    if len(source) > 1 and source.isupper():
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement
