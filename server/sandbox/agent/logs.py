"""Each model's own Triton output (its code's prints included) in ``<folder>/<model>.log``, bounded: past
``max_bytes`` the file is rotated to ``<model>.log.1`` (one rotation kept), and the folder as a whole is kept
under ``total_bytes`` (the oldest rotated files go first, then the oldest logs are emptied). The uploader is
shown the tail; the operator reads the files. Standard library only (runs inside the sandbox)."""

from __future__ import annotations

import os
from pathlib import Path

TAIL_BYTES = 4096


class CappedLog:
    def __init__(self, folder: Path, model: str, max_bytes: int, total_bytes: int) -> None:
        self.folder = folder
        self.path = folder / f"{model}.log"
        self.max_bytes = max(max_bytes, 1024)
        self.total_bytes = total_bytes
        folder.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "ab", buffering=0)  # noqa: SIM115 — open for the model's life
        self._size = self._file.tell()

    def write(self, data: bytes) -> None:
        while data:
            room = self.max_bytes - self._size
            if room <= 0:
                self._rotate()
                continue
            chunk, data = data[:room], data[room:]
            self._file.write(chunk)
            self._size += len(chunk)

    def _rotate(self) -> None:
        self._file.close()
        os.replace(self.path, self.path.with_name(self.path.name + ".1"))
        self._file = open(self.path, "ab", buffering=0)  # noqa: SIM115
        self._size = 0
        if self.total_bytes:
            keep_folder_under(self.folder, self.total_bytes, keep=self.path)

    def tail(self, size: int = TAIL_BYTES) -> bytes:
        return read_tail(self.path, size)

    def close(self) -> None:
        self._file.close()


def read_tail(path: Path, size: int = TAIL_BYTES) -> bytes:
    """The last ``size`` bytes written to the log at ``path`` (from its rotated file too when it is short)."""
    data = b""
    for part in (path, path.with_name(path.name + ".1")):
        try:
            with open(part, "rb") as file:
                file.seek(max(0, os.fstat(file.fileno()).st_size - (size - len(data))))
                data = file.read() + data
        except OSError:
            continue
        if len(data) >= size:
            break
    return data[-size:]


def keep_folder_under(folder: Path, total_bytes: int, keep: Path | None = None) -> None:
    """Delete rotated files, oldest first, then empty the oldest logs (never ``keep``, the one being written)
    until the folder holds at most ``total_bytes``."""
    try:
        entries = [(entry.stat().st_mtime, Path(entry.path), entry.stat().st_size) for entry in os.scandir(folder)]
    except OSError:
        return
    used = sum(size for _, _, size in entries)
    rotated = sorted((e for e in entries if e[1].name.endswith(".log.1")), key=lambda e: e[0])
    current = sorted((e for e in entries if e[1].name.endswith(".log") and e[1] != keep), key=lambda e: e[0])
    for _, path, size in rotated:
        if used <= total_bytes:
            return
        path.unlink(missing_ok=True)
        used -= size
    for _, path, size in current:
        if used <= total_bytes:
            return
        try:
            os.truncate(path, 0)
        except OSError:
            continue
        used -= size
