"""Uploaded Triton model archives: safe inspection, reading and the per-task I/O contract check.

Researchers upload one Triton model (a model directory: ``config.pbtxt`` + numbered version
folders) as a .tar.gz / .tgz / .tar or .zip file. Everything here treats the upload as hostile:

* the format is detected from the content (magic bytes), never from the file name;
* entries are validated *before* any of their data is read: absolute paths, ``..`` components,
  backslashes, NUL/control characters, links, devices/fifos, too long or too deep paths,
  duplicates, too many entries (counted while iterating; a zip's entry count is read from its
  end-of-central-directory record before the directory itself is parsed);
* sizes are checked twice: the declared sizes (tar headers, zip central directory) against
  ``max_file_bytes``/``max_total_bytes`` and against ``max_compression_ratio`` x the archive's
  size on disk, and the bytes actually produced while streaming decompression against the same
  hard caps. Memory stays bounded: data is read in 1 MiB chunks, only the kept files (at most
  ``max_total_bytes``; peak about that plus the largest file, which is copied once into ``bytes``)
  are held, and tar metadata records are size-capped;
* tar is parsed here (a small ustar/GNU/pax reader), not with :mod:`tarfile`, so that every read
  is bounded and pax records are parsed linearly (CPython 3.11.7's pax regex backtracks
  quadratically); zip uses :mod:`zipfile` after the pre-checks, and only stored/deflate entries
  (bzip2/lzma decompression in :mod:`zipfile` is not output-bounded).

Nothing is extracted to disk: :func:`read_model_repository` returns the files as bytes (the deploy
job sends them to Triton's load API as ``files={"file:1/model.py": bytes}``);
:func:`write_model_repository` can write a checked repository into a directory.

Every refusal is an :class:`ArchiveRejected` with a stable ``code`` and a message a researcher can
act on, naming the offending entry.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import stat
import struct
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable

from google.protobuf import json_format, text_format

__all__ = [
    "ArchiveLimits",
    "ArchiveRejected",
    "Member",
    "ModelRepository",
    "inspect_archive",
    "read_model_repository",
    "check_contract",
    "write_model_repository",
]

KiB = 1024
MiB = 1024**2
GiB = 1024**3

CHUNK = 1 * MiB  # streaming read size
TAR_BLOCK = 512
TAR_META_MAX = 64 * KiB  # one pax / GNU long-name record
TAR_META_TOTAL_MAX = 16 * MiB  # all metadata records together
TAR_META_RUN_MAX = 8  # metadata records in a row before a real entry
TAR_TRAILING_MAX = 1 * MiB  # decompressed bytes allowed after the end-of-archive marker
CONFIG_MAX = 1 * MiB
# Bytes a zip central-directory entry may take: 46 fixed + name (<= 4 UTF-8 bytes per character)
# + extra fields (an Info-ZIP unicode-path field repeats the name) + some slack.
ZIP_CD_FIXED = 46

CODES = (
    "PATH_ESCAPE",  # ".." component (zip-slip)
    "ABSOLUTE_PATH",  # "/x" or "C:x"
    "BAD_PATH",  # NUL/control characters, backslash, invalid UTF-8, empty name
    "PATH_TOO_LONG",
    "PATH_TOO_DEEP",
    "DUPLICATE_PATH",  # same path twice, or a path that is both a file and a folder
    "LINK",  # symlink or hardlink
    "DEVICE",  # character/block device, fifo, socket
    "UNSUPPORTED_ENTRY",  # sparse / multi-volume / unknown tar types, encrypted or bzip2/lzma zip entries
    "TOO_MANY_FILES",
    "TOO_LARGE",
    "BOMB",
    "NOT_AN_ARCHIVE",  # unknown format, corrupt or truncated archive
    "NO_CONFIG",
    "BAD_CONFIG",
    "BACKEND",
    "LAYOUT",
    "CONTRACT",
)


@dataclass
class ArchiveLimits:
    max_files: int = 1000
    max_total_bytes: int = 2 * GiB
    max_file_bytes: int = 2 * GiB
    max_path_length: int = 255  # characters of the entry name as stored
    max_depth: int = 10  # path components
    max_compression_ratio: float = 200.0
    # The ratio is only enforced above this many uncompressed bytes (small archives of text
    # legitimately compress very well): content may always reach max(this, ratio x archive size).
    ratio_check_min_bytes: int = 16 * MiB

    def __post_init__(self) -> None:
        for name in ("max_files", "max_total_bytes", "max_file_bytes", "max_path_length", "max_depth"):
            if getattr(self, name) < 1:
                raise ValueError(f"ArchiveLimits.{name} must be >= 1")
        if self.max_compression_ratio <= 0 or self.ratio_check_min_bytes < 0:
            raise ValueError("ArchiveLimits: max_compression_ratio must be > 0 and ratio_check_min_bytes >= 0")


class ArchiveRejected(Exception):
    """The upload is refused. ``code`` is stable (see CODES); ``message`` is for the researcher."""

    def __init__(self, code: str, message: str, *, entry: str | None = None, details: list[str] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.entry = entry  # the offending archive entry, when there is one
        self.details = details if details is not None else [message]

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"ArchiveRejected(code={self.code!r}, message={self.message!r})"


@dataclass(frozen=True)
class Member:
    """One archive entry, validated. ``path`` is normalized (no "./", no trailing "/")."""

    path: str
    is_dir: bool
    size: int  # declared size in bytes (0 for folders)
    raw_name: str  # the name as stored in the archive

    @property
    def ignored(self) -> bool:
        """OS junk dropped silently: __MACOSX/, .DS_Store, AppleDouble ._* files, Thumbs.db."""
        return _is_junk(self.path)


@dataclass
class ModelRepository:
    name: str
    config_text: str
    config: dict  # ModelConfig via json_format.MessageToDict(preserving_proto_field_name=True); "name" always set
    files: dict[str, bytes]  # paths relative to the model directory ("1/model.py"), config.pbtxt excluded
    versions: list[int]
    backend: str

    @property
    def total_bytes(self) -> int:
        return sum(len(data) for data in self.files.values())

    def triton_files(self) -> dict[str, bytes]:
        """The ``files`` argument of Triton's load API (``load_model(name, config=..., files=...)``)."""
        return {f"file:{path}": data for path, data in self.files.items()}

    def triton_config_json(self) -> str:
        """The ``config`` argument of Triton's load API."""
        return json.dumps(self.config)


