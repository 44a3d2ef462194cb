"""Deterministic text perturbations for robustness and fairness scores (docs/design.md §4). Pure, no I/O.

Robustness perturbations (meaning-preserving noise; one kind per variant):
  * typos: on ~10% of the words (at least one), an adjacent-QWERTY-key substitution, a swap of two
    adjacent letters, or a deletion of one letter;
  * case changes: lower-case everything, upper-case everything, Title Case, or upper-case one word;
  * punctuation / whitespace insertion: a doubled space, a punctuation mark after a word, or a
    repeated / added final mark;
  * contractions: "do not" → "don't", "I am" → "I'm", … and back ("can't" → "cannot"), on a
    random non-empty subset of the places where one applies, case preserved.
Fairness perturbations (demographic swaps; the label should not change):
  * names: every first name from ``FIRST_NAMES`` is replaced by a name of the same gender from
    another ethnicity list (consistently: the same name gets the same replacement everywhere,
    also across the fields of one example, and never a name already in the text);
  * gender: gendered words are swapped (he↔she, his↔her, man↔woman, mother↔father, …, case
    preserved) and names are swapped to the other gender of the same ethnicity list, so that
    "Emily said she …" becomes e.g. "Greg said he …" rather than "Emily said he …".
  Text with no listed name and no gendered word has no fairness variant: ``perturb`` returns [].

Determinism: every choice comes from ``random.Random(f"{seed}:{kind}:{text}")`` (for several
fields the texts are joined with U+001F); ``random.Random`` seeds a str through SHA-512, so the
output does not depend on PYTHONHASHSEED, the process, or the machine. No set is ever iterated.

Why not AugLy or nlpaug (the design notes prefer them when they run offline) — checked on this machine:
  * ``augly[text]`` 1.0.0 (2022) installs from PyPI and its text functions do run offline, but only
    after adding dependencies it does not declare (numpy, requests); it pins ``nlpaug==1.1.3`` and
    needs ``python-magic`` (libmagic), in a 24 MB wheel that is mostly image/video assets.
  * Both draw from the process-global ``random`` / numpy state. Seeding per call would mean
    reseeding globals: not safe with concurrent jobs, and outputs change with library versions.
    Our outputs are stored as dataset rows (perturbed copies), so they must be reproducible.
  * AugLy's ``swap_gendered_words`` left a sentence-initial "She" unswapped in our trial
    ("She said he … mother" → "She said she … father"), and neither library has the demographic
    first-name lists that the fairness score needs.
  * nlpaug 1.1.11 alone requires pandas, requests and gdown; its word-level augmenters download
    models or data at run time, which cannot work here.
So this package implements the few perturbations §4 names itself, in the spirit of AugLy's
``simulate_typos`` / ``change_case`` / ``insert_punctuation_chars`` / ``contractions`` /
``swap_gendered_words`` and of the name lists used in fairness work (Bertrand & Mullainathan 2004;
Caliskan et al. 2017), which are written out by hand in ``words.py``.

Layout: ``words.py`` (the word lists), ``robustness.py`` and ``fairness.py`` (the operations of each
kind and which of them apply to a text), ``text.py`` (shared helpers); this module picks the
variants. Public API: ``perturb``, ``perturb_fields``, ``KINDS``, ``FIRST_NAMES``, ``GENDERED_PAIRS``,
``CONTRACTIONS``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Literal

from server.evaluation.metrics.perturbations import fairness, robustness
from server.evaluation.metrics.perturbations.words import CONTRACTIONS, FIRST_NAMES, GENDERED_PAIRS

__all__ = ["CONTRACTIONS", "FIRST_NAMES", "GENDERED_PAIRS", "KINDS", "Kind", "perturb", "perturb_fields"]

Kind = Literal["robustness", "fairness"]
KINDS: tuple[str, ...] = ("robustness", "fairness")
_FIELD_SEPARATOR = "\x1f"
_ATTEMPTS_PER_VARIANT = 10


def _variants(texts: list[str], kind: str, seed: int, n: int) -> list[list[str]]:
    if kind not in KINDS:
        raise ValueError(f"unknown perturbation kind {kind!r}; known: {', '.join(KINDS)}")
    if n < 0:
        raise ValueError("n must be non-negative")
    rng = random.Random(f"{seed}:{kind}:{_FIELD_SEPARATOR.join(texts)}")
    operations = robustness.operations(texts) if kind == "robustness" else fairness.operations(texts)
    rng.shuffle(operations)
    results: list[list[str]] = []
    seen = {tuple(texts)}
    attempt = 0
    while operations and len(results) < n and attempt < n * _ATTEMPTS_PER_VARIANT:
        candidate = operations[attempt % len(operations)](texts, rng)
        attempt += 1
        if tuple(candidate) not in seen:
            seen.add(tuple(candidate))
            results.append(candidate)
    return results


def perturb(text: str, kind: Kind, seed: int, n: int = 3) -> list[str]:
    """Up to ``n`` distinct perturbed variants of ``text``, each different from it.

    ``kind`` is "robustness" or "fairness" (see the module docstring). Variants cycle through the
    applicable perturbation types in a seeded order, one type per variant. Fewer than ``n`` come
    back when the text does not allow more (e.g. fairness on a text without names or gendered
    words returns []). Same (text, kind, seed, n) → same list, in every process.
    """
    return [variant[0] for variant in _variants([text], kind, seed, n)]


def perturb_fields(
    fields: Mapping[str, str], perturbable: Sequence[str], kind: Kind, seed: int, n: int = 3
) -> list[dict[str, str]]:
    """Up to ``n`` distinct perturbed copies of an example's fields (full dicts).

    Only the fields named in ``perturbable`` (and holding text) change; the others are copied
    as they are: the caller decides, e.g. only the question of an extractive-QA example, so
    that answer spans in the context stay valid. Each copy differs from the original in at least
    one field. One perturbation type is applied to every perturbable field of a copy, and a
    fairness copy uses one name mapping across the fields (an NLI premise and hypothesis that
    both say "Emily" both get the same new name). With one perturbable field the variants are
    exactly those of ``perturb`` on its text.
    """
    names = [name for name in dict.fromkeys(perturbable) if isinstance(fields.get(name), str)]
    if not names:
        if kind not in KINDS:
            raise ValueError(f"unknown perturbation kind {kind!r}; known: {', '.join(KINDS)}")
        return []
    texts = [fields[name] for name in names]
    return [{**fields, **dict(zip(names, variant))} for variant in _variants(texts, kind, seed, n)]
