"""Uploaded model archives: entry counts, declared sizes and decompression bombs, refused early.

Every archive is built at runtime in tmp_path (builders in tests/unit/archive_builders.py); the hostile ones (bombs,
100,000 entries) are written as streams so the tests themselves stay memory-bounded. Nothing asserts wall-clock time:
"refused early" is checked by counting how many bytes were decompressed or whether the zip central directory was
parsed at all.
"""

from __future__ import annotations

import gzip
import itertools
import tarfile
import zipfile
import zlib
from pathlib import Path

import pytest

from server.evaluation import archive as archive_module
from server.evaluation.archive import ArchiveLimits
from tests.unit.archive_builders import (
    GiB,
    MiB,
    classification_config,
    good_raw_entries,
    model_entries,
    rejected,
    ustar_header,
    write_raw_zip,
    write_tar,
    write_zip,
)


@pytest.fixture
def gzip_counter(monkeypatch):
    """Counts the bytes gzip decompresses (read through GzipFile.read)."""
    counter = {"bytes": 0}
    original = gzip.GzipFile.read

    def counting_read(self, size=-1):
        data = original(self, size)
        counter["bytes"] += len(data)
        return data

    monkeypatch.setattr(gzip.GzipFile, "read", counting_read)
    return counter


@pytest.fixture
def zip_counter(monkeypatch):
    """Counts the bytes zipfile decompresses and whether a central directory was parsed."""
    counter = {"bytes": 0, "directories_parsed": 0}
    original_read = zipfile.ZipExtFile.read
    original_contents = zipfile.ZipFile._RealGetContents

    def counting_read(self, n=-1):
        data = original_read(self, n)
        counter["bytes"] += len(data)
        return data

    def counting_contents(self):
        counter["directories_parsed"] += 1
        return original_contents(self)

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting_read)
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", counting_contents)
    return counter


def many_empty_files_tar(path: Path, count: int) -> int:
    """A tar.gz of ``count`` empty files, written as a stream; returns the uncompressed size."""
    template = ustar_header(b"")
    base = sum(template[:148]) + sum(template[156:]) + 8 * 32
    head, middle = template[100:148], template[156:512]
    written = 0
    with gzip.open(path, "wb", compresslevel=1) as out:
        batch = []
        for i in range(count):
            name = b"m/1/f%06d" % i
            checksum = b"%06o\x00 " % (base + sum(name))
            batch.append(name.ljust(100, b"\x00") + head + checksum + middle)
            if len(batch) == 4096:
                out.write(b"".join(batch))
                written += 512 * len(batch)
                batch = []
        out.write(b"".join(batch) + b"\x00" * 1024)
        written += 512 * len(batch) + 1024
    return written


def test_many_files_tar_is_refused_while_iterating(tmp_path, gzip_counter):
    path = tmp_path / "many.tgz"
    total = many_empty_files_tar(path, 100_000)
    with tarfile.open(path) as check:  # a genuine archive
        assert check.next().name == "m/1/f000000"
    gzip_counter["bytes"] = 0
    error = rejected(path, "TOO_MANY_FILES", ArchiveLimits(max_files=1000))
    assert "1000" in error.message
    # Refused after ~1001 headers, not after reading the 51 MB stream.
    assert gzip_counter["bytes"] < 1001 * 512 + 2 * MiB < total // 10


def many_files_zip_entries(count: int):
    for i in range(count):
        yield {"name": b"m/1/f%06d" % i, "crc": 0, "csize": 0, "size": 0}


def test_many_files_zip_is_refused_from_its_end_record(tmp_path, zip_counter):
    path = write_raw_zip(tmp_path / "many.zip", many_files_zip_entries(100_000))
    assert len(zipfile.ZipFile(path).infolist()) == 100_000  # genuine (zip64 end record)
    zip_counter["directories_parsed"] = 0
    error = rejected(path, "TOO_MANY_FILES", ArchiveLimits(max_files=1000))
    assert "100000" in error.message
    assert zip_counter["directories_parsed"] == 0  # refused before parsing the central directory


def test_many_files_zip_with_lying_end_record(tmp_path, zip_counter):
    path = write_raw_zip(tmp_path / "liar.zip", many_files_zip_entries(100_000), eocd_count=5)
    error = rejected(path, "TOO_MANY_FILES", ArchiveLimits(max_files=1000))
    assert "central directory" in error.message
    assert zip_counter["directories_parsed"] == 0


def test_declared_sizes_over_the_limits(tmp_path):
    entries = model_entries()
    entries["my_model/1/weights.bin"] = b"\x01" * 5000
    for kind in ("tgz", "zip"):
        path = tmp_path / f"big.{kind}"
        write_zip(path, entries) if kind == "zip" else write_tar(path, entries)
        error = rejected(path, "TOO_LARGE", ArchiveLimits(max_file_bytes=4096))
        assert error.entry == "my_model/1/weights.bin" and "per file" in error.message
        error = rejected(path, "TOO_LARGE", ArchiveLimits(max_total_bytes=5500))
        assert "5.4 KiB" in error.message or "limit" in error.message