# --------------------------------------------------------------------------------------------
# Paths
# --------------------------------------------------------------------------------------------

JUNK_DIRS = {"__MACOSX"}
JUNK_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}
MODEL_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}$")
VERSION = re.compile(r"^[1-9][0-9]{0,17}$")
_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _is_junk(path: str) -> bool:
    parts = path.split("/")
    if parts[0] in JUNK_DIRS:
        return True
    base = parts[-1]
    return base in JUNK_FILES or base.startswith("._")


def _normalize(raw: str, limits: ArchiveLimits) -> str:
    """Validate an entry name and return its normalized relative path ("" for the root itself)."""
    if "\x00" in raw:
        raise ArchiveRejected("BAD_PATH", f"entry {raw!r}: the name contains a NUL byte", entry=raw)
    if _CONTROL.search(raw):
        raise ArchiveRejected("BAD_PATH", f"entry {raw!r}: the name contains a control character", entry=raw)
    if _SURROGATE.search(raw):
        raise ArchiveRejected("BAD_PATH", f"entry {raw!r}: the name is not valid UTF-8", entry=raw)
    if raw.startswith("/") or _DRIVE.match(raw):
        raise ArchiveRejected(
            "ABSOLUTE_PATH",
            f"entry {raw!r} has an absolute path; archive the model directory with relative paths "
            "(e.g. `tar czf model.tar.gz -C parent my_model`)",
            entry=raw,
        )
    if "\\" in raw:
        raise ArchiveRejected(
            "BAD_PATH", f"entry {raw!r}: the name contains a backslash; archive paths must use '/'", entry=raw
        )
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveRejected(
            "PATH_ESCAPE", f"entry {raw!r} contains '..' and would escape the model directory", entry=raw
        )
    if len(raw) > limits.max_path_length:
        raise ArchiveRejected(
            "PATH_TOO_LONG",
            f"entry {raw[:60]!r}... has a {len(raw)}-character path; the limit is {limits.max_path_length}",
            entry=raw,
        )
    if len(parts) > limits.max_depth:
        raise ArchiveRejected(
            "PATH_TOO_DEEP",
            f"entry {raw!r} is nested {len(parts)} levels deep; the limit is {limits.max_depth}",
            entry=raw,
        )
    return "/".join(parts)


def _size(n: int) -> str:
    for unit, scale in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


# --------------------------------------------------------------------------------------------
# Entry admission and byte accounting (shared by the tar and zip readers)
# --------------------------------------------------------------------------------------------


class _Admission:
    def __init__(self, limits: ArchiveLimits, archive_size: int, compressed: bool):
        self.limits = limits
        self.archive_size = archive_size
        self.compressed = compressed
        self.ratio_bound = (
            max(limits.ratio_check_min_bytes, int(limits.max_compression_ratio * archive_size)) if compressed else None
        )
        self.count = 0
        self.declared_total = 0
        self.streamed_total = 0
        self.files: set[str] = set()
        self.dirs: set[str] = set()
        self.members: list[Member] = []

    def count_entry(self) -> None:
        self.count += 1
        if self.count > self.limits.max_files:
            raise ArchiveRejected(
                "TOO_MANY_FILES",
                f"the archive has more than {self.limits.max_files} entries (files and folders); "
                f"the limit is {self.limits.max_files}",
            )

    def _too_large_total(self, total: int, raw: str, what: str) -> ArchiveRejected:
        return ArchiveRejected(
            "TOO_LARGE",
            f"entry {raw!r} brings the archive's {what} content to {_size(total)}, over the limit of "
            f"{_size(self.limits.max_total_bytes)}",
            entry=raw,
        )

    def _bomb(self, total: int, raw: str, what: str) -> ArchiveRejected:
        ratio = total / max(self.archive_size, 1)
        return ArchiveRejected(
            "BOMB",
            f"entry {raw!r} brings the archive's {what} content to {_size(total)} from a "
            f"{_size(self.archive_size)} upload (compression ratio over {ratio:.0f}:1, the limit is "
            f"{self.limits.max_compression_ratio:.0f}:1); this looks like a decompression bomb",
            entry=raw,
        )

    def _check_ancestors(self, path: str, raw: str) -> None:
        parts = path.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            if parent in self.files:
                raise ArchiveRejected(
                    "DUPLICATE_PATH", f"entry {raw!r}: '{parent}' is both a file and a folder", entry=raw
                )
            self.dirs.add(parent)

    def admit(self, raw: str, kind: str, size: int, link: str | None = None) -> Member | None:
        """Validate one entry (name, type, declared size). Returns None for the root folder itself."""
        path = _normalize(raw, self.limits)
        if kind in ("symlink", "hardlink"):
            target = f" -> {link!r}" if link else ""
            raise ArchiveRejected(
                "LINK",
                f"entry {raw!r} is a {kind}{target}; links are not allowed, archive the file itself "
                "(e.g. `tar -h` dereferences symlinks)",
                entry=raw,
            )
        if kind in ("character device", "block device", "fifo", "socket"):
            raise ArchiveRejected("DEVICE", f"entry {raw!r} is a {kind}; only files and folders are allowed", entry=raw)
        if kind not in ("file", "dir"):
            raise ArchiveRejected(
                "UNSUPPORTED_ENTRY", f"entry {raw!r} is a {kind}; only plain files and folders are allowed", entry=raw
            )
        if kind == "dir":
            if path == "":
                return None
            if path in self.files:
                raise ArchiveRejected("DUPLICATE_PATH", f"entry {raw!r}: '{path}' is both a file and a folder", entry=raw)
            self._check_ancestors(path, raw)
            self.dirs.add(path)
            member = Member(path=path, is_dir=True, size=0, raw_name=raw)
            self.members.append(member)
            return member
        if path == "":
            raise ArchiveRejected("BAD_PATH", f"entry {raw!r} is a file without a name", entry=raw)
        if path in self.files:
            raise ArchiveRejected("DUPLICATE_PATH", f"entry {raw!r}: '{path}' appears twice in the archive", entry=raw)
        if path in self.dirs:
            raise ArchiveRejected("DUPLICATE_PATH", f"entry {raw!r}: '{path}' is both a file and a folder", entry=raw)
        if size < 0:
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"entry {raw!r} declares a negative size", entry=raw)
        if size > self.limits.max_file_bytes:
            raise ArchiveRejected(
                "TOO_LARGE",
                f"entry {raw!r} is {_size(size)}; the limit per file is {_size(self.limits.max_file_bytes)}",
                entry=raw,
            )
        self.declared_total += size
        if self.declared_total > self.limits.max_total_bytes:
            raise self._too_large_total(self.declared_total, raw, "declared")
        if self.ratio_bound is not None and self.declared_total > self.ratio_bound:
            raise self._bomb(self.declared_total, raw, "declared")
        self._check_ancestors(path, raw)
        self.files.add(path)
        member = Member(path=path, is_dir=False, size=size, raw_name=raw)
        self.members.append(member)
        return member

    def streamed(self, raw: str, file_so_far: int, declared: int, n: int) -> None:
        """Account ``n`` bytes actually produced for entry ``raw`` (hard caps, headers not trusted)."""
        self.streamed_total += n
        if file_so_far > declared or file_so_far > self.limits.max_file_bytes:
            raise ArchiveRejected(
                "BOMB",
                f"entry {raw!r} decompresses to more than its declared {_size(declared)}; refusing it",
                entry=raw,
            )
        if self.streamed_total > self.limits.max_total_bytes:
            raise self._too_large_total(self.streamed_total, raw, "decompressed")
        if self.ratio_bound is not None and self.streamed_total > self.ratio_bound:
            raise self._bomb(self.streamed_total, raw, "decompressed")


