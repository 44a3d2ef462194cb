"""The translatable messages written in the server's code: every `tr("...")` and `trn("...", "...", ...)` call.

Used by the catalogs' test (every message translated in every locale, same placeholders, nothing obsolete) and by
scripts/server_messages.py, which adds new messages to the catalogs for translators.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

SERVER_DIR = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Message:
    id: str
    plural: str | None
    where: str  # path:line of one use


@dataclass(frozen=True)
class NonLiteral:
    where: str  # a tr()/trn() whose template is not a literal string: it cannot be translated


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def scan(paths: Iterable[Path]) -> Iterator[Message | NonLiteral]:
    for path in paths:
        path = path.resolve()
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "trn")):
                    continue
                where = f"{file.relative_to(SERVER_DIR.parent)}:{node.lineno}"
                wanted = 2 if node.func.id == "trn" else 1
                literals = [_literal(arg) for arg in node.args[:wanted]]
                if len(literals) < wanted or any(text is None for text in literals):
                    yield NonLiteral(where)
                    continue
                yield Message(literals[0] or "", literals[1] if wanted == 2 else None, where)


def placeholders(template: str) -> set[str]:
    """The names of a template's `{placeholders}` (format specs ignored)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}
