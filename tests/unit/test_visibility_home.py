"""One visibility home (issue #27 point 5): who may see a task is decided in server/permissions/ only, in Python and in
its SQL form. Read from the source with ast (nothing is imported): no module outside permissions/ spells the rule in
SQL, reads the viewer's ownership or the open statuses to decide it, or applies the rule's verdict except the two
appliers (server/tasks/visibility.py for services, server/graphql/tasks/visibility.py for resolvers)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PERMISSIONS = ROOT / "server" / "permissions"
APPLIERS = {ROOT / "server" / "tasks" / "visibility.py", ROOT / "server" / "graphql" / "tasks" / "visibility.py"}

_OPEN_STATUS = r"'(?:PUBLIC|ARCHIVED)'"  # a task's status literals are upper case; examples' are lower case
# What makes SQL text a task-visibility predicate: a status compared with the statuses everyone sees (OPEN_STATUSES),
# an ownership test as a predicate (EXISTS over task_owners), or an admin test as a predicate (EXISTS over users …
# is_admin). Workflow filters (the admins' queue of PROPOSED tasks), reading the owners as data
# (`array(SELECT o.task FROM task_owners …)`) and filtering users by `is_admin` (the admin pages) are not.
VISIBILITY_SQL = re.compile(
    rf"\bstatus\s*(?:(?i:IN)\s*\([^)]*{_OPEN_STATUS}|=\s*{_OPEN_STATUS})"
    r"|(?i:EXISTS\s*\(\s*SELECT\b[^()]*\bFROM\s+task_owners\b)"
    r"|(?i:EXISTS\s*\(\s*SELECT\b[^()]*\bFROM\s+users\b[^()]*\bis_admin\b)"
)
# Names whose use decides visibility: the statuses everyone sees, the viewer's owned tasks (read as an attribute; the
# account service builds the Viewer with it as a keyword), and the rules that only an applier turns into an answer.
RULE_INPUTS = {"OPEN_STATUSES", "owned_task_ids"}
DEFINED_IN = {
    "OPEN_STATUSES": ROOT / "server" / "tasks" / "records.py",
    "owned_task_ids": ROOT / "server" / "accounts" / "viewer.py",
}
APPLIED_RULES = {"can_view_task", "view_task"}


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for package in ("server", "workers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if any(part.endswith("migrations") for part in path.parts) or path.is_relative_to(PERMISSIONS):
                continue
            yield path, ast.parse(path.read_text(), filename=str(path))


def _strings(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every string literal, with an f-string's literal parts joined (its placeholders as `?`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "?" for v in node.values)
            yield node.lineno, text
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_the_sql_detector_recognizes_the_rule_it_guards():
    """Not vacuous: the SQL form in permissions/ and the copy it replaced (`_MAY_WRITE`) are both recognized, and the
    SQL that reads owners or admins as data is not."""
    from server.permissions import task_visible_sql

    old_copy = """(t.status IN ('PUBLIC', 'ARCHIVED')
  OR EXISTS (SELECT 1 FROM task_owners o WHERE o.task = t.id AND o."user" = :user)
  OR EXISTS (SELECT 1 FROM users a WHERE a.id = :user AND a.is_admin))"""
    assert VISIBILITY_SQL.search(task_visible_sql("t", ":user")) and VISIBILITY_SQL.search(old_copy)
    assert VISIBILITY_SQL.search("WHERE EXISTS (SELECT 1 FROM task_owners WHERE task = :t)")
    assert VISIBILITY_SQL.search("SELECT * FROM tasks WHERE status = 'PUBLIC'")
    for data in (
        'array(SELECT o.task FROM task_owners o WHERE o."user" = u.id) AS owned',
        "AND (:admin::bool IS NULL OR u.is_admin = :admin::bool)",
        "e.status IN ('open', 'closed')",
        "SELECT * FROM tasks WHERE status = 'PROPOSED' ORDER BY id",
    ):
        assert not VISIBILITY_SQL.search(data), data


def test_no_task_visibility_sql_outside_permissions():
    found = [
        _where(path, line) + f": {VISIBILITY_SQL.search(text).group(0)!r}"  # type: ignore[union-attr]
        for path, tree in _sources()
        for line, text in _strings(tree)
        if VISIBILITY_SQL.search(text)
    ]
    assert not found, "task visibility spelled outside server/permissions/ (use permissions.task_visible_sql):\n" + "\n".join(
        found
    )


def test_no_visibility_decided_outside_permissions_and_its_appliers():
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name in RULE_INPUTS and path != DEFINED_IN[name]:
                found.append(_where(path, node.lineno) + f": reads {name}")
            elif isinstance(node, ast.alias) and node.name in RULE_INPUTS:
                found.append(_where(path, getattr(node, "lineno", 0)) + f": imports {node.name}")
            elif name in APPLIED_RULES and path not in APPLIERS:
                found.append(_where(path, node.lineno) + f": applies permissions.{name} itself")
    assert not found, (
        "decide visibility in server/permissions/, apply it through server/tasks/visibility.py or "
        "server/graphql/tasks/visibility.py:\n" + "\n".join(found)
    )