# --------------------------------------------------------------------------------------------
# Format detection
# --------------------------------------------------------------------------------------------

_OTHER_FORMATS = (
    (b"BZh", "bzip2-compressed file"),
    (b"\xfd7zXZ\x00", "xz-compressed file"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"Rar!\x1a\x07", "RAR archive"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed file"),
)
SUPPORTED = "a .tar.gz / .tgz / .tar / .zip of the model directory"


def _tar_checksum_ok(block: bytes) -> bool:
    try:
        stored = _tar_octal(block[148:156])
    except ValueError:
        return False
    unsigned = sum(block[:148]) + 256 + sum(block[156:])
    if stored == unsigned:
        return True
    signed = sum(b - 256 if b > 127 else b for b in block[:148] + block[156:]) + 256
    return stored == signed


def _detect(head: bytes) -> str:
    if not head:
        raise ArchiveRejected("NOT_AN_ARCHIVE", f"the uploaded file is empty; upload {SUPPORTED}")
    if head[:2] == b"\x1f\x8b":
        return "tar.gz"
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    if len(head) >= TAR_BLOCK and any(head[:100]) and _tar_checksum_ok(head[:TAR_BLOCK]):
        return "tar"  # pre-POSIX (v7) tar
    for magic, what in _OTHER_FORMATS:
        if head.startswith(magic):
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"the uploaded file is a {what}, which is not supported; upload {SUPPORTED}")
    raise ArchiveRejected(
        "NOT_AN_ARCHIVE",
        f"the uploaded file is not an archive (its content matches none of gzip, tar or zip, whatever its "
        f"name says); upload {SUPPORTED}",
    )


_DESCRIPTIONS = {"tar.gz": "gzip-compressed tar archive", "tar": "tar archive", "zip": "zip archive"}


# --------------------------------------------------------------------------------------------
# tar (ustar, GNU and pax), streamed
# --------------------------------------------------------------------------------------------


class _Source:
    """Bounded reads from a (possibly decompressing) stream, counting every byte produced."""

    def __init__(self, raw: BinaryIO, hard_cap: int, on_cap: Callable[[], ArchiveRejected]):
        self.raw = raw
        self.hard_cap = hard_cap
        self.on_cap = on_cap
        self.position = 0

    def read(self, n: int) -> bytes:
        parts: list[bytes] = []
        got = 0
        while got < n:
            chunk = self.raw.read(min(n - got, CHUNK))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        self.position += got
        if self.position > self.hard_cap:
            raise self.on_cap()
        return b"".join(parts)

    def read_exact(self, n: int, what: str) -> bytes:
        data = self.read(n)
        if len(data) != n:
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"the archive is truncated inside {what} (was the upload cut short?)")
        return data

    def skip(self, n: int, what: str) -> None:
        while n > 0:
            step = min(n, CHUNK)
            self.read_exact(step, what)
            n -= step


def _tar_octal(field: bytes) -> int:
    text = field.split(b"\x00", 1)[0].strip()
    if not text:
        return 0
    if not all(0x30 <= c <= 0x37 for c in text):
        raise ValueError(f"bad octal field {field!r}")
    return int(text, 8)


def _tar_number(field: bytes) -> int:
    if field[0] == 0x80:  # GNU base-256, positive
        return int.from_bytes(field[1:], "big")
    if field[0] & 0x80:
        raise ValueError("negative base-256 number")
    return _tar_octal(field)


def _pad(size: int) -> int:
    return -size % TAR_BLOCK


def _parse_pax(data: bytes, where: str) -> dict[str, bytes]:
    """Linear parser for pax records "<len> <key>=<value>\\n"."""
    records: dict[str, bytes] = {}
    pos = 0
    end = len(data)
    while pos < end:
        if not any(data[pos:end]):  # trailing NUL padding
            break
        space = data.find(b" ", pos, min(end, pos + 21))
        digits = data[pos:space] if space > pos else b""
        if not digits or not digits.isdigit():
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"the archive has a malformed pax header {where}")
        length = int(digits)
        if length <= space - pos + 1 or pos + length > end or data[pos + length - 1 : pos + length] != b"\n":
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"the archive has a malformed pax header {where}")
        keyword, eq, value = data[space + 1 : pos + length - 1].partition(b"=")
        if not eq or not keyword:
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"the archive has a malformed pax header {where}")
        records[keyword.decode("utf-8", "replace")] = value
        pos += length
    return records


