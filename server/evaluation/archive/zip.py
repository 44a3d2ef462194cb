"""Zip archives: entry count and directory size checked from the end records before :mod:`zipfile` parses them."""

from __future__ import annotations

import stat
import struct
import zipfile
from collections.abc import Callable
from typing import BinaryIO

from server.core.i18n import tr
from server.evaluation.archive.limits import CHUNK, ZIP_CD_FIXED, ArchiveRejected, Member, _Admission, _size

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
        raise ArchiveRejected("NOT_AN_ARCHIVE", tr("the zip archive has no end-of-central-directory record (truncated upload?)"))
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
        raise ArchiveRejected("NOT_AN_ARCHIVE", tr("split (multi-part) zip archives are not supported; upload one file"))
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
            tr(
                "the zip archive has {entries} entries (files and folders); the limit is {limit}",
                entries=entries,
                limit=limits.max_files,
            ),
        )
    cd_budget = limits.max_files * (ZIP_CD_FIXED + 8 * limits.max_path_length + 1024)
    if cd_size > cd_budget:
        raise ArchiveRejected(
            "TOO_MANY_FILES",
            tr(
                "the zip archive's central directory is {size}, too large for at most {limit} entries",
                size=_size(cd_size),
                limit=limits.max_files,
            ),
        )
    fp.seek(0)
    with zipfile.ZipFile(fp) as archive:
        _read_zip_entries(archive, adm, want, keep)


def _read_zip_entries(archive: zipfile.ZipFile, adm: _Admission, want: Callable[[Member], bool], keep: dict[str, bytes]) -> None:
    limits = adm.limits
    infos = archive.infolist()
    if len(infos) > limits.max_files:
        raise ArchiveRejected(
            "TOO_MANY_FILES",
            tr(
                "the zip archive has {entries} entries (files and folders); the limit is {limit}",
                entries=len(infos),
                limit=limits.max_files,
            ),
        )
    plan: list[tuple[zipfile.ZipInfo, Member]] = []
    for info in infos:
        raw = info.orig_filename
        adm.count_entry()
        kind = _zip_kind(info)
        if kind == "file":
            if info.flag_bits & 0x1:
                raise ArchiveRejected(
                    "UNSUPPORTED_ENTRY",
                    tr("entry {raw!r} is encrypted; upload an archive without a password", raw=raw),
                    entry=raw,
                )
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise ArchiveRejected(
                    "UNSUPPORTED_ENTRY",
                    tr(
                        "entry {raw!r} uses zip compression method {method}; only deflate (the default of "
                        "zip, Finder and Explorer) and store are accepted, or upload a .tar.gz",
                        raw=raw,
                        method=info.compress_type,
                    ),
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
                tr(
                    "entry {raw!r} holds {size} bytes but declares {declared}; the archive is corrupt",
                    raw=raw,
                    size=len(buf),
                    declared=info.file_size,
                ),
                entry=raw,
            )
        keep[member.path] = bytes(buf)
