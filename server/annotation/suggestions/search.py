"""The perturbation search for classifier tasks: small edits of the author's draft, chosen by which words the target
leans on, until the target's label flips. Pure: the target is an injected async function (the service passes the
real prediction path), so the search itself does no I/O.

1. The draft and one variant per word without that word are judged in one batch: the target's label on the draft,
   and each word's attribution (leave-one-out occlusion, as explainPrediction: support(draft) − support(without it),
   support = the probability of the draft's label). The deletions are candidates too.
2. A beam search (width `beam`, depth `max_edits`): from each kept text, the `top_words` words with the highest
   attribution are edited (deleted, negated, an intensifier softened, a known opposite swapped in, a typo, or a word
   from the task's own vocabulary put in their place); every new text is judged; the `beam` texts where the draft's
   label lost the most probability go on. It stops when `want` texts flipped the label or the query budget is spent.
3. The result: flipped texts first (fewest edits, then lowest confidence), then the rest by how far the confidence in
   the draft's label fell.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

from server.annotation.occlusion import TOKEN
from server.evaluation.metrics.perturbations.text import match_case

NEGATIONS = frozenset({"not", "no", "never", "nothing", "nobody", "none", "neither", "nor", "without", "hardly", "barely"})
INTENSIFIERS = frozenset({"very", "really", "so", "extremely", "totally", "absolutely", "truly", "incredibly", "quite", "too"})
# Function words: negating or misspelling them says nothing to a classifier.
STOPWORDS = frozenset(
    "a an the and or but of to in on at by for with from as is are was were be been it its this that these those i you "
    "he she we they me him her us them my your his our their".split()
)
# Opposites derived by hand (no WordNet offline): common evaluative and polar words, both ways.
_PAIRS = (
    ("good", "bad"),
    ("great", "terrible"),
    ("best", "worst"),
    ("love", "hate"),
    ("loved", "hated"),
    ("like", "dislike"),
    ("liked", "disliked"),
    ("happy", "sad"),
    ("excellent", "awful"),
    ("amazing", "boring"),
    ("beautiful", "ugly"),
    ("nice", "nasty"),
    ("fun", "dull"),
    ("wonderful", "dreadful"),
    ("perfect", "flawed"),
    ("always", "rarely"),
    ("better", "worse"),
    ("easy", "hard"),
    ("fast", "slow"),
    ("cheap", "expensive"),
    ("clean", "dirty"),
    ("friendly", "rude"),
    ("recommend", "avoid"),
    ("enjoyed", "endured"),
    ("true", "false"),
    ("all", "some"),
    ("everyone", "someone"),
    ("yes", "no"),
    ("win", "lose"),
    ("won", "lost"),
    ("strong", "weak"),
    ("fresh", "stale"),
    ("positive", "negative"),
    ("success", "failure"),
    ("funny", "tedious"),
    ("brilliant", "mediocre"),
)
OPPOSITES: dict[str, str] = {**dict(_PAIRS), **{b: a for a, b in _PAIRS}}


@dataclass(frozen=True)
class Judged:
    """The target's answer: its label and its probability per label."""

    label: str
    probs: Mapping[str, float]


Predict = Callable[[Sequence[str]], Awaitable[Sequence[Judged]]]


@dataclass(frozen=True)
class Found:
    text: str
    label: str  # the target's label on it
    confidence: float  # the target's probability of the draft's label on it
    flipped: bool
    edits: tuple[str, ...]  # what was done, readable: 'delete "great"', '"good" → "bad"', 'insert "not"'


@dataclass(frozen=True)
class Result:
    draft: Judged
    found: list[Found]
    queries: int  # rows the target was asked
    attributions: dict[str, float] = field(default_factory=dict)  # per word (lowercase): the highest seen


def words(text: str) -> list[tuple[int, int]]:
    """The word tokens' spans (punctuation marks are never edited)."""
    return [(m.start(), m.end()) for m in TOKEN.finditer(text) if m.group()[0].isalnum() or m.group()[0] == "_"]


