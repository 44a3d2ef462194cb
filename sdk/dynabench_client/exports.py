"""Downloading a round's export from the link `exportRound` issued, with a progress bar."""

from __future__ import annotations

import asyncio
import shutil
import tarfile
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm.auto import tqdm

from .errors import TransportError
from .results import RoundExport

if TYPE_CHECKING:
    from .connection import Connection

CHUNK = 1 << 16


async def download_export(connection: Connection, url: str, path: Path, format: str) -> RoundExport:
    """The export at `url` (a path on the API's origin, or absolute) written to `path`: the JSONL file itself, or, for
    an HF-datasets archive, its dataset directory extracted there."""
    address = url if url.startswith(("http://", "https://")) else connection.origin + url
    path = await asyncio.to_thread(_prepared, path)
    with tempfile.TemporaryDirectory(prefix="dynabench-export-", dir=path.parent) as scratch:
        download = Path(scratch) / "download"
        async with connection.http.stream("GET", address) as response:
            if response.status_code != 200:
                await response.aread()
                raise TransportError(
                    f"the export download answered HTTP {response.status_code}: {response.text[:200]}", response.status_code
                )
            size = int(response.headers["content-length"]) if "content-length" in response.headers else None
            with (
                download.open("wb") as out,
                tqdm(
                    total=size, unit="B", unit_scale=True, desc=f"downloading {path.name}", disable=not connection.progress
                ) as bar,
            ):
                async for chunk in response.aiter_bytes(CHUNK):
                    out.write(chunk)
                    bar.update(len(chunk))
        if format == "hf_dataset":
            await asyncio.to_thread(_extract_dataset, download, Path(scratch) / "extracted", path)
        else:
            download.replace(path)
    return RoundExport(path=path, format=format)


def _prepared(path: Path) -> Path:
    path = path.expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _extract_dataset(archive: Path, scratch: Path, destination: Path) -> None:
    with tarfile.open(archive, mode="r:gz") as tar:
        tar.extractall(scratch, filter="data")
    folders = [p for p in scratch.iterdir() if p.is_dir()]
    if len(folders) != 1:
        raise TransportError(f"the HF-datasets export should hold one dataset folder, not {len(folders)}")
    if destination.exists():
        shutil.rmtree(destination)
    shutil.move(str(folders[0]), destination)
