"""Where a built-in target model's offline export lives in the model repository, and what its manifest says.

``server/modelbuild/offline.py`` writes ``<repository>/<name>/<version>/offline/`` (model.onnx, tokenizer.json,
manifest.json) for the built-in classifiers. Only built-in target models' exports are served: a name is looked up in
``BUILTIN_TARGETS``, a version must be digits and a file one of the export's file names, so a path is only ever built
from known parts (no traversal is possible).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from server.modelbuild.offline import FILES, OFFLINE_DIR
from server.tasks.builtin import BUILTIN_TARGETS

MANIFEST = "manifest.json"
SERVED_FILES = (*FILES, MANIFEST)
URL_PREFIX = "/offline-models"


@dataclass(frozen=True)
class OfflineFile:
    name: str
    url: str
    sha256: str
    bytes: int


@dataclass(frozen=True)
class OfflineExport:
    name: str
    version: str
    labels: list[str]
    inputs: list[str]
    input_names: list[str]
    max_length: int
    files: list[OfflineFile]


def _version_dir(repository: Path, name: str, version: str) -> Path | None:
    if name not in BUILTIN_TARGETS or not version.isdigit():
        return None
    return repository / name / str(int(version))


def newest_version(repository: Path, name: str) -> str | None:
    """The highest numeric version directory of a built-in model (what Triton serves for an unpinned target)."""
    if name not in BUILTIN_TARGETS:
        return None
    try:
        versions = [int(p.name) for p in (repository / name).iterdir() if p.is_dir() and p.name.isdigit()]
    except OSError:
        return None
    return str(max(versions)) if versions else None


def read_export(repository: Path, name: str, version: str) -> OfflineExport | None:
    """The offline export of ``name`` at ``version`` ("" = the newest), or None when it has none."""
    version = version or newest_version(repository, name) or ""
    base = _version_dir(repository, name, version)
    if base is None:
        return None
    try:
        manifest = json.loads((base / OFFLINE_DIR / MANIFEST).read_text(encoding="utf-8"))
        files = [
            OfflineFile(
                name=f,
                url=f"{URL_PREFIX}/{name}/{version}/{f}",
                sha256=str(manifest["files"][f]["sha256"]),
                bytes=int(manifest["files"][f]["bytes"]),
            )
            for f in FILES
        ]
        return OfflineExport(
            name=name,
            version=version,
            labels=[str(x) for x in manifest["labels"]],
            inputs=[str(x) for x in manifest["inputs"]],
            input_names=[str(x) for x in manifest["input_names"]],
            max_length=int(manifest["max_length"]),
            files=files,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def served_file(repository: Path, name: str, version: str, file: str) -> tuple[Path, str] | None:
    """The path and ETag (sha256) of one served file, or None (unknown model, version or file; no export)."""
    if file not in SERVED_FILES:
        return None
    base = _version_dir(repository, name, version)
    if base is None:
        return None
    path = base / OFFLINE_DIR / file
    if not path.is_file():
        return None
    if file == MANIFEST:
        import hashlib

        return path, hashlib.sha256(path.read_bytes()).hexdigest()
    export = read_export(repository, name, version)
    found = next((f for f in export.files if f.name == file), None) if export else None
    return (path, found.sha256) if found else None