def edits(text: str, span: tuple[int, int], vocabulary: Sequence[str]) -> list[tuple[str, str]]:
    """(new text, description) for each edit of the word at `span`."""
    start, end = span
    word = text[start:end]
    low = word.lower()
    out = [(_join(text[:start], text[end:]), f'delete "{word}"')]
    if low in OPPOSITES:
        out.append((text[:start] + match_case(word, OPPOSITES[low]) + text[end:], f'"{word}" → "{OPPOSITES[low]}"'))
    if low.endswith("n't") and len(low) > 3:
        base = word[:-3] + ("" if low != "can't" else "n")
        out.append((text[:start] + base + text[end:], f'"{word}" → "{base}"'))
    elif low in INTENSIFIERS:
        out.append((text[:start] + match_case(word, "barely") + text[end:], f'"{word}" → "barely"'))
    elif low not in NEGATIONS and low not in STOPWORDS:
        out.append(
            (text[:start] + match_case(word, "not " + low if word[:1].isupper() else "not " + word) + text[end:], 'insert "not"')
        )
    if len(word) >= 4 and word.isalpha() and low not in STOPWORDS:
        typo = word[:1] + word[2] + word[1] + word[3:]
        if typo != word:
            out.append((text[:start] + typo + text[end:], f'"{word}" → "{typo}"'))
    for other in vocabulary:
        if other.lower() != low:
            out.append((text[:start] + match_case(word, other) + text[end:], f'"{word}" → "{other}"'))
    return [(new, what) for new, what in out if new.strip() and new != text]


async def search(
    draft: str,
    predict: Predict,
    *,
    budget: int = 64,
    vocabulary: Sequence[str] = (),
    beam: int = 3,
    max_edits: int = 3,
    top_words: int = 4,
    want: int = 3,
) -> Result:
    """Edits of `draft` that flip the target's label, or lower its confidence the most, within `budget` rows."""
    spans = words(draft)
    first = [draft, *[_join(draft[:s], draft[e:]) for s, e in spans][: max(0, budget - 1)]]
    judged = list(await predict(first))
    original, label = judged[0], judged[0].label
    base = _p(original, label)
    queries = len(first)
    attribution: dict[str, float] = {}
    pool: dict[str, Found] = {}
    for (s, e), variant, answer in zip(spans, first[1:], judged[1:], strict=False):
        word = draft[s:e]
        attribution[word.lower()] = max(attribution.get(word.lower(), -1.0), round(base - _p(answer, label), 4))
        _keep(pool, variant, answer, label, (f'delete "{word}"',))
    frontier: list[tuple[str, tuple[str, ...]]] = [(draft, ())]
    seen = {draft, *first}
    for _depth in range(max_edits):
        if _flipped(pool) >= want or queries >= budget:
            break
        proposals: list[tuple[str, tuple[str, ...]]] = []
        for text, done in frontier:
            ranked = sorted(words(text), key=lambda sp: _rank(text[sp[0] : sp[1]], attribution))
            for sp in ranked[:top_words]:
                for new, what in edits(text, sp, vocabulary):
                    if new not in seen:
                        seen.add(new)
                        proposals.append((new, (*done, what)))
        proposals = proposals[: budget - queries]
        if not proposals:
            break
        answers = list(await predict([text for text, _ in proposals]))
        queries += len(proposals)
        for (text, done), answer in zip(proposals, answers, strict=False):
            _keep(pool, text, answer, label, done)
        scored = sorted(zip(proposals, answers, strict=False), key=lambda pa: _p(pa[1], label))
        frontier = [proposal for proposal, answer in scored if answer.label == label][:beam]
        if not frontier:
            break
    ranked_found = sorted(pool.values(), key=lambda f: (not f.flipped, len(f.edits) if f.flipped else 0, f.confidence))
    return Result(original, ranked_found[:want], queries, attribution)


def _rank(word: str, attribution: Mapping[str, float]) -> tuple[float, bool, int]:
    """Most supporting first; among equals, content words before function words, longer before shorter."""
    low = word.lower()
    return (-attribution.get(low, 0.0), low in STOPWORDS, -len(word))


def _keep(pool: dict[str, Found], text: str, answer: Judged, label: str, done: tuple[str, ...]) -> None:
    if text.strip() and text not in pool:
        pool[text] = Found(text, answer.label, round(_p(answer, label), 4), answer.label != label, done)


def _flipped(pool: Mapping[str, Found]) -> int:
    return sum(1 for found in pool.values() if found.flipped)


def _p(answer: Judged, label: str) -> float:
    return float(answer.probs.get(label, 1.0 if answer.label == label else 0.0))


def _join(before: str, after: str) -> str:
    """Two pieces of a text with the removed word's spaces closed up (a punctuation mark stays on its word)."""
    before, after = before.rstrip(), after.lstrip()
    gap = " " if before and after[:1].isalnum() else ""
    return (before + gap + after).strip()
