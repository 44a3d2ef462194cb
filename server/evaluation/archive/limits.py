"""Archive limits, the refusal type, entry-name checks and the byte accounting both readers share."""

from __future__ import annotations

import re
from dataclasses import dataclass

from server.core.i18n import Text, tr

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
SUPPORTED = tr("a .tar.gz / .tgz / .tar / .zip of the model directory")  # what a refusal asks for instead

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
        raise ArchiveRejected("BAD_PATH", tr("entry {raw!r}: the name contains a NUL byte", raw=raw), entry=raw)
    if _CONTROL.search(raw):
        raise ArchiveRejected("BAD_PATH", tr("entry {raw!r}: the name contains a control character", raw=raw), entry=raw)
    if _SURROGATE.search(raw):
        raise ArchiveRejected("BAD_PATH", tr("entry {raw!r}: the name is not valid UTF-8", raw=raw), entry=raw)
    if raw.startswith("/") or _DRIVE.match(raw):
        raise ArchiveRejected(
            "ABSOLUTE_PATH",
            tr(
                "entry {raw!r} has an absolute path; archive the model directory with relative paths "
                "(e.g. `tar czf model.tar.gz -C parent my_model`)",
                raw=raw,
            ),
            entry=raw,
        )
    if "\\" in raw:
        raise ArchiveRejected(
            "BAD_PATH", tr("entry {raw!r}: the name contains a backslash; archive paths must use '/'", raw=raw), entry=raw
        )
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveRejected(
            "PATH_ESCAPE", tr("entry {raw!r} contains '..' and would escape the model directory", raw=raw), entry=raw
        )
    if len(raw) > limits.max_path_length:
        raise ArchiveRejected(
            "PATH_TOO_LONG",
            tr(
                "entry {start!r}... has a {length}-character path; the limit is {limit}",
                start=raw[:60],
                length=len(raw),
                limit=limits.max_path_length,
            ),
            entry=raw,
        )
    if len(parts) > limits.max_depth:
        raise ArchiveRejected(
            "PATH_TOO_DEEP",
            tr(
                "entry {raw!r} is nested {depth} levels deep; the limit is {limit}",
                raw=raw,
                depth=len(parts),
                limit=limits.max_depth,
            ),
            entry=raw,
        )
    return "/".join(parts)


def _size(n: int) -> Text:
    if n >= GiB:
        return tr("{size:.1f} GiB", size=n / GiB)
    if n >= MiB:
        return tr("{size:.1f} MiB", size=n / MiB)
    if n >= KiB:
        return tr("{size:.1f} KiB", size=n / KiB)
    return tr("{number} bytes", number=n)


def numbered(problems: list[str]) -> str:
    """ "(1) first; (2) second; ..." as one message (said in the reader's language when the problems are)."""
    items = [tr("({number}) {problem}", number=i, problem=problem) for i, problem in enumerate(problems, 1)]
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = tr("{first}; {rest}", first=item, rest=joined)
    return joined