@pytest.fixture(scope="module")
def zero_deflate():
    """Raw deflate data for 1 MiB of zeros that can be concatenated (full flush), and the CRC of 1 GiB of zeros."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = compressor.compress(bytes(MiB)) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    zeros = bytes(MiB)
    for _ in range(1024):
        crc = zlib.crc32(zeros, crc)
    return chunk, crc


def zip_bomb(path: Path, zero_deflate, declared_size: int = GiB) -> Path:
    """model files + a 1 GiB file of zeros, deflated to ~1 MB, written chunk by chunk."""
    chunk, crc = zero_deflate
    bomb = {
        "name": b"my_model/1/weights.bin",
        "method": 8,
        "chunks": itertools.chain(itertools.repeat(chunk, 1024), [b"\x03\x00"]),  # + final empty block
        "crc": crc,
        "csize": len(chunk) * 1024 + 2,
        "size": declared_size,
    }
    return write_raw_zip(path, [*good_raw_entries(), bomb])


def test_zip_bomb_is_refused_without_decompressing_it(tmp_path, zero_deflate, zip_counter):
    path = zip_bomb(tmp_path / "bomb.zip", zero_deflate)
    assert path.stat().st_size < 2 * MiB
    with zipfile.ZipFile(path) as zf:  # a genuine, valid 1 GiB member
        with zf.open("my_model/1/weights.bin") as member:
            assert member.read(MiB) == bytes(MiB)
    zip_counter["bytes"] = 0
    error = rejected(path, "BOMB")
    assert error.entry == "my_model/1/weights.bin" and "decompression bomb" in error.message
    assert zip_counter["bytes"] == 0
    # With a generous ratio, the 1 GiB file is still over a 64 MiB total cap.
    rejected(path, "TOO_LARGE", ArchiveLimits(max_total_bytes=64 * MiB, max_compression_ratio=1e9))
    assert zip_counter["bytes"] == 0


def test_zip_bomb_with_lying_sizes_streams_only_up_to_the_declared_size(tmp_path, zero_deflate, zip_counter):
    """The headers claim 1 MiB; the data inflates to 1 GiB. Reading stops at the claim, then the CRC fails."""
    path = zip_bomb(tmp_path / "liar.zip", zero_deflate, declared_size=MiB)
    error = rejected(path, "NOT_AN_ARCHIVE")
    assert "CRC" in error.message
    assert zip_counter["bytes"] <= MiB


def gzip_member(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def test_gzip_bomb_tar_is_refused_from_its_header(tmp_path, gzip_counter):
    """A tar.gz whose member is 1 GiB of zeros (~1 MB compressed, multi-member gzip)."""
    zeros = gzip_member(bytes(MiB))
    path = tmp_path / "bomb.tgz"
    config = classification_config().encode()
    with open(path, "wb") as out:
        out.write(gzip_member(ustar_header(b"my_model/config.pbtxt", len(config)) + config + b"\x00" * (-len(config) % 512)))
        out.write(gzip_member(ustar_header(b"my_model/1/weights.bin", GiB)))
        for _ in range(1024):
            out.write(zeros)
        out.write(gzip_member(b"\x00" * 1024))
    assert path.stat().st_size < 2 * MiB
    with gzip.open(path) as stream, tarfile.open(fileobj=stream, mode="r|") as check:  # a genuine archive
        assert [check.next().size, check.next().size] == [len(config), GiB]
    gzip_counter["bytes"] = 0
    error = rejected(path, "BOMB")
    assert error.entry == "my_model/1/weights.bin"
    assert gzip_counter["bytes"] <= 2048
    rejected(path, "TOO_LARGE", ArchiveLimits(max_total_bytes=64 * MiB, max_compression_ratio=1e9))


def test_gzip_bomb_hidden_after_the_tar_end_marker(tmp_path, gzip_counter):
    """A valid small tar, then 1 GiB of zeros inside the same gzip stream: streaming stops at the cap."""
    small_tar = write_tar(tmp_path / "small.tar", model_entries(), compression="").read_bytes()
    zeros = gzip_member(bytes(MiB))
    path = tmp_path / "trailing.tgz"
    with open(path, "wb") as out:
        out.write(gzip_member(small_tar))
        for _ in range(1024):
            out.write(zeros)
    gzip_counter["bytes"] = 0
    error = rejected(path, "BOMB")
    assert "after the end of the tar archive" in error.message
    assert gzip_counter["bytes"] <= len(small_tar) + archive_module.TAR_TRAILING_MAX + 128 * 1024
