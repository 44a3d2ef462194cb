"""Generates the SDK's typed client (sdk/dynabench_client/generated/) from schema.graphql and sdk/queries/*.graphql.

ariadne-codegen runs from its own virtualenv (.venv-codegen: it pins graphql-core 3.2 and an older ruff than the
server's); its output is then formatted by this venv's ruff with the repository's settings, so the committed files pass
`ruff format --check`. `python scripts/sdk_codegen.py` rewrites the committed package; `generate(path)` writes a
fresh copy elsewhere (tests/sdk/test_generated_client.py compares the two).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SDK = ROOT / "sdk"
PACKAGE = SDK / "dynabench_client" / "generated"
CODEGEN_VENV = ROOT / ".venv-codegen"
CODEGEN = CODEGEN_VENV / "bin" / "ariadne-codegen"
CODEGEN_VERSION = "0.19.0"
HOW_TO_INSTALL = "scripts/sdk-codegen.sh (or scripts/install.sh --test) creates .venv-codegen with ariadne-codegen"


def generate(destination: Path) -> Path:
    """A freshly generated and formatted package written to `destination` (made anew); returns it."""
    if not CODEGEN.exists():
        raise RuntimeError(f"{CODEGEN} is missing: {HOW_TO_INSTALL}")
    with tempfile.TemporaryDirectory(prefix="sdk-codegen-") as scratch:
        # The SDK's layout rebuilt in a scratch folder, so that the config in sdk/pyproject.toml (relative paths) is used
        # unchanged and nothing is written next to the committed package.
        work = Path(scratch)
        shutil.copy(ROOT / "schema.graphql", work / "schema.graphql")
        (work / "sdk" / "dynabench_client").mkdir(parents=True)
        shutil.copy(SDK / "pyproject.toml", work / "sdk" / "pyproject.toml")
        shutil.copytree(SDK / "queries", work / "sdk" / "queries")
        run([str(CODEGEN), "client"], cwd=work / "sdk")
        output = work / "sdk" / "dynabench_client" / "generated"
        run([sys.executable, "-m", "ruff", "format", "--quiet", "--config", str(ROOT / "pyproject.toml"), str(output)])
        if destination.exists():
            shutil.rmtree(destination)
        shutil.copytree(output, destination)
    return destination


def run(command: list[str], cwd: Path | None = None) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def main() -> None:
    generate(PACKAGE)
    print(f"generated {PACKAGE.relative_to(ROOT)} ({len(list(PACKAGE.glob('*.py')))} modules)")


if __name__ == "__main__":
    main()