_TAR_KINDS = {
    b"0": "file",
    b"\x00": "file",
    b"7": "file",  # contiguous file
    b"1": "hardlink",
    b"2": "symlink",
    b"3": "character device",
    b"4": "block device",
    b"5": "dir",
    b"6": "fifo",
    b"S": "GNU sparse file",
    b"V": "GNU volume header",
    b"M": "GNU multi-volume continuation",
    b"D": "GNU dump directory",
    b"N": "GNU long-name (old) record",
}
_TAR_META = (b"x", b"X", b"g", b"L", b"K")


def _scan_tar(
    src: _Source,
    adm: _Admission,
    want: Callable[[Member], bool],
    keep: dict[str, bytes],
    drain: bool,
) -> None:
    index = 0  # real entries seen
    local_pax: dict[str, bytes] = {}
    global_pax: dict[str, bytes] = {}
    long_name: bytes | None = None
    long_link: bytes | None = None
    meta_run = 0
    meta_total = 0
    last = "the first entry"
    while True:
        block = src.read(TAR_BLOCK)
        if len(block) < TAR_BLOCK:
            if index == 0 and not block and meta_run == 0:
                raise ArchiveRejected("NOT_AN_ARCHIVE", "the archive is empty (no tar header)")
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE",
                f"the archive is truncated after {last} (no end-of-archive marker; was the upload cut short?)",
            )
        if not any(block):
            break  # end-of-archive marker
        if not _tar_checksum_ok(block):
            if index == 0 and meta_run == 0:
                raise ArchiveRejected(
                    "NOT_AN_ARCHIVE",
                    f"the file does not contain a tar archive (bad header checksum); upload {SUPPORTED}",
                )
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"the archive is corrupt: bad tar header after {last}")
        typeflag = block[156:157]
        try:
            size = _tar_number(block[124:136])
        except ValueError:
            raise ArchiveRejected("NOT_AN_ARCHIVE", f"the archive is corrupt: bad size field after {last}") from None

        if typeflag in _TAR_META:
            meta_run += 1
            meta_total += size
            if meta_run > TAR_META_RUN_MAX or size > TAR_META_MAX or meta_total > TAR_META_TOTAL_MAX:
                raise ArchiveRejected(
                    "NOT_AN_ARCHIVE", f"the archive has oversized or too many metadata records after {last}"
                )
            data = src.read_exact(size, f"a metadata record after {last}")
            src.skip(_pad(size), f"a metadata record after {last}")
            if typeflag == b"L":
                long_name = data.split(b"\x00", 1)[0]
            elif typeflag == b"K":
                long_link = data.split(b"\x00", 1)[0]
            elif typeflag == b"g":
                global_pax.update(_parse_pax(data, f"after {last}"))
            else:
                local_pax.update(_parse_pax(data, f"after {last}"))
            continue

        meta_run = 0
        pax = {**global_pax, **local_pax}
        local_pax = {}
        name = block[0:100].split(b"\x00", 1)[0]
        if block[257:263] == b"ustar\x00":  # POSIX ustar: name may be split into prefix + name
            prefix = block[345:500].split(b"\x00", 1)[0]
            if prefix:
                name = prefix + b"/" + name
        if long_name is not None:
            name = long_name
        if "path" in pax:
            name = pax["path"]
        link = block[157:257].split(b"\x00", 1)[0]
        if long_link is not None:
            link = long_link
        if "linkpath" in pax:
            link = pax["linkpath"]
        long_name = long_link = None
        raw = name.decode("utf-8", "surrogateescape")
        link_text = link.decode("utf-8", "replace")
        if "size" in pax:
            text = pax["size"].strip()
            if not text.isdigit():
                raise ArchiveRejected("NOT_AN_ARCHIVE", f"entry {raw!r} has a malformed pax size", entry=raw)
            size = int(text)

        kind = _TAR_KINDS.get(typeflag, f"tar entry of unknown type {typeflag!r}")
        if kind == "file" and raw.endswith("/"):
            kind = "dir"  # pre-POSIX tars mark folders by a trailing slash
        if any(key.startswith("GNU.sparse.") for key in pax):
            kind = "GNU sparse file"

        index += 1
        adm.count_entry()
        last = f"entry {raw!r}"
        member = adm.admit(raw, kind, size if kind == "file" else 0, link_text)
        if kind != "file" and size:
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE", f"folder entry {raw!r} declares {size} bytes of content; the archive is malformed",
                entry=raw,
            )
        if kind == "file" and member is not None and want(member):
            keep[member.path] = _read_member_data(src, adm, raw, size)
        else:
            src.skip(size, f"entry {raw!r}")
        src.skip(_pad(size), f"entry {raw!r}")

    if drain:
        # Read the compressed stream to its end: gzip's CRC/length trailer is only checked there,
        # and data hidden after the tar end marker still costs decompression.
        trailing = 0
        while True:
            chunk = src.raw.read(64 * KiB)
            if not chunk:
                break
            trailing += len(chunk)
            if trailing > TAR_TRAILING_MAX:
                raise ArchiveRejected(
                    "BOMB",
                    f"the compressed stream holds more than {_size(TAR_TRAILING_MAX)} of data after the end of "
                    "the tar archive (a second archive, or a decompression bomb); upload one tar archive",
                )


def _read_member_data(src: _Source, adm: _Admission, raw: str, size: int) -> bytes:
    buf = bytearray()
    remaining = size
    while remaining > 0:
        chunk = src.read_exact(min(remaining, CHUNK), f"entry {raw!r}")
        remaining -= len(chunk)
        buf += chunk
        adm.streamed(raw, len(buf), size, len(chunk))
    return bytes(buf)


# --------------------------------------------------------------------------------------------
# zip
# --------------------------------------------------------------------------------------------