# How a refusal names an entry's kind (the readers' own words for it; others are said as they are).
KIND_NAMES = {
    "symlink": tr("symlink"),
    "hardlink": tr("hardlink"),
    "character device": tr("character device"),
    "block device": tr("block device"),
    "fifo": tr("fifo"),
    "socket": tr("socket"),
    "GNU sparse file": tr("GNU sparse file"),
    "GNU volume header": tr("GNU volume header"),
    "GNU multi-volume continuation": tr("GNU multi-volume continuation"),
    "GNU dump directory": tr("GNU dump directory"),
    "GNU long-name (old) record": tr("GNU long-name (old) record"),
}


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
                tr(
                    "the archive has more than {limit} entries (files and folders); the limit is {limit}",
                    limit=self.limits.max_files,
                ),
            )

    def _too_large_total(self, total: int, raw: str, what: str) -> ArchiveRejected:
        return ArchiveRejected(
            "TOO_LARGE",
            tr(
                "entry {raw!r} brings the archive's {what} content to {size}, over the limit of {limit}",
                raw=raw,
                what=what,
                size=_size(total),
                limit=_size(self.limits.max_total_bytes),
            ),
            entry=raw,
        )

    def _bomb(self, total: int, raw: str, what: str) -> ArchiveRejected:
        ratio = total / max(self.archive_size, 1)
        return ArchiveRejected(
            "BOMB",
            tr(
                "entry {raw!r} brings the archive's {what} content to {size} from a {upload} upload (compression ratio "
                "over {ratio:.0f}:1, the limit is {limit:.0f}:1); this looks like a decompression bomb",
                raw=raw,
                what=what,
                size=_size(total),
                upload=_size(self.archive_size),
                ratio=ratio,
                limit=self.limits.max_compression_ratio,
            ),
            entry=raw,
        )

    def _check_ancestors(self, path: str, raw: str) -> None:
        parts = path.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            if parent in self.files:
                raise ArchiveRejected(
                    "DUPLICATE_PATH", tr("entry {raw!r}: '{path}' is both a file and a folder", raw=raw, path=parent), entry=raw
                )
            self.dirs.add(parent)

    def admit(self, raw: str, kind: str, size: int, link: str | None = None) -> Member | None:
        """Validate one entry (name, type, declared size). Returns None for the root folder itself."""
        path = _normalize(raw, self.limits)
        shown = KIND_NAMES.get(kind, kind)
        if kind in ("symlink", "hardlink"):
            target = f" -> {link!r}" if link else ""
            raise ArchiveRejected(
                "LINK",
                tr(
                    "entry {raw!r} is a {kind}{target}; links are not allowed, archive the file itself "
                    "(e.g. `tar -h` dereferences symlinks)",
                    raw=raw,
                    kind=shown,
                    target=target,
                ),
                entry=raw,
            )
        if kind in ("character device", "block device", "fifo", "socket"):
            raise ArchiveRejected(
                "DEVICE", tr("entry {raw!r} is a {kind}; only files and folders are allowed", raw=raw, kind=shown), entry=raw
            )
        if kind not in ("file", "dir"):
            raise ArchiveRejected(
                "UNSUPPORTED_ENTRY",
                tr("entry {raw!r} is a {kind}; only plain files and folders are allowed", raw=raw, kind=shown),
                entry=raw,
            )
        if kind == "dir":
            if path == "":
                return None
            if path in self.files:
                raise ArchiveRejected(
                    "DUPLICATE_PATH", tr("entry {raw!r}: '{path}' is both a file and a folder", raw=raw, path=path), entry=raw
                )
            self._check_ancestors(path, raw)
            self.dirs.add(path)
            member = Member(path=path, is_dir=True, size=0, raw_name=raw)
            self.members.append(member)
            return member
        if path == "":
            raise ArchiveRejected("BAD_PATH", tr("entry {raw!r} is a file without a name", raw=raw), entry=raw)
        if path in self.files:
            raise ArchiveRejected(
                "DUPLICATE_PATH", tr("entry {raw!r}: '{path}' appears twice in the archive", raw=raw, path=path), entry=raw
            )
        if path in self.dirs:
            raise ArchiveRejected(
                "DUPLICATE_PATH", tr("entry {raw!r}: '{path}' is both a file and a folder", raw=raw, path=path), entry=raw
            )
        if size < 0:
            raise ArchiveRejected("NOT_AN_ARCHIVE", tr("entry {raw!r} declares a negative size", raw=raw), entry=raw)
        if size > self.limits.max_file_bytes:
            raise ArchiveRejected(
                "TOO_LARGE",
                tr(
                    "entry {raw!r} is {size}; the limit per file is {limit}",
                    raw=raw,
                    size=_size(size),
                    limit=_size(self.limits.max_file_bytes),
                ),
                entry=raw,
            )
        self.declared_total += size
        if self.declared_total > self.limits.max_total_bytes:
            raise self._too_large_total(self.declared_total, raw, tr("declared"))
        if self.ratio_bound is not None and self.declared_total > self.ratio_bound:
            raise self._bomb(self.declared_total, raw, tr("declared"))
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
                tr("entry {raw!r} decompresses to more than its declared {size}; refusing it", raw=raw, size=_size(declared)),
                entry=raw,
            )
        if self.streamed_total > self.limits.max_total_bytes:
            raise self._too_large_total(self.streamed_total, raw, tr("decompressed"))
        if self.ratio_bound is not None and self.streamed_total > self.ratio_bound:
            raise self._bomb(self.streamed_total, raw, tr("decompressed"))
