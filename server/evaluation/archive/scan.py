"""Format detection from the content and the one scanning entry point over the tar and zip readers."""

from __future__ import annotations

import gzip
import os
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from server.core.i18n import tr
from server.evaluation.archive.limits import (
    SUPPORTED,
    TAR_BLOCK,
    TAR_META_RUN_MAX,
    TAR_META_TOTAL_MAX,
    ArchiveLimits,
    ArchiveRejected,
    Member,
    _Admission,
    _size,
)
from server.evaluation.archive.tar import _scan_tar, _Source, _tar_checksum_ok
from server.evaluation.archive.zip import _scan_zip

# --------------------------------------------------------------------------------------------
# Format detection
# --------------------------------------------------------------------------------------------

_OTHER_FORMATS = (
    (b"BZh", tr("bzip2-compressed file")),
    (b"\xfd7zXZ\x00", tr("xz-compressed file")),
    (b"7z\xbc\xaf\x27\x1c", tr("7-Zip archive")),
    (b"Rar!\x1a\x07", tr("RAR archive")),
    (b"\x28\xb5\x2f\xfd", tr("zstd-compressed file")),
)


def _detect(head: bytes) -> str:
    if not head:
        raise ArchiveRejected("NOT_AN_ARCHIVE", tr("the uploaded file is empty; upload {supported}", supported=SUPPORTED))
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
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE",
                tr("the uploaded file is a {what}, which is not supported; upload {supported}", what=what, supported=SUPPORTED),
            )
    raise ArchiveRejected(
        "NOT_AN_ARCHIVE",
        tr(
            "the uploaded file is not an archive (its content matches none of gzip, tar or zip, whatever its "
            "name says); upload {supported}",
            supported=SUPPORTED,
        ),
    )


_DESCRIPTIONS = {"tar.gz": tr("gzip-compressed tar archive"), "tar": tr("tar archive"), "zip": tr("zip archive")}


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
                    data_cap + (limits.max_files + 1) * (TAR_META_RUN_MAX + 2) * TAR_BLOCK + TAR_META_TOTAL_MAX + 2 * TAR_BLOCK
                )

                def on_cap() -> ArchiveRejected:
                    code = "TOO_LARGE" if adm.ratio_bound is None or limits.max_total_bytes <= adm.ratio_bound else "BOMB"
                    return ArchiveRejected(
                        code, tr("the archive decompresses to more than {size}; refusing it", size=_size(hard_cap))
                    )

                _scan_tar(_Source(raw, hard_cap, on_cap), adm, want, keep, drain=fmt == "tar.gz")
        except ArchiveRejected:
            raise
        except MemoryError:
            raise
        except EOFError as exc:
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE",
                tr("the {what} is truncated ({error}); was the upload cut short?", what=_DESCRIPTIONS[fmt], error=str(exc)),
            ) from None
        except _CORRUPT as exc:
            detail = str(exc) or type(exc).__name__
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE", tr("the {what} is corrupt or unreadable: {error}", what=_DESCRIPTIONS[fmt], error=detail)
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