def _zip_directory(fp: BinaryIO, size: int) -> tuple[int, int]:
    """(entry count, central directory size) from the end records, without parsing the directory."""
    tail_len = min(size, 22 + 65535)
    fp.seek(size - tail_len)
    tail = fp.read(tail_len)
    i = tail.rfind(b"PK\x05\x06")
    if i < 0 or len(tail) - i < 22:
        raise ArchiveRejected(
            "NOT_AN_ARCHIVE", "the zip archive has no end-of-central-directory record (truncated upload?)"
        )
    _, disk, cd_disk, _, entries, cd_size, cd_offset, _ = struct.unpack("<4s4H2LH", tail[i : i + 22])
    if entries == 0xFFFF or cd_size == 0xFFFFFFFF or cd_offset == 0xFFFFFFFF:
        locator_at = size - tail_len + i - 20
        if locator_at >= 0:
            fp.seek(locator_at)
            locator = fp.read(20)
            if len(locator) == 20 and locator[:4] == b"PK\x06\x07":
                _, _, record_at, _ = struct.unpack("<4sLQL", locator)
                if record_at + 56 <= size:
                    fp.seek(record_at)
                    record = fp.read(56)
                    if record[:4] == b"PK\x06\x06":
                        (_, _, _, _, disk, cd_disk, _, entries, cd_size, _) = struct.unpack("<4sQ2H2L4Q", record)
    if disk != 0 or cd_disk != 0:
        raise ArchiveRejected("NOT_AN_ARCHIVE", "split (multi-part) zip archives are not supported; upload one file")
    return entries, cd_size


def _zip_kind(info: zipfile.ZipInfo) -> str:
    mode = info.external_attr >> 16
    ftype = stat.S_IFMT(mode)
    if ftype == stat.S_IFLNK:
        return "symlink"
    if ftype == stat.S_IFCHR:
        return "character device"
    if ftype == stat.S_IFBLK:
        return "block device"
    if ftype == stat.S_IFIFO:
        return "fifo"
    if ftype == stat.S_IFSOCK:
        return "socket"
    if info.filename.endswith("/") or ftype == stat.S_IFDIR:
        return "dir"
    return "file"


def _scan_zip(fp: BinaryIO, size: int, adm: _Admission, want: Callable[[Member], bool], keep: dict[str, bytes]) -> None:
    limits = adm.limits
    entries, cd_size = _zip_directory(fp, size)
    if entries > limits.max_files:
        raise ArchiveRejected(
            "TOO_MANY_FILES",
            f"the zip archive has {entries} entries (files and folders); the limit is {limits.max_files}",
        )
    cd_budget = limits.max_files * (ZIP_CD_FIXED + 8 * limits.max_path_length + 1024)
    if cd_size > cd_budget:
        raise ArchiveRejected(
            "TOO_MANY_FILES",
            f"the zip archive's central directory is {_size(cd_size)}, too large for at most {limits.max_files} "
            "entries",
        )
    fp.seek(0)
    with zipfile.ZipFile(fp) as archive:
        _read_zip_entries(archive, adm, want, keep)


def _read_zip_entries(
    archive: zipfile.ZipFile, adm: _Admission, want: Callable[[Member], bool], keep: dict[str, bytes]
) -> None:
    limits = adm.limits
    infos = archive.infolist()
    if len(infos) > limits.max_files:
        raise ArchiveRejected(
            "TOO_MANY_FILES",
            f"the zip archive has {len(infos)} entries (files and folders); the limit is {limits.max_files}",
        )
    plan: list[tuple[zipfile.ZipInfo, Member]] = []
    for info in infos:
        raw = info.orig_filename
        adm.count_entry()
        kind = _zip_kind(info)
        if kind == "file":
            if info.flag_bits & 0x1:
                raise ArchiveRejected(
                    "UNSUPPORTED_ENTRY", f"entry {raw!r} is encrypted; upload an archive without a password", entry=raw
                )
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise ArchiveRejected(
                    "UNSUPPORTED_ENTRY",
                    f"entry {raw!r} uses zip compression method {info.compress_type}; only deflate (the default of "
                    "zip, Finder and Explorer) and store are accepted, or upload a .tar.gz",
                    entry=raw,
                )
        member = adm.admit(raw, kind, info.file_size if kind == "file" else 0)
        if kind == "file" and member is not None and want(member):
            plan.append((info, member))
    for info, member in plan:
        raw = info.orig_filename
        buf = bytearray()
        with archive.open(info) as stream:
            while True:
                chunk = stream.read(CHUNK)
                if not chunk:
                    break
                buf += chunk
                adm.streamed(raw, len(buf), info.file_size, len(chunk))
        if len(buf) != info.file_size:
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE",
                f"entry {raw!r} holds {len(buf)} bytes but declares {info.file_size}; the archive is corrupt",
                entry=raw,
            )
        keep[member.path] = bytes(buf)


# --------------------------------------------------------------------------------------------
# Scanning entry point
# --------------------------------------------------------------------------------------------

_CORRUPT = (
    OSError,  # includes gzip.BadGzipFile
    EOFError,
    ValueError,  # includes UnicodeDecodeError
    zlib.error,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    NotImplementedError,
    RuntimeError,
    struct.error,
    IndexError,
    KeyError,
    OverflowError,
)


