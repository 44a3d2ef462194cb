"""The manifest of a backup archive (pure): what it holds, the checksum of every member, and per table the row count
and a content hash, so a restore can prove it brought back exactly what was taken."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, BinaryIO

FORMAT = "dynabench-backup/1"
MANIFEST = "manifest.json"
MANIFEST_SUM = "manifest.json.sha256"
DATABASE = "database.pgdump"
SECRETS = "secrets.json"
FILES = "files"  # files/<area>/<relative path>
AREAS = ("model_store", "target_models")  # uploaded archives; the target models with their retrained versions


class DamagedArchive(Exception):
    """The archive is not a backup this version can restore, or a member differs from its checksum."""


@dataclass
class Manifest:
    created_at: str
    app_version: str
    postgres_version: str
    migrations: dict[str, str]  # app → newest applied migration id
    tables: dict[str, dict[str, Any]]  # table → {"rows": n, "hash": h}
    members: dict[str, dict[str, Any]] = field(default_factory=dict)  # archive path → {"sha256", "bytes"}
    secrets_included: bool = False
    missing_files: list[str] = field(default_factory=list)  # referenced areas' files that vanished while copying

    def to_json(self) -> bytes:
        document = {"format": FORMAT, **self.__dict__}
        return json.dumps(document, indent=1, sort_keys=True).encode()

    @classmethod
    def from_json(cls, raw: bytes) -> Manifest:
        try:
            document = json.loads(raw)
            if document.pop("format", None) != FORMAT:
                raise DamagedArchive(f"not a {FORMAT} archive")
            return cls(**document)
        except (ValueError, TypeError) as exc:
            raise DamagedArchive(f"{MANIFEST} is unreadable ({exc})") from None


def safe_member_name(name: str) -> str:
    """A member path that stays inside the archive's root when extracted, else DamagedArchive."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts or "\\" in name or "\x00" in name:
        raise DamagedArchive(f"{name!r}: a path outside the archive")
    return str(path)


def sha256_of(stream: BinaryIO, chunk: int = 1 << 20) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    while block := stream.read(chunk):
        digest.update(block)
        size += len(block)
    return digest.hexdigest(), size


def differing_tables(expected: dict[str, dict[str, Any]], found: dict[str, dict[str, Any]]) -> list[str]:
    """Tables whose row count or content hash differs (or that exist on one side only), named with both values."""
    problems = []
    for table in sorted(set(expected) | set(found)):
        want, got = expected.get(table), found.get(table)
        if want != got:
            problems.append(f"{table}: expected {want}, found {got}")
    return problems
