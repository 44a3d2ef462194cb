"""Triton python-backend model: extractive QA *baseline* (word-overlap span ranker).

Not a neural reader. MiniLM with a QA head did not learn extractive QA within the build
budget on this CPU (docs/design.md), so the built-in QA target is an honestly named baseline:

1. the context is split into sentences and tokens (with character offsets);
2. every sentence is scored by IDF-weighted overlap with the question's content words;
3. every candidate span (1-6 tokens, not starting/ending with a function word) is described
   by features: its sentence's overlap score, how close it is to the overlapping words, its
   own overlap with the question (answers rarely repeat the question), its length, and the
   question type (who / when / where / how many / what ...) crossed with the span's shape
   (year, number, capitalized name, after "in"/"by", ...);
4. a linear model scores the spans; softmax over candidates gives ``confidence``.

The linear weights (``<version dir>/weights/ranker.json``) are fitted by
``dynabench build-models`` on the project's seed QA data (server/modelbuild). This file is
also imported by the build (``QARanker`` and ``candidate_features``), so the features used
for fitting and for serving are the same code.

Inputs:  ``context`` BYTES [1], ``question`` BYTES [1] (batched: [batch, 1]).
Outputs: ``answer`` BYTES [1], ``start`` INT32 [1], ``end`` INT32 [1] (character offsets
into the context, end exclusive), ``confidence`` FP32 [1].
"""

import json
import math
import os
import re

import numpy as np

try:
    import triton_python_backend_utils as pb_utils  # only inside Triton's python-backend stub
except ImportError:  # imported by the build and by tests
    pb_utils = None

