"""Archive limits, the refusal type, entry-name checks and the byte accounting both readers share."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
SUPPORTED = "a .tar.gz / .tgz / .tar / .zip of the model directory"  # what a refusal asks for instead

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
    "CONFIG_LIMIT",  # config.pbtxt asks for GPUs, too many instances, a too large batch, unknown parameters, ...
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
        raise ArchiveRejected("BAD_PATH", f"entry {raw!r}: the name contains a backslash; archive paths must use '/'", entry=raw)
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveRejected("PATH_ESCAPE", f"entry {raw!r} contains '..' and would escape the model directory", entry=raw)
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
                raise ArchiveRejected("DUPLICATE_PATH", f"entry {raw!r}: '{parent}' is both a file and a folder", entry=raw)
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
