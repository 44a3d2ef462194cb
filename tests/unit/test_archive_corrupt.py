"""Uploaded model archives: corrupt, truncated and foreign files, and mutated archives that never raise anything else.

Every archive is built at runtime in tmp_path with the builders in tests/unit/archive_builders.py.
"""

from __future__ import annotations

import bz2
import gzip
import random
import tarfile
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.evaluation import archive as archive_module
from server.evaluation.archive import ArchiveLimits, ArchiveRejected, read_model_repository
from tests.unit.archive_builders import (
    MODEL_PY,
    MiB,
    good_raw_entries,
    model_entries,
    rejected,
    write_raw_zip,
    write_tar,
    write_zip,
)


def test_truncated_and_corrupt_gzip(tmp_path):
    data = write_tar(tmp_path / "good.tgz", model_entries()).read_bytes()
    (tmp_path / "half.tgz").write_bytes(data[: len(data) // 2])
    assert "truncated" in rejected(tmp_path / "half.tgz", "NOT_AN_ARCHIVE").message
    (tmp_path / "no-trailer.tgz").write_bytes(data[:-6])
    rejected(tmp_path / "no-trailer.tgz", "NOT_AN_ARCHIVE")
    bad_crc = bytearray(data)
    bad_crc[-8] ^= 0xFF  # gzip trailer: CRC32
    (tmp_path / "bad-crc.tgz").write_bytes(bytes(bad_crc))
    assert "CRC" in rejected(tmp_path / "bad-crc.tgz", "NOT_AN_ARCHIVE").message


def test_truncated_plain_tar(tmp_path):
    data = write_tar(tmp_path / "good.tar", model_entries(), compression="").read_bytes()
    end = data.rstrip(b"\x00")
    cut_in_data = tmp_path / "cut.tar"
    cut_in_data.write_bytes(end[:-10])
    assert "truncated" in rejected(cut_in_data, "NOT_AN_ARCHIVE").message
    no_end_marker = tmp_path / "no-end.tar"
    no_end_marker.write_bytes(end + b"\x00" * (-len(end) % 512))
    assert "end-of-archive" in rejected(no_end_marker, "NOT_AN_ARCHIVE").message


def test_corrupt_tar_header(tmp_path):
    data = bytearray(write_tar(tmp_path / "good.tar", model_entries(), compression="", fmt=tarfile.USTAR_FORMAT).read_bytes())
    data[data.index(b"my_model/1/model.py\x00") + 101] ^= 0x01  # the mode field of a later header
    (tmp_path / "bad.tar").write_bytes(bytes(data))
    rejected(tmp_path / "bad.tar", "NOT_AN_ARCHIVE")


def test_corrupt_zip(tmp_path):
    entries = [*good_raw_entries()]
    path = write_raw_zip(tmp_path / "good.zip", entries)
    data = bytearray(path.read_bytes())
    at = data.index(MODEL_PY)
    data[at + 5] ^= 0x01
    (tmp_path / "bad-crc.zip").write_bytes(bytes(data))
    assert "CRC" in rejected(tmp_path / "bad-crc.zip", "NOT_AN_ARCHIVE").message
    (tmp_path / "truncated.zip").write_bytes(bytes(data[: len(data) // 2]))
    assert "truncated" in rejected(tmp_path / "truncated.zip", "NOT_AN_ARCHIVE").message


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"name: 'my_model'\nbackend: 'python'\n", "not an archive"),
        (bz2.compress(b"hello" * 100), "bzip2"),
        (b"\xfd7zXZ\x00\x00" + bytes(100), "xz"),
        (gzip.compress(b"just some text, not a tar archive\n" * 20), "does not contain a tar archive"),
        (random.Random(0).randbytes(4096), "not an archive"),
    ],
    ids=["empty", "text", "bzip2", "xz", "gzip-of-text", "random"],
)
def test_not_an_archive(tmp_path, content, words):
    path = tmp_path / "model.tar.gz"
    path.write_bytes(content)
    error = rejected(path, "NOT_AN_ARCHIVE")
    assert words in error.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["tar.gz", "tar", "zip"]),
    cut=st.one_of(st.none(), st.floats(0, 1)),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(1, 255)), max_size=4),
)
def test_mutated_archives_never_raise_anything_else(kind, cut, flips):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m"
        if kind == "zip":
            write_zip(path, model_entries())
        else:
            write_tar(path, model_entries(), compression="gz" if kind == "tar.gz" else "")
        data = bytearray(path.read_bytes())
        for where, xor in flips:
            data[min(int(where * len(data)), len(data) - 1)] ^= xor
        if cut is not None:
            data = data[: int(cut * len(data))]
        path.write_bytes(bytes(data))
        try:
            read_model_repository(path, ArchiveLimits(max_total_bytes=64 * MiB))
        except ArchiveRejected as error:
            assert error.code in archive_module.CODES and error.message
