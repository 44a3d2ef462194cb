"""Writing and restoring a backup archive: a plain tar (the dump is compressed by pg_dump, model files do not compress)
holding database.pgdump, files/<area>/..., secrets.json when asked, and the manifest with every member's checksum.
A restore verifies the whole archive before it touches anything."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from server.backup import database
from server.backup.manifest import (
    DATABASE,
    FILES,
    MANIFEST,
    MANIFEST_SUM,
    SECRETS,
    DamagedArchive,
    Manifest,
    differing_tables,
    safe_member_name,
    sha256_of,
)


class _Hashing(io.RawIOBase):
    """A file read through tarfile, hashed on the way."""

    def __init__(self, inner: IO[bytes]) -> None:
        self.inner, self.digest = inner, hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        block = self.inner.read(size)
        self.digest.update(block)
        return block


def _files(root: Path) -> Iterator[tuple[Path, str]]:
    for path in sorted(root.rglob("*")):
        if path.is_file():
            yield path, path.relative_to(root).as_posix()


def _add_bytes(tar: tarfile.TarFile, manifest: Manifest, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o600, int(dt.datetime.now().timestamp())
    tar.addfile(info, io.BytesIO(data))
    manifest.members[name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def _add_file(tar: tarfile.TarFile, manifest: Manifest, name: str, path: Path) -> None:
    with path.open("rb") as fh:
        stat = os.fstat(fh.fileno())  # the size of what is open now (a file replaced meanwhile is read whole)
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime = stat.st_size, 0o600, int(stat.st_mtime)
        hashing = _Hashing(fh)
        tar.addfile(info, hashing)  # type: ignore[arg-type]  # tarfile only calls read()
    manifest.members[name] = {"sha256": hashing.digest.hexdigest(), "bytes": stat.st_size}


def create(output: Path, database_url: str, areas: dict[str, Path], secrets: dict[str, str] | None) -> Manifest:
    """The archive at `output` (written beside it, then renamed: a crash leaves no half archive under its name)."""
    output = output.absolute()
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".backup-", dir=output.parent) as scratch:
        dump_file = Path(scratch) / DATABASE
        tables, heads, version = asyncio.run(database.dump(database_url, dump_file))
        manifest = Manifest(
            created_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            app_version=_app_version(),
            postgres_version=version,
            migrations=heads,
            tables=tables,
            secrets_included=secrets is not None,
        )
        partial = Path(scratch) / "archive.tar"
        with tarfile.open(partial, "w", format=tarfile.PAX_FORMAT) as tar:
            _add_file(tar, manifest, DATABASE, dump_file)
            # Files after the snapshot: a file the snapshot references was written before its row committed, so it is
            # here (or was deleted meanwhile, which is recorded); files newer than the snapshot come along unused.
            for area, root in areas.items():
                for path, relative in _files(root) if root.is_dir() else ():
                    try:
                        _add_file(tar, manifest, f"{FILES}/{area}/{relative}", path)
                    except FileNotFoundError:
                        manifest.missing_files.append(f"{area}/{relative}")
            if secrets is not None:
                _add_bytes(tar, manifest, SECRETS, json.dumps(secrets, sort_keys=True).encode())
            document = manifest.to_json()
            _add_bytes(tar, manifest, MANIFEST, document)
            manifest.members.pop(MANIFEST)
            _add_bytes(tar, manifest, MANIFEST_SUM, hashlib.sha256(document).hexdigest().encode())
            manifest.members.pop(MANIFEST_SUM)
        partial.chmod(0o600)  # personal data (and maybe secrets)
        partial.replace(output)
    return manifest


def _app_version() -> str:
    try:
        return metadata.version("dynabench")
    except metadata.PackageNotFoundError:
        return "unknown"


def verify(archive: Path) -> Manifest:
    """The manifest, once every member matches it (checksum and size), nothing is missing or extra, and every path
    stays inside the archive; else DamagedArchive naming the first bad member."""
    try:
        with tarfile.open(archive, "r:") as tar:
            manifest = _read_manifest(tar)
            seen = set()
            for member in tar:
                name = safe_member_name(member.name)
                if name in (MANIFEST, MANIFEST_SUM):
                    continue
                expected = manifest.members.get(name)
                if expected is None or not member.isfile():
                    raise DamagedArchive(f"{name}: not listed in the manifest as a file")
                stream = tar.extractfile(member)
                assert stream is not None
                digest, size = sha256_of(stream)
                if (digest, size) != (expected["sha256"], expected["bytes"]):
                    raise DamagedArchive(f"{name}: checksum differs from the manifest (damaged)")
                seen.add(name)
            if missing := sorted(set(manifest.members) - seen):
                raise DamagedArchive(f"{missing[0]}: listed in the manifest but missing")
            return manifest
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise DamagedArchive(f"{archive.name}: not a readable tar archive ({exc})") from None


def _read_manifest(tar: tarfile.TarFile) -> Manifest:
    def read(name: str) -> bytes:
        try:
            stream = tar.extractfile(name)
        except KeyError:
            raise DamagedArchive(f"{name}: missing (not a backup archive?)") from None
        if stream is None:
            raise DamagedArchive(f"{name}: not a file")
        return stream.read()

    document = read(MANIFEST)
    if hashlib.sha256(document).hexdigest().encode() != read(MANIFEST_SUM).strip():
        raise DamagedArchive(f"{MANIFEST}: checksum differs (damaged)")
    return Manifest.from_json(document)


def read_secrets(archive: Path) -> dict[str, Any]:
    """The archive's secrets (only call after verify); {} when it holds none."""
    with tarfile.open(archive, "r:") as tar:
        try:
            stream = tar.extractfile(SECRETS)
        except KeyError:
            return {}
        return json.loads(stream.read()) if stream else {}


