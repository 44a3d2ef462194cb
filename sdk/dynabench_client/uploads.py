"""What `submit_model` sends: a model archive (a directory is zipped first) read through a progress bar."""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from tqdm.auto import tqdm

ZIP_MAGIC = b"PK\x03\x04"
GZIP_MAGIC = b"\x1f\x8b"
SKIPPED = {"__pycache__", ".DS_Store", ".ipynb_checkpoints"}


class ProgressFile(io.RawIOBase):
    """A binary file whose reads move a tqdm bar; rewinding (a retried upload) starts the bar again."""

    def __init__(self, raw: IO[bytes], size: int, description: str, enabled: bool = True) -> None:
        super().__init__()
        self.raw, self.size = raw, size
        self.bar = tqdm(total=size, unit="B", unit_scale=True, unit_divisor=1024, desc=description, disable=not enabled)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        chunk = self.raw.read(size)
        self.bar.update(len(chunk))
        return chunk

    def readinto(self, buffer: Any) -> int:
        chunk = self.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        position = self.raw.seek(offset, whence)
        self.bar.reset(total=self.size)
        self.bar.update(position)
        return position

    def tell(self) -> int:
        return self.raw.tell()

    def close(self) -> None:
        self.bar.close()
        self.raw.close()
        super().close()


def zip_directory(directory: Path, destination: Path, progress: bool = True) -> Path:
    """`directory` as a zip whose one top folder is the directory's name (a Triton model folder: config.pbtxt and
    numbered version folders); caches (__pycache__) and hidden files are left out."""
    files = [
        path
        for path in sorted(directory.rglob("*"))
        if path.is_file() and not any(part in SKIPPED or part.startswith(".") for part in path.relative_to(directory).parts)
    ]
    if not files:
        raise ValueError(f"{directory} holds no files to upload")
    with zipfile.ZipFile(destination, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in tqdm(files, desc=f"zipping {directory.name}", unit="file", disable=not progress):
            archive.write(path, f"{directory.name}/{path.relative_to(directory).as_posix()}")
    return destination


def archive_name(head: bytes, fallback: str) -> str:
    if head.startswith(ZIP_MAGIC):
        return "model.zip"
    if head.startswith(GZIP_MAGIC):
        return "model.tar.gz"
    raise ValueError(f"{fallback} is neither a zip nor a tar.gz archive (nor a directory)")


@contextmanager
def model_archive(source: str | os.PathLike[str] | bytes, progress: bool = True) -> Iterator[tuple[str, ProgressFile]]:
    """(file name, file with a progress bar) for a model directory (zipped into a temporary file), a .zip/.tar.gz file,
    or the bytes of one."""
    with tempfile.TemporaryDirectory(prefix="dynabench-upload-") as scratch:
        raw: IO[bytes]
        if isinstance(source, bytes):
            name, raw, size = archive_name(source[:4], "the bytes given"), io.BytesIO(source), len(source)
            label = name
        else:
            path = Path(source).expanduser()
            if path.is_dir():
                path = zip_directory(path, Path(scratch) / f"{path.name}.zip", progress)
            elif not path.is_file():
                raise FileNotFoundError(f"no model directory or archive at {path}")
            with path.open("rb") as head:
                name = archive_name(head.read(4), str(path))
            raw, size, label = path.open("rb"), path.stat().st_size, path.name
        upload = ProgressFile(raw, size, f"uploading {label}", enabled=progress)
        try:
            yield name, upload
        finally:
            upload.close()
