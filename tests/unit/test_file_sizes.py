"""No Python file of the project grows past ~400 lines (issue 27): a long file is two rooms in one. Migrations (never
edited after the fact), generated code and data modules (word lists, templates) are the exceptions, each named here."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("server", "workers", "tests", "bench", "scripts", "triton_models", "sdk")
LIMIT = 420  # ~400: a few lines of slack, not a second room
DATA_MODULES = {"scripts/seed_lexicons.py"}
GENERATED = ("sdk/dynabench_client/generated/",)  # ariadne-codegen's output (scripts/sdk-codegen.sh), never edited


def test_no_python_file_is_past_the_limit() -> None:
    long = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if (
                "piccolo_migrations" in path.parts
                or relative in DATA_MODULES
                or relative.startswith(GENERATED)
                or "node_modules" in path.parts
            ):
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT:
                long.append(f"{relative}: {lines} lines")
    assert not long, "split by what they hold:\n" + "\n".join(long)


def test_the_data_modules_named_here_exist() -> None:
    assert all((ROOT / name).is_file() for name in DATA_MODULES)
