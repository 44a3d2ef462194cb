"""uploadGold (docs/design.md §4.2): a task owner uploads JSONL rows that become hidden gold examples of a round.

One row per line: `{"fields": {<the task's input fields>}, "label": "<a task label>"` (or `"answer"` and optional
`"answerStart"` for extractive QA)`, "gold": "correct" | "incorrect" | "flagged", "contextId": <optional context id of
the round; default its first context>}`; `gold` is the right validation answer for that claimed label. Rows are
checked like submissions (server/annotation/validation_input.py); any bad row refuses the whole file (nothing is
written). A hidden gold example is served only by the gold mix of the validation queue, never as anyone's
submission: it moves no counter, is recounted out of round and user stats, not exported, and the near-duplicate guard
ignores it. It has no model output (nobody asked a model), the one way it differs from a submitted example."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from server import permissions
from server.accounts.viewer import Viewer
from server.annotation.examples import queries as example_queries
from server.annotation.quality import queries
from server.annotation.validation_input import check_submission
from server.core import db
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.jsonutil import to_json
from server.tasks.config import TaskConfig

MAX_ROWS = 1000
MAX_PROBLEMS = 20
ANSWERS = ("correct", "incorrect", "flagged")
KEYS = {"fields", "label", "answer", "answerStart", "gold", "contextId"}


@dataclass(frozen=True)
class GoldRow:
    line: int
    fields: Any
    intended: Any
    answer_start: int | None
    gold: str
    context_id: int | None


def parse_rows(text: str) -> list[GoldRow]:
    """The file's rows, or INVALID_INPUT naming each bad line (pure: the task's own checks come later)."""
    rows: list[GoldRow] = []
    problems: list[FieldProblem] = []
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise invalid("The file has no rows.", FieldProblem("file", "one JSON object per line"))
    if len(lines) > MAX_ROWS:
        raise invalid(f"At most {MAX_ROWS} gold rows per file.", FieldProblem("file", f"at most {MAX_ROWS} rows"))
    for n, line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            problems.append(FieldProblem(f"line {n}", "is not valid JSON"))
            continue
        if not isinstance(value, dict):
            problems.append(FieldProblem(f"line {n}", "must be a JSON object"))
            continue
        unknown = sorted(set(value) - KEYS)
        gold = value.get("gold")
        context_id = value.get("contextId")
        answer_start = value.get("answerStart")
        if unknown:
            problems.append(FieldProblem(f"line {n}", f"unknown keys: {', '.join(unknown)}"))
        elif not isinstance(gold, str) or gold.lower() not in ANSWERS:
            problems.append(FieldProblem(f"line {n}.gold", "must be correct, incorrect or flagged"))
        elif context_id is not None and (isinstance(context_id, bool) or not isinstance(context_id, int) or context_id < 1):
            problems.append(FieldProblem(f"line {n}.contextId", "must be a context id"))
        elif answer_start is not None and (isinstance(answer_start, bool) or not isinstance(answer_start, int)):
            problems.append(FieldProblem(f"line {n}.answerStart", "must be an integer"))
        else:
            intended = value.get("label", value.get("answer"))
            rows.append(GoldRow(n, value.get("fields"), intended, answer_start, gold.lower(), context_id))
    if problems:
        raise invalid("Some gold rows are not valid; nothing was written.", *problems[:MAX_PROBLEMS])
    return rows


async def upload_gold(viewer: Viewer, round_row: dict, config: TaskConfig, text: str) -> list[int]:
    """All rows become hidden gold examples of the round, or none (the ids, in file order)."""
    denied = permissions.manage_gold(viewer, round_row["task"])
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    rows = parse_rows(text)
    checked: list[tuple[GoldRow, int, str]] = []
    problems: list[FieldProblem] = []
    contexts: dict[int | None, dict | None] = {}
    for row in rows:
        if row.context_id not in contexts:
            found = await queries.gold_context(round_row["id"], row.context_id)
            contexts[row.context_id] = None if found is None else await example_queries.context_row(found)
        context = contexts[row.context_id]
        if context is None:
            problems.append(FieldProblem(f"line {row.line}.contextId", "no such context in this round"))
            continue
        try:
            stored = check_submission(config, context["fields"], row.fields, row.intended, row.answer_start, "", None)
        except ServiceError as error:
            problems += [FieldProblem(f"line {row.line}.{p.field}", p.message) for p in error.fields]
            continue
        checked.append((row, int(context["id"]), to_json(stored)))
    if problems:
        raise invalid("Some gold rows are not valid; nothing was written.", *problems[:MAX_PROBLEMS])
    async with db.transaction():
        return [
            await queries.insert_hidden_gold(round_row["id"], round_row["task"], context_id, viewer.user_id, stored, row.gold)
            for row, context_id, stored in checked
        ]