def _scan(path: Path, limits: ArchiveLimits, want: Callable[[Member], bool]) -> tuple[list[Member], dict[str, bytes]]:
    path = Path(path)
    keep: dict[str, bytes] = {}
    with open(path, "rb") as fp:
        size = os.fstat(fp.fileno()).st_size
        head = fp.read(TAR_BLOCK)
        fmt = _detect(head)
        fp.seek(0)
        adm = _Admission(limits, size, compressed=fmt != "tar")
        try:
            if fmt == "zip":
                _scan_zip(fp, size, adm, want, keep)
            else:
                raw: BinaryIO = gzip.GzipFile(fileobj=fp, mode="rb") if fmt == "tar.gz" else fp
                data_cap = limits.max_total_bytes if adm.ratio_bound is None else min(limits.max_total_bytes, adm.ratio_bound)
                # Everything a valid archive within the limits can decompress to: content, headers
                # (<= 1 + TAR_META_RUN_MAX blocks per entry), padding, metadata, the end marker.
                hard_cap = (
                    data_cap
                    + (limits.max_files + 1) * (TAR_META_RUN_MAX + 2) * TAR_BLOCK
                    + TAR_META_TOTAL_MAX
                    + 2 * TAR_BLOCK
                )

                def on_cap() -> ArchiveRejected:
                    code = "TOO_LARGE" if adm.ratio_bound is None or limits.max_total_bytes <= adm.ratio_bound else "BOMB"
                    return ArchiveRejected(
                        code, f"the archive decompresses to more than {_size(hard_cap)}; refusing it"
                    )

                _scan_tar(_Source(raw, hard_cap, on_cap), adm, want, keep, drain=fmt == "tar.gz")
        except ArchiveRejected:
            raise
        except MemoryError:
            raise
        except EOFError as exc:
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE",
                f"the {_DESCRIPTIONS[fmt]} is truncated ({exc}); was the upload cut short?",
            ) from None
        except _CORRUPT as exc:
            detail = str(exc) or type(exc).__name__
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE", f"the {_DESCRIPTIONS[fmt]} is corrupt or unreadable: {detail}"
            ) from None
    return adm.members, keep


def inspect_archive(path: Path, limits: ArchiveLimits) -> list[Member]:
    """List the archive's entries without keeping any file content, refusing hostile entries.

    A compressed archive is still decompressed as a stream (that is how tar.gz is listed), with
    every cap enforced; the returned list includes ignorable OS junk (``Member.ignored``) but not
    the root folder entry ("./").
    """
    members, _ = _scan(path, limits, want=lambda member: False)
    return members


# --------------------------------------------------------------------------------------------
# The model repository
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _pb2() -> Any:
    from tritonclient.grpc import model_config_pb2  # ships Triton's model_config.proto (lazy: slow import)

    return model_config_pb2


PLATFORM_BACKENDS = {
    "onnxruntime_onnx": "onnxruntime",
    "pytorch_libtorch": "pytorch",
    "tensorflow_graphdef": "tensorflow",
    "tensorflow_savedmodel": "tensorflow",
    "tensorrt_plan": "tensorrt",
    "ensemble": "ensemble",
}


