"""A round's battle votes as pairwise preferences for reward-model training (exportRound(format: PREFERENCES)): one
JSONL line per (chosen, rejected) pair, the shape TRL's reward and DPO trainers read (`prompt`, `chosen`,
`rejected`), with where it came from. Which votes give pairs (docs/design.md §4.1d):

- a vote for a side: that side is chosen over each other side (two sides: one pair; three or four: one per loser);
  a tie or "both bad" says nothing about which is better and gives none;
- counted as in the ratings: not the votes of voters flagged as content-independent (server/battles/voters.py), and a
  voter's pair of models on the same prompt once (their first vote);
- a pair whose chosen or rejected reply is empty (a side that failed before its first word) is left out.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Collection, Hashable
from contextlib import aclosing
from datetime import datetime
from typing import Any

from server.annotation.battles import queries, rules
from server.annotation.exports.release import anonymous_id
from server.annotation.records import BattleChoice


def preference_pairs(
    row: dict[str, Any], *, task_code: str, round_number: int, system_prompt: str, key: str
) -> list[tuple[frozenset[str], dict[str, Any]]]:
    """The pairs of one vote (pure), each with its pair of model names (for counting a voter's pair once)."""
    choice = BattleChoice(row["choice"])
    winner = rules.position_of(choice)
    if winner is None:
        return []
    sides = json.loads(row["sides"]) if isinstance(row["sides"], str) else row["sides"]
    chosen = sides[winner]
    created = row["created_at"]
    pairs = []
    for position, rejected in enumerate(sides):
        if position == winner or not chosen["reply"] or not rejected["reply"]:
            continue
        document = {
            "prompt": row["prompt"],
            "chosen": chosen["reply"],
            "rejected": rejected["reply"],
            "chosen_model": chosen["name"],
            "chosen_model_version": chosen["version"],
            "rejected_model": rejected["name"],
            "rejected_model_version": rejected["version"],
            "system_prompt": system_prompt,
            "context": json.loads(row["context_fields"] or "{}"),
            "task": task_code,
            "round": round_number,
            "battle_id": row["battle"],
            "sides": len(sides),
            "chosen_position": "ABCD"[winner],
            "voter": anonymous_id(row["user"], key),
            "created_at": created.isoformat() if isinstance(created, datetime) else created,
        }
        pairs.append((frozenset((chosen["name"], rejected["name"])), document))
    return pairs


async def preference_lines(
    round_id: int, flagged: Collection[Hashable], *, task_code: str, round_number: int, system_prompt: str, key: str
) -> AsyncIterator[bytes]:
    """The round's preference pairs as JSONL lines, in vote order, through a cursor."""
    counted: set[tuple[int, str, frozenset[str]]] = set()
    async with aclosing(queries.PREFERENCE_VOTES.stream(round_id=round_id, batch=500)) as records:
        async for row in records:
            if row["user"] in flagged:
                continue
            prompt = rules.same_prompt_key(row["prompt"])
            shape = {"task_code": task_code, "round_number": round_number, "system_prompt": system_prompt, "key": key}
            for pair, document in preference_pairs(row, **shape):
                if (row["user"], prompt, pair) in counted:
                    continue
                counted.add((row["user"], prompt, pair))
                yield (json.dumps(document, ensure_ascii=False) + "\n").encode()
