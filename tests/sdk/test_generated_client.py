"""The SDK's generated client matches schema.graphql and sdk/queries/*.graphql (regenerated and compared)."""

from __future__ import annotations

import filecmp
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import sdk_codegen  # noqa: E402  (a script of the repository, not a package)

REGENERATE = "regenerate it: scripts/sdk-codegen.sh, then commit sdk/dynabench_client/generated/"


def test_the_committed_generated_client_is_up_to_date(tmp_path: Path) -> None:
    fresh = sdk_codegen.generate(tmp_path / "generated")
    committed = sdk_codegen.PACKAGE
    fresh_files = {p.name for p in fresh.glob("*.py")}
    committed_files = {p.name for p in committed.glob("*.py")}
    assert fresh_files == committed_files, (
        f"the generated client is stale (missing: {sorted(fresh_files - committed_files)}, "
        f"extra: {sorted(committed_files - fresh_files)}); {REGENERATE}"
    )
    _, different, errors = filecmp.cmpfiles(fresh, committed, sorted(fresh_files), shallow=False)
    assert not different and not errors, f"the generated client is stale ({', '.join(different + errors)} differ); {REGENERATE}"


def test_every_operation_file_is_used_by_the_generated_client() -> None:
    """Each operation in sdk/queries becomes a method of the generated client (an operation file that failed to parse
    would leave it out silently otherwise)."""
    import re

    operations = set()
    for path in (sdk_codegen.SDK / "queries").glob("*.graphql"):
        operations |= set(re.findall(r"^(?:query|mutation|subscription) (\w+)", path.read_text(), flags=re.MULTILINE))
    client = (sdk_codegen.PACKAGE / "client.py").read_text()
    missing = [
        name
        for name in sorted(operations)
        if f"query {name}" not in client and f"mutation {name}" not in client and f"subscription {name}" not in client
    ]
    assert operations and not missing, missing