def _parse_config(data: bytes, where: str) -> tuple[str, Any]:
    if len(data) > CONFIG_MAX:
        raise ArchiveRejected("BAD_CONFIG", f"{where} is {_size(len(data))}; a model config should be a small text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ArchiveRejected("BAD_CONFIG", f"{where} is not UTF-8 text ({exc})", entry=where) from None
    message = _pb2().ModelConfig()
    try:
        text_format.Parse(text.removeprefix("\ufeff"), message)
    except text_format.ParseError as exc:
        detail = str(exc)
        line, column = exc.GetLine(), exc.GetColumn()
        if line is not None:
            detail = re.sub(r"^\d+:\d+ : ", "", detail)
            detail = f"line {line}, column {column}: {detail}"
        raise ArchiveRejected(
            "BAD_CONFIG", f"{where} is not a valid Triton model config: {detail}", entry=where
        ) from None
    except Exception as exc:  # the text parser has no other documented failure; be safe
        raise ArchiveRejected("BAD_CONFIG", f"{where} is not a valid Triton model config: {exc}", entry=where) from None
    return text, message


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def read_model_repository(
    path: Path,
    limits: ArchiveLimits,
    supported_backends: Iterable[str] = frozenset({"python"}),
) -> ModelRepository:
    """Read and validate an uploaded archive holding exactly one Triton model.

    Layouts: ``<name>/config.pbtxt`` + ``<name>/<version>/...``, or the same at the top level
    (then the name comes from config.pbtxt's ``name``). OS junk (``__MACOSX/``, ``.DS_Store``,
    ``._*``) is dropped silently. Does not check the task's I/O contract: see :func:`check_contract`.
    """
    supported = set(supported_backends)
    members, data = _scan(path, limits, want=lambda member: not member.ignored and not member.is_dir)
    real = [m for m in members if not m.ignored]
    if not real:
        raise ArchiveRejected("NO_CONFIG", "the archive holds no files (apart from OS metadata); expected config.pbtxt")
    files = {m.path for m in real if not m.is_dir}
    top = sorted({m.path.split("/", 1)[0] for m in real})

    # 1. Where is the model directory?
    dir_name: str | None
    if "config.pbtxt" in files:
        dir_name, prefix = None, ""
    else:
        candidates = [t for t in top if f"{t}/config.pbtxt" in files]
        if len(candidates) > 1:
            raise ArchiveRejected(
                "LAYOUT",
                f"the archive holds {len(candidates)} models ({', '.join(candidates)}); upload one model per archive",
            )
        if not candidates:
            deeper = sorted(p for p in files if p.rsplit("/", 1)[-1] == "config.pbtxt")
            hint = (
                f"; found {deeper[0]!r}: archive the model directory itself "
                f"(e.g. `tar czf model.tar.gz -C {deeper[0].rsplit('/', 2)[0]} {deeper[0].rsplit('/', 2)[-2]}`)"
                if deeper
                else ""
            )
            raise ArchiveRejected(
                "NO_CONFIG",
                "no config.pbtxt: expected <model_name>/config.pbtxt or config.pbtxt at the top of the archive" + hint,
            )
        dir_name = candidates[0]
        strays = [t for t in top if t != dir_name]
        if strays:
            folders = {m.path.split("/", 1)[0] for m in real if m.is_dir or "/" in m.path}
            described = ", ".join(f"'{t}/'" if t in folders else f"'{t}'" for t in strays)
            raise ArchiveRejected(
                "LAYOUT",
                f"stray entries next to the model folder '{dir_name}/': {described}; the archive must hold only "
                "the one model directory (Triton fails to load a repository with stray folders)",
                entry=strays[0],
            )
        prefix = dir_name + "/"
    config_path = prefix + "config.pbtxt"

    # 2. config.pbtxt
    config_text, config = _parse_config(data[config_path], config_path)
    if dir_name is not None:
        if not MODEL_NAME.match(dir_name):
            raise ArchiveRejected(
                "LAYOUT",
                f"model folder name {dir_name!r} is not a valid model name: use letters, digits, '_', '-' and '.' "
                "(at most 128 characters, not starting with '.' or '-')",
                entry=dir_name,
            )
        if config.name and config.name != dir_name:
            raise ArchiveRejected(
                "BAD_CONFIG",
                f"config.pbtxt says name: \"{config.name}\" but the model folder is '{dir_name}/'; Triton requires "
                "them to be equal",
                entry=config_path,
            )
        name = dir_name
    else:
        if not config.name:
            raise ArchiveRejected(
                "BAD_CONFIG",
                "config.pbtxt is at the top of the archive, so it must set the model's name (name: \"my_model\"), "
                "or put the model in a folder named like the model",
                entry=config_path,
            )
        name = config.name
    if not MODEL_NAME.match(name):
        raise ArchiveRejected(
            "BAD_CONFIG",
            f"model name {name!r} is not valid: use letters, digits, '_', '-' and '.' (at most 128 characters, "
            "not starting with '.' or '-')",
            entry=config_path,
        )
    config.name = name

    # 3. The model directory holds config.pbtxt, numbered version folders and label files.
    label_files = {t.label_filename for t in config.output if t.label_filename}
    versions: set[int] = set()
    model_files: dict[str, bytes] = {}
    for member in real:
        rel = member.path[len(prefix) :] if prefix else member.path
        if rel == "":
            continue  # the model folder itself
        first, sep, _rest = rel.partition("/")
        if rel == "config.pbtxt":
            continue
        if sep or member.is_dir:
            if VERSION.match(first):
                versions.add(int(first))
            elif first.isdigit():
                raise ArchiveRejected(
                    "LAYOUT",
                    f"version folder '{prefix}{first}/' must be a positive integer without leading zeros "
                    "(1/, 2/, ...)",
                    entry=member.raw_name,
                )
            else:
                second_model = f"{prefix}{first}/config.pbtxt" in files
                why = " (it holds a config.pbtxt: upload one model per archive)" if second_model else ""
                raise ArchiveRejected(
                    "LAYOUT",
                    f"stray folder '{prefix}{first}/' next to config.pbtxt{why}: a Triton model directory holds "
                    f"only config.pbtxt and numbered version folders (1/, 2/, ...); move it into a version folder "
                    f"(e.g. 1/{first}/) or remove it",
                    entry=member.raw_name,
                )
        elif first not in label_files:
            raise ArchiveRejected(
                "LAYOUT",
                f"stray file '{prefix}{first}' next to config.pbtxt: a Triton model directory holds only "
                f"config.pbtxt and numbered version folders; move it into a version folder (e.g. 1/{first}) or "
                "remove it",
                entry=member.raw_name,
            )
        if not member.is_dir:
            model_files[rel] = data[member.path]
    for label_file in sorted(label_files):
        if label_file not in model_files:
            raise ArchiveRejected(
                "LAYOUT",
                f"config.pbtxt names label_filename \"{label_file}\" but '{prefix}{label_file}' is not in the archive",
                entry=config_path,
            )
    if not versions:
        raise ArchiveRejected(
            "LAYOUT",
            f"no version folder: put the model's files in '{prefix}1/' (e.g. {prefix}1/model.py)",
        )
    if config.HasField("version_policy") and config.version_policy.HasField("specific"):
        missing = sorted(set(config.version_policy.specific.versions) - versions)
        if missing:
            raise ArchiveRejected(
                "LAYOUT",
                f"config.pbtxt's version_policy asks for version(s) {missing} but the archive has only "
                f"{sorted(versions)}",
                entry=config_path,
            )

    # 4. Backend
    backend = config.backend or PLATFORM_BACKENDS.get(config.platform, config.platform)
    if not backend:
        raise ArchiveRejected(
            "BACKEND",
            'config.pbtxt names no backend; add backend: "python" (with the model code in 1/model.py)',
            entry=config_path,
        )
    if backend not in supported:
        asked = f"the '{backend}' backend" + (f" (platform \"{config.platform}\")" if config.platform else "")
        if supported == {"python"}:
            runs = "the submissions Triton here runs only the python backend"
            advice = (
                'wrap the model in a python-backend model (backend: "python" and 1/model.py, which can run '
                "onnxruntime, torch or transformers inside)"
            )
        else:
            runs = f"the submissions Triton here runs only the {', '.join(sorted(supported))} backends"
            advice = "use one of those"
        raise ArchiveRejected("BACKEND", f"{runs}; this model asks for {asked}: {advice}", entry=config_path)
    if backend == "python":
        entry_file = config.default_model_filename or "model.py"
        if "/" in entry_file or entry_file in ("", ".", ".."):
            raise ArchiveRejected(
                "BAD_CONFIG", f"default_model_filename {entry_file!r} must be a plain file name", entry=config_path
            )
        for version in sorted(versions):
            if f"{version}/{entry_file}" not in model_files:
                raise ArchiveRejected(
                    "LAYOUT",
                    f"version folder '{prefix}{version}/' has no {entry_file}: the python backend runs "
                    f"<version>/{entry_file} ({_plural(len(versions), 'version folder')} in the archive)",
                    entry=f"{prefix}{version}/",
                )

    return ModelRepository(
        name=name,
        config_text=config_text,
        config=json_format.MessageToDict(config, preserving_proto_field_name=True),
        files=dict(sorted(model_files.items())),
        versions=sorted(versions),
        backend=backend,
    )


# --------------------------------------------------------------------------------------------
# The per-task I/O contract (triton_models/README.md)
# --------------------------------------------------------------------------------------------

_TASK_KINDS = {"classification": "classification", "extractive_qa": "qa", "qa": "qa"}


def _dtype(value: int) -> str:
    try:
        return _pb2().DataType.Name(value)
    except ValueError:
        return str(value)


def check_contract(repo: ModelRepository, task_kind: str, input_names: list[str], labels: list[str] | None) -> None:
    """Refuse (code CONTRACT) a model whose tensors do not follow its task's I/O contract.

    ``task_kind``: "classification" or "extractive_qa" (alias "qa"); ``input_names``: the task's
    model inputs (TaskConfig.model_inputs); ``labels``: the task's labels in order (classification).
    Every problem found is reported (``details``), each naming the tensor and what was expected.
    """
    kind = _TASK_KINDS.get(task_kind)
    if kind is None:
        raise ValueError(f"unknown task kind {task_kind!r}")
    if kind == "classification" and not labels:
        raise ValueError("a classification task needs its labels")
    pb2 = _pb2()
    config = json_format.ParseDict(repo.config, pb2.ModelConfig())
    problems: list[str] = []
    string = "TYPE_STRING dims [1]"

    if config.max_batch_size <= 0:
        problems.append(
            f"max_batch_size is {config.max_batch_size}: the API sends batched tensors ([batch, 1]), so set "
            "max_batch_size to at least 1 (e.g. 64 with dynamic_batching)"
        )

    expected_inputs = list(input_names)
    inputs: dict[str, Any] = {}
    for tensor in config.input:
        if tensor.name in inputs:
            problems.append(f"input '{tensor.name}' is declared twice")
        inputs[tensor.name] = tensor
    for name in expected_inputs:
        tensor = inputs.get(name)
        if tensor is None:
            problems.append(f"input '{name}' is missing: this task sends the inputs {expected_inputs}, each {string}")
            continue
        if tensor.data_type != pb2.TYPE_STRING:
            problems.append(f"input '{name}' is {_dtype(tensor.data_type)}, expected TYPE_STRING (UTF-8 bytes)")
        if list(tensor.dims) != [1]:
            problems.append(f"input '{name}' has dims {list(tensor.dims)}, expected [1]")
    for name in inputs:
        if name not in expected_inputs:
            problems.append(
                f"input '{name}' is not one of this task's inputs {expected_inputs}: the API sends exactly those, "
                f"each {string}"
            )

    if kind == "classification":
        assert labels is not None
        expected_outputs = [
            ("label", pb2.TYPE_STRING, [1], ""),
            ("probs", pb2.TYPE_FP32, [len(labels)], f" (one probability per label: {', '.join(labels)})"),
        ]
    else:
        expected_outputs = [
            ("answer", pb2.TYPE_STRING, [1], ""),
            ("start", pb2.TYPE_INT32, [1], ""),
            ("end", pb2.TYPE_INT32, [1], ""),
            ("confidence", pb2.TYPE_FP32, [1], ""),
        ]
    outputs: dict[str, Any] = {}
    for tensor in config.output:
        if tensor.name in outputs:
            problems.append(f"output '{tensor.name}' is declared twice")
        outputs[tensor.name] = tensor
    for name, dtype, dims, why in expected_outputs:
        tensor = outputs.get(name)
        if tensor is None:
            problems.append(f"output '{name}' is missing: expected {name} {_dtype(dtype)} dims {dims}{why}")
            continue
        if tensor.data_type != dtype:
            problems.append(f"output '{name}' is {_dtype(tensor.data_type)}, expected {_dtype(dtype)}")
        if list(tensor.dims) != dims:
            problems.append(f"output '{name}' has dims {list(tensor.dims)}, expected {dims}{why}")

    if "labels" in config.parameters:
        expected_labels = list(labels or []) if kind == "classification" else []
        raw = config.parameters["labels"].string_value
        try:
            declared = json.loads(raw)
        except ValueError:
            declared = None
        if not isinstance(declared, list) or not all(isinstance(x, str) for x in declared):
            problems.append(f"parameter 'labels' must be a JSON list of strings, got {raw!r}")
        elif declared != expected_labels:
            if kind == "classification":
                problems.append(
                    f"parameter 'labels' is {json.dumps(declared)}, but this task's labels are "
                    f"{json.dumps(expected_labels)} in that order (probs[i] must be the probability of labels[i])"
                )
            else:
                problems.append(f"parameter 'labels' is {json.dumps(declared)}, but a QA model has no labels ([])")

    if problems:
        if len(problems) == 1:
            message = f"the model does not follow the task's I/O contract: {problems[0]}"
        else:
            message = "the model does not follow the task's I/O contract: " + "; ".join(
                f"({i}) {p}" for i, p in enumerate(problems, 1)
            )
        raise ArchiveRejected("CONTRACT", message, details=problems)


# --------------------------------------------------------------------------------------------
# Writing a checked repository to disk
# --------------------------------------------------------------------------------------------


def write_model_repository(repo: ModelRepository, destination: Path) -> Path:
    """Write ``repo`` as ``destination/<name>/`` (config.pbtxt + files; dirs 0755, files 0644).

    The model is staged next to ``destination`` and renamed in complete, so a Triton repository
    never sees a half-written (stray) folder. Refuses to overwrite an existing model folder.
    """
    destination = Path(destination)
    if not MODEL_NAME.match(repo.name):
        raise ValueError(f"invalid model name {repo.name!r}")
    target = destination / repo.name
    if target.exists() or target.is_symlink():
        raise FileExistsError(f"{target} already exists")
    destination.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{repo.name}.", dir=destination.parent))
    try:
        os.chmod(staging, 0o755)
        entries = {"config.pbtxt": repo.config_text.encode("utf-8"), **repo.files}
        for rel, content in entries.items():
            parts = rel.split("/")
            if rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in parts) or "\x00" in rel:
                raise ValueError(f"unsafe path {rel!r}")
            parent = staging
            for part in parts[:-1]:
                parent = parent / part
                if not parent.is_dir():
                    parent.mkdir()
                    os.chmod(parent, 0o755)
            fd = os.open(parent / parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            try:
                os.fchmod(fd, 0o644)
                with os.fdopen(fd, "wb", closefd=False) as handle:
                    handle.write(content)
            finally:
                os.close(fd)
        try:
            os.rename(staging, target)
        except OSError:
            shutil.move(str(staging), str(target))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target
