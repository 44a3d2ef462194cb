"""Validation outcome rules on real validator votes: today's N matching votes vs reliability-weighted votes.

    .venv/bin/python bench/aggregation_rules.py

Reads DynaSent (`../shared/data/dynasent`): every sentence has 5 MTurk validators' labels (positive, negative,
neutral, mixed) with anonymized worker ids, and a published gold label. Light: no stack, a few seconds.

How the rules meet 3-class labels. Today's rule (`server/annotation/aggregation.outcome`, N = 3) judges one claimed
label: validators vote correct / incorrect / flagged. So for each sentiment c the votes are mapped as if the author
had claimed c (a vote for c → correct, for another sentiment → incorrect, `mixed` → flagged) and replayed through
`outcome`; the rule settles on c when `outcome` says validated (at most one c can, since that needs N = 3 of the 5).
Otherwise the sentence is undecided: rejected or flagged for every claim, i.e. the owners would have to look.
The weighted rule (`server/annotation/quality/reliability_model`) fits Dawid–Skene on all the file's votes with the four labels
(`mixed` plays the part of `flagged`), then replays each sentence's votes and decides at the first vote where the most
probable label reaches the threshold; after 2N − 1 = 5 votes its fallback takes the most probable label. A decision
for `mixed`, or a tie at the fallback, goes to the owners (undecided here). The order the votes were cast is not
published (`label_distribution` groups them by label), so each sentence's votes are shuffled with a fixed seed.

Caveat: DynaSent's published gold label *is* the label at least 3 of the 5 validators chose (its README), so on its
files today's rule agrees with gold by construction; the weighted rule's interesting numbers there are how often it
departs from that majority and how many votes it needs. The SST-dev file also carries the Stanford Sentiment
Treebank's own root label, from other annotators (0–1 negative, 2 neutral, 3–4 positive): the second table compares
both rules with that independent label.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.annotation.aggregation import Vote, outcome
from server.annotation.quality.reliability_model import DecidedBy, VoteRecord, decide, fit

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FILES = (
    "dynasent-v1.1-round01-yelp-dev.jsonl",
    "dynasent-v1.1-round01-yelp-test.jsonl",
    "dynasent-v1.1-round02-dynabench-dev.jsonl",
    "sst-dev-validated.jsonl",
)
SENTIMENTS = ("positive", "negative", "neutral")
LABELS = (*SENTIMENTS, "mixed")
N = 3
THRESHOLDS = (0.8, 0.9, 0.95, 0.99)
SST_LABEL = {"0": "negative", "1": "negative", "2": "neutral", "3": "positive", "4": "positive"}


@dataclass
class Sentence:
    id: str
    votes: list[tuple[str, str]]  # (worker, label) in a shuffled order
    gold: str | None  # published gold label
    sst: str | None  # SST root label as a sentiment (sst-dev only)


@dataclass
class Tally:
    rows: int = 0
    agree: int = 0
    disagree: int = 0
    undecided: int = 0
    fallback: int = 0  # decided by the weighted rule's fallback (not confident within 5 votes)
    votes_used: int = 0

    def add(self, label: str | None, gold: str, votes: int, by_fallback: bool = False) -> None:
        self.rows += 1
        self.votes_used += votes
        self.fallback += by_fallback
        if label is None or label not in SENTIMENTS:
            self.undecided += 1
        elif label == gold:
            self.agree += 1
        else:
            self.disagree += 1

    def row(self, name: str, rule: str) -> str:
        decided = self.agree + self.disagree
        return (
            f"| {name:<22} | {rule:<24} | {self.rows:>5} | {self.agree:>5} | {self.disagree:>5} | {self.undecided:>5} | "
            f"{self.fallback:>5} | {100 * self.agree / self.rows:6.2f} | "
            f"{(100 * self.agree / decided if decided else 0):6.2f} | {self.votes_used / self.rows:5.2f} |"
        )


HEADER = (
    "| file                   | rule                     |  rows | agree | disag | undec | fallb | agree% | agr%dec | votes |\n"
    "|------------------------|--------------------------|------:|------:|------:|------:|------:|-------:|--------:|------:|"
)


def load(name: str, rng: random.Random) -> list[Sentence]:
    path = DATA / "dynasent" / name
    sentences = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            votes = [(worker, label) for label, workers in row["label_distribution"].items() for worker in workers]
            rng.shuffle(votes)
            sst = SST_LABEL.get(row["sst_label"]) if "sst_label" in row else None
            sentences.append(Sentence(row["text_id"], votes, row.get("gold_label"), sst))
    return sentences


def todays_rule(votes: list[tuple[str, str]]) -> tuple[str | None, int]:
    """The sentiment today's rule validates (None if none), and the votes it needed."""
    for claim in SENTIMENTS:
        mapped = [Vote("correct" if label == claim else "flagged" if label == "mixed" else "incorrect") for _, label in votes]
        if outcome(mapped, N) == "validated":
            used = next(n for n in range(1, len(mapped) + 1) if outcome(mapped[:n], N) != "open")
            return claim, used
    return None, len(votes)


def main() -> int:
    if not (DATA / "dynasent").is_dir():
        print(f"No DynaSent data at {DATA / 'dynasent'}: this benchmark reads ../shared/data/dynasent.", file=sys.stderr)
        return 2
    started = time.perf_counter()
    rng = random.Random(17)
    published: list[str] = []
    independent: list[str] = []
    for name in FILES:
        if not (DATA / "dynasent" / name).exists():
            print(f"(skipped {name}: not in {DATA / 'dynasent'})", file=sys.stderr)
            continue
        sentences = load(name, rng)
        model = fit((VoteRecord(s.id, w, label) for s in sentences for w, label in s.votes), LABELS)
        short = name.removeprefix("dynasent-v1.1-").removesuffix(".jsonl")
        for target, out in (("gold", published), ("sst", independent)):
            scored = [s for s in sentences if (s.gold if target == "gold" else s.sst) in SENTIMENTS]
            if not scored:
                continue
            truth = {s.id: (s.gold if target == "gold" else s.sst) or "" for s in scored}
            today = Tally()
            for s in scored:
                label, used = todays_rule(s.votes)
                today.add(label, truth[s.id], used)
            out.append(today.row(short, f"N={N} matching"))
            batch = Tally()
            for s in scored:
                posterior = model.item_posteriors[s.id]
                best = max(range(len(LABELS)), key=lambda k: posterior[k])
                batch.add(LABELS[best], truth[s.id], len(s.votes))
            out.append(batch.row(short, "Dawid-Skene MAP, 5 votes"))
            for threshold in THRESHOLDS:
                weighted = Tally()
                for s in scored:
                    decision = decide(model, s.votes, threshold, max_votes=2 * N - 1)
                    weighted.add(decision.label, truth[s.id], decision.votes_used, decision.by is DecidedBy.FALLBACK)
                out.append(weighted.row(short, f"weighted >= {threshold}"))
    print("Agreement with the published gold label (DynaSent's gold = the label of >= 3 of the 5 validators):")
    print(HEADER)
    print("\n".join(published))
    print("\nAgreement with SST's own root label (independent annotators; sst-dev-validated, 3-class rows):")
    print(HEADER)
    print("\n".join(independent))
    print(
        "\nagree/disag/undec: sentences whose decided label matches the reference / differs / no sentiment decided "
        "(to the owners);\nfallb: decided by the weighted rule's fallback after 5 votes; agree%: of all rows; "
        "agr%dec: of decided rows; votes: mean votes replayed until the decision."
    )
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
