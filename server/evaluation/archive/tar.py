"""A small bounded tar reader (ustar, GNU and pax), streamed: every read is capped, pax records parsed linearly."""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

from server.core.i18n import tr
from server.evaluation.archive.limits import (
    CHUNK,
    SUPPORTED,
    TAR_BLOCK,
    TAR_META_MAX,
    TAR_META_RUN_MAX,
    TAR_META_TOTAL_MAX,
    TAR_TRAILING_MAX,
    ArchiveRejected,
    KiB,
    Member,
    _Admission,
    _size,
)

# --------------------------------------------------------------------------------------------
# tar (ustar, GNU and pax), streamed
# --------------------------------------------------------------------------------------------


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
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE", tr("the archive is truncated inside {what} (was the upload cut short?)", what=what)
            )
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
            raise ArchiveRejected("NOT_AN_ARCHIVE", tr("the archive has a malformed pax header {where}", where=where))
        length = int(digits)
        if length <= space - pos + 1 or pos + length > end or data[pos + length - 1 : pos + length] != b"\n":
            raise ArchiveRejected("NOT_AN_ARCHIVE", tr("the archive has a malformed pax header {where}", where=where))
        keyword, eq, value = data[space + 1 : pos + length - 1].partition(b"=")
        if not eq or not keyword:
            raise ArchiveRejected("NOT_AN_ARCHIVE", tr("the archive has a malformed pax header {where}", where=where))
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
    last = tr("the first entry")
    while True:
        block = src.read(TAR_BLOCK)
        if len(block) < TAR_BLOCK:
            if index == 0 and not block and meta_run == 0:
                raise ArchiveRejected("NOT_AN_ARCHIVE", tr("the archive is empty (no tar header)"))
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE",
                tr("the archive is truncated after {last} (no end-of-archive marker; was the upload cut short?)", last=last),
            )
        if not any(block):
            break  # end-of-archive marker
        if not _tar_checksum_ok(block):
            if index == 0 and meta_run == 0:
                raise ArchiveRejected(
                    "NOT_AN_ARCHIVE",
                    tr("the file does not contain a tar archive (bad header checksum); upload {supported}", supported=SUPPORTED),
                )
            raise ArchiveRejected("NOT_AN_ARCHIVE", tr("the archive is corrupt: bad tar header after {last}", last=last))
        typeflag = block[156:157]
        try:
            size = _tar_number(block[124:136])
        except ValueError:
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE", tr("the archive is corrupt: bad size field after {last}", last=last)
            ) from None

        if typeflag in _TAR_META:
            meta_run += 1
            meta_total += size
            if meta_run > TAR_META_RUN_MAX or size > TAR_META_MAX or meta_total > TAR_META_TOTAL_MAX:
                raise ArchiveRejected(
                    "NOT_AN_ARCHIVE", tr("the archive has oversized or too many metadata records after {last}", last=last)
                )
            data = src.read_exact(size, tr("a metadata record after {last}", last=last))
            src.skip(_pad(size), tr("a metadata record after {last}", last=last))
            if typeflag == b"L":
                long_name = data.split(b"\x00", 1)[0]
            elif typeflag == b"K":
                long_link = data.split(b"\x00", 1)[0]
            elif typeflag == b"g":
                global_pax.update(_parse_pax(data, tr("after {last}", last=last)))
            else:
                local_pax.update(_parse_pax(data, tr("after {last}", last=last)))
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
                raise ArchiveRejected("NOT_AN_ARCHIVE", tr("entry {raw!r} has a malformed pax size", raw=raw), entry=raw)
            size = int(text)

        kind = _TAR_KINDS.get(typeflag) or tr("tar entry of unknown type {typeflag!r}", typeflag=typeflag)
        if kind == "file" and raw.endswith("/"):
            kind = "dir"  # pre-POSIX tars mark folders by a trailing slash
        if any(key.startswith("GNU.sparse.") for key in pax):
            kind = "GNU sparse file"

        index += 1
        adm.count_entry()
        last = tr("entry {raw!r}", raw=raw)
        member = adm.admit(raw, kind, size if kind == "file" else 0, link_text)
        if kind != "file" and size:
            raise ArchiveRejected(
                "NOT_AN_ARCHIVE",
                tr("folder entry {raw!r} declares {size} bytes of content; the archive is malformed", raw=raw, size=size),
                entry=raw,
            )
        if kind == "file" and member is not None and want(member):
            keep[member.path] = _read_member_data(src, adm, raw, size)
        else:
            src.skip(size, tr("entry {raw!r}", raw=raw))
        src.skip(_pad(size), tr("entry {raw!r}", raw=raw))

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
                    tr(
                        "the compressed stream holds more than {size} of data after the end of "
                        "the tar archive (a second archive, or a decompression bomb); upload one tar archive",
                        size=_size(TAR_TRAILING_MAX),
                    ),
                )


def _read_member_data(src: _Source, adm: _Admission, raw: str, size: int) -> bytes:
    buf = bytearray()
    remaining = size
    while remaining > 0:
        chunk = src.read_exact(min(remaining, CHUNK), tr("entry {raw!r}", raw=raw))
        remaining -= len(chunk)
        buf += chunk
        adm.streamed(raw, len(buf), size, len(chunk))
    return bytes(buf)