MAX_SPAN = 6
STOPWORDS = frozenset(
    """
a an the of in on at to for from by with about as into onto over under and or but nor so yet is are was
were be been being am do does did has have had having it its this that these those there here he she they
them his her their him we us our you your i me my mine what which who whom whose when where why how
not no can could will would shall should may might must also then than too very just only
""".split()
)
WH_TYPES = ("who", "when", "where", "howmany", "howlong", "what", "which", "why", "how", "other")
NUMBER_WORDS = frozenset(
    """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million
billion dozen dozens hundreds thousands millions""".split()
)
MONTHS = frozenset("january february march april may june july august september october november december".split())
_TOKEN = re.compile(r"\d[\d,.]*\d|\d|\w+(?:[-'’]\w+)*|[^\w\s]")
_SENT_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def _stem(word):
    """Crude suffix stripping so that move/moved/moves or found/founded/founder match."""
    w = word.lower()
    if len(w) > 4 and w.endswith(("ies", "ied")):
        w = w[:-3] + "y"
    for suffix in ("ings", "ing", "ers", "er", "ed", "es", "s", "ly"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def tokenize(text):
    """[(token, start, end)] with character offsets."""
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def sentences(text):
    """[(start, end)] character ranges of sentences."""
    out, start = [], 0
    for m in _SENT_END.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


def question_type(question):
    q = question.lower()
    if re.search(r"\bhow (many|much)\b|\bpopulation\b|\bnumber of\b", q):
        return "howmany"
    if re.search(r"\bhow long\b|\bhow old\b", q):
        return "howlong"
    if re.search(r"\bwhen\b|\bwhat year\b|\bwhich year\b|\bin what year\b|\bwhat month\b|\bwhich month\b", q):
        return "when"
    if re.search(r"\bwho\b|\bwhom\b|\bwhose\b|\bby whom\b", q):
        return "who"
    if re.search(r"\bwhere\b|\bwhich (city|country|town|river|university|place)\b|\bwhat (city|country|town|river)\b", q):
        return "where"
    if re.search(r"\bwhy\b", q):
        return "why"
    if re.search(r"\bwhich\b", q):
        return "which"
    if re.search(r"\bwhat\b", q):
        return "what"
    if re.search(r"\bhow\b", q):
        return "how"
    return "other"


def _shape(tokens):
    """Boolean shape flags of a span's tokens."""
    words = [t for t in tokens if re.match(r"\w", t)]
    numeric = [bool(re.fullmatch(r"\d[\d,.]*", t)) or t.lower() in NUMBER_WORDS for t in words]
    is_num = bool(words) and all(numeric)
    has_num = any(numeric)
    year = any(re.fullmatch(r"1\d{3}|20\d{2}", t) for t in words)
    caps = bool(words) and all(t[:1].isupper() or t.lower() in ("of", "the", "de", "van", "von") for t in words)
    month = any(t.lower() in MONTHS for t in words)
    return {
        "num": is_num,
        "has_num": has_num,
        "year": year,
        "caps": caps,
        "caps2": caps and len(words) >= 2,
        "month": month,
        "lower": bool(words) and all(t.islower() for t in words),
    }


SHAPES = (
    "num",
    "has_num",
    "year",
    "caps",
    "caps2",
    "month",
    "lower",
    "after_in",
    "after_by",
    "after_is",
    "after_comma",
    "before_punct",
)
BASE_FEATURES = (
    "bias",
    "sent_score",
    "sent_best",
    "sent_rank",
    "span_overlap",
    "span_has_qword",
    "len1",
    "len2",
    "len3",
    "len4",
    "len5plus",
    "near1",
    "near3",
    "dist",
    "left_match",
    "right_match",
    "has_comma",
    "whnoun_in_span",
    "whnoun_adjacent",
)
_AUX = frozenset("is are was were do does did has have had can could will would the a an".split())


def wh_noun(question):
    """The noun after which/what ("which river" -> "river"), or None."""
    m = re.search(r"\b(?:which|what)\s+(\w+)", question.lower())
    if m and m.group(1) not in _AUX and m.group(1) not in STOPWORDS:
        return _stem(m.group(1))
    return None


FEATURE_NAMES = BASE_FEATURES + tuple(f"{q}*{s}" for q in WH_TYPES for s in SHAPES) + tuple(f"q_{q}" for q in WH_TYPES)


def candidate_features(context, question):
    """Candidate spans of ``context`` for ``question`` and their feature matrix.

    Returns (spans [(start_char, end_char)], features np.ndarray [n_spans, len(FEATURE_NAMES)]).
    """
    qtype = question_type(question)
    q_tokens = [t for t, _, _ in tokenize(question)]
    q_words = {_stem(t) for t in q_tokens if re.match(r"\w", t) and t.lower() not in STOPWORDS}
    noun = wh_noun(question)
    sents = sentences(context)
    sent_tokens = []
    df = {}
    for s, e in sents:
        toks = [(t, s + a, s + b) for t, a, b in tokenize(context[s:e])]
        sent_tokens.append(toks)
        for w in {_stem(t) for t, _, _ in toks}:
            df[w] = df.get(w, 0) + 1
    n_sent = max(1, len(sents))
    idf = {w: math.log(1.0 + n_sent / df.get(w, 0.5)) for w in q_words}
    total = sum(idf.values()) or 1.0
    scores = []
    for toks in sent_tokens:
        present = {_stem(t) for t, _, _ in toks}
        scores.append(sum(v for w, v in idf.items() if w in present) / total)
    best = max(scores) if scores else 0.0
    ranks = {i: r for r, i in enumerate(sorted(range(len(scores)), key=lambda i: -scores[i]))}
    col = {name: i for i, name in enumerate(FEATURE_NAMES)}
    spans, rows = [], []
    for si, toks in enumerate(sent_tokens):
        words = [t for t, _, _ in toks]
        match = [_stem(t) in q_words and t.lower() not in STOPWORDS for t in words]
        match_pos = [i for i, m in enumerate(match) if m]
        for i in range(len(toks)):
            if not re.match(r"\w", words[i]) or words[i].lower() in STOPWORDS:
                continue
            for j in range(i, min(len(toks), i + MAX_SPAN)):
                w = words[j]
                if not re.match(r"\w", w) and w != ",":
                    break
                if w == "," or w.lower() in STOPWORDS:
                    continue
                span_words = words[i : j + 1]
                f = np.zeros(len(FEATURE_NAMES), dtype=np.float32)
                f[col["bias"]] = 1.0
                f[col["sent_score"]] = scores[si]
                f[col["sent_best"]] = 1.0 if scores[si] >= best and best > 0 else 0.0
                f[col["sent_rank"]] = min(ranks[si], 3) / 3.0
                content = [x for x in span_words if re.match(r"\w", x)]
                overlap = sum(1 for k in range(i, j + 1) if match[k]) / max(1, len(content))
                f[col["span_overlap"]] = overlap
                length = j - i + 1
                f[
                    col[
                        "len1"
                        if length == 1
                        else "len2"
                        if length == 2
                        else "len3"
                        if length == 3
                        else "len4"
                        if length == 4
                        else "len5plus"
                    ]
                ] = 1.0
                outside = [p for p in match_pos if p < i or p > j]
                dist = min((i - p if p < i else p - j) for p in outside) if outside else 99
                f[col["near1"]] = 1.0 if dist <= 1 else 0.0
                f[col["near3"]] = 1.0 if dist <= 3 else 0.0
                f[col["dist"]] = min(dist, 20) / 20.0
                f[col["left_match"]] = 1.0 if any(match[max(0, i - 3) : i]) else 0.0
                f[col["right_match"]] = 1.0 if any(match[j + 1 : j + 4]) else 0.0
                f[col["span_has_qword"]] = 1.0 if overlap > 0 else 0.0
                if noun:
                    f[col["whnoun_in_span"]] = 1.0 if any(_stem(x) == noun for x in content) else 0.0
                    near = words[max(0, i - 1) : i] + words[j + 1 : j + 2]
                    f[col["whnoun_adjacent"]] = 1.0 if any(_stem(x) == noun for x in near) else 0.0
                f[col["has_comma"]] = 1.0 if "," in span_words else 0.0
                shape = _shape(span_words)
                prev = words[i - 1].lower() if i > 0 else ""
                prev2 = words[i - 2].lower() if i > 1 else ""
                shape["after_in"] = prev in ("in", "at", "to", "from", "near", "on") or prev2 in ("in", "at", "to")
                shape["after_by"] = prev == "by"
                shape["after_is"] = prev in ("is", "was", "are", "were", "as")
                shape["after_comma"] = prev == ","
                shape["before_punct"] = j + 1 >= len(words) or not re.match(r"\w", words[j + 1])
                for s in SHAPES:
                    if shape[s]:
                        f[col[f"{qtype}*{s}"]] = 1.0
                f[col[f"q_{qtype}"]] = 1.0
                spans.append((toks[i][1], toks[j][2]))
                rows.append(f)
    if not rows:
        return [], np.zeros((0, len(FEATURE_NAMES)), dtype=np.float32)
    return spans, np.stack(rows)


class QARanker:
    """Linear span scorer over ``candidate_features``."""

    def __init__(self, weights):
        self.weights = np.asarray(weights, dtype=np.float32)

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        if list(doc["features"]) != list(FEATURE_NAMES):
            raise ValueError("ranker.json was fitted for a different feature set; rebuild the model")
        return cls(doc["weights"])

    def answer(self, context, question):
        """(answer, start, end, confidence); ("", 0, 0, 0.0) when the context has no candidate."""
        spans, feats = candidate_features(context, question)
        if not spans:
            return "", 0, 0, 0.0
        scores = feats @ self.weights
        scores = scores - scores.max()
        probs = np.exp(scores)
        probs /= probs.sum()
        k = int(np.argmax(probs))
        start, end = spans[k]
        return context[start:end], start, end, float(probs[k])


def _decode(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


class TritonPythonModel:
    def initialize(self, args):
        weights = os.path.join(args["model_repository"], args["model_version"], "weights", "ranker.json")
        self.ranker = QARanker.load(weights)

    def execute(self, requests):
        responses = []
        for request in requests:
            ctx = pb_utils.get_input_tensor_by_name(request, "context")
            qst = pb_utils.get_input_tensor_by_name(request, "question")
            if ctx is None or qst is None:
                responses.append(
                    pb_utils.InferenceResponse(error=pb_utils.TritonError("inputs 'context' and 'question' are required"))
                )
                continue
            contexts = [_decode(v) for v in ctx.as_numpy().reshape(-1)]
            questions = [_decode(v) for v in qst.as_numpy().reshape(-1)]
            if len(contexts) != len(questions):
                responses.append(
                    pb_utils.InferenceResponse(error=pb_utils.TritonError("'context' and 'question' have different batch sizes"))
                )
                continue
            results = [self.ranker.answer(c, q) for c, q in zip(contexts, questions)]
            responses.append(
                pb_utils.InferenceResponse(
                    output_tensors=[
                        pb_utils.Tensor(
                            "answer", np.array([r[0].encode("utf-8") for r in results], dtype=np.object_).reshape(-1, 1)
                        ),
                        pb_utils.Tensor("start", np.array([[r[1]] for r in results], dtype=np.int32).reshape(-1, 1)),
                        pb_utils.Tensor("end", np.array([[r[2]] for r in results], dtype=np.int32).reshape(-1, 1)),
                        pb_utils.Tensor("confidence", np.array([[r[3]] for r in results], dtype=np.float32).reshape(-1, 1)),
                    ]
                )
            )
        return responses

    def finalize(self):
        self.ranker = None