@dataclass
class Restored:
    manifest: Manifest
    secrets: dict[str, str] | None
    files: int


def _has_content(path: Path) -> bool:
    return path.is_dir() and any(path.iterdir())


def restore(archive: Path, manifest: Manifest, database_url: str, areas: dict[str, Path], *, force: bool) -> Restored:
    """`manifest` is what verify() answered for this archive. Refuses a non-empty target unless `force`, restores the
    database and proves it equals the snapshot (row counts and content hash of every table), then the files.
    Migrations are the caller's next step."""
    empty = asyncio.run(database.is_empty(database_url))
    occupied = [str(root) for root in areas.values() if _has_content(root)]
    if not force and (not empty or occupied):
        what = ["the database has tables"] if not empty else []
        raise database.BackupError(
            f"the target is not empty ({', '.join(what + occupied)}); restore into an empty one, or pass --force to replace it"
        )
    secrets: dict[str, Any] | None = None
    files = 0
    with tarfile.open(archive, "r:") as tar, tempfile.TemporaryDirectory(prefix="dynabench-restore-") as scratch:
        tar.extract(DATABASE, scratch, filter="data")
        found = asyncio.run(database.restore(database_url, Path(scratch) / DATABASE, wipe=not empty))
        if problems := differing_tables(manifest.tables, found):
            raise database.BackupError("the restored database differs from the snapshot: " + "; ".join(problems[:5]))
        for member in tar:
            name = safe_member_name(member.name)
            if name == SECRETS:
                stream = tar.extractfile(member)
                secrets = json.loads(stream.read()) if stream else None
            parts = name.split("/", 2)
            if len(parts) == 3 and parts[0] == FILES and parts[1] in areas:
                target = areas[parts[1]] / parts[2]
                target.parent.mkdir(parents=True, exist_ok=True)
                stream = tar.extractfile(member)
                assert stream is not None
                with target.open("wb") as fh:
                    shutil.copyfileobj(stream, fh, 1 << 20)
                files += 1
    return Restored(manifest, secrets, files)
