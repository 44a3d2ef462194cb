"""Uploaded model archives: hostile entries (unsafe paths, NUL bytes, links, devices, duplicates, sparse files).

Every archive is built at runtime in tmp_path with the builders in tests/unit/archive_builders.py.
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile

import pytest

from server.evaluation.archive import ArchiveRejected, inspect_archive
from tests.unit.archive_builders import (
    LIMITS,
    MODEL_PY,
    GiB,
    classification_config,
    good_raw_entries,
    model_entries,
    rejected,
    stored,
    ustar_header,
    write_raw_zip,
    write_tar,
)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("../evil.py", "PATH_ESCAPE"),
        ("my_model/1/../../../evil.py", "PATH_ESCAPE"),
        ("/etc/cron.d/evil", "ABSOLUTE_PATH"),
        ("C:/Windows/evil.dll", "ABSOLUTE_PATH"),
        ("..\\evil.py", "BAD_PATH"),
        ("my_model\\1\\model.py", "BAD_PATH"),
        ("my_model/1/evil\n.py", "BAD_PATH"),
        ("my_model/1/" + "x" * 300, "PATH_TOO_LONG"),
        ("my_model/1/" + "a/" * 12 + "deep.py", "PATH_TOO_DEEP"),
    ],
)
@pytest.mark.parametrize("kind", ["tar.gz", "zip"])
def test_hostile_paths(tmp_path, name, code, kind):
    entries = model_entries()
    entries[name] = b"#!/bin/sh\nrm -rf /\n"
    if kind == "zip":
        path = write_raw_zip(tmp_path / "evil.zip", [*good_raw_entries(), stored(name, b"x")])
    else:
        path = write_tar(tmp_path / "evil.tgz", entries)
    error = rejected(path, code)
    assert error.entry == name
    assert repr(name[:40])[1:-1] in error.message or name[:40] in error.message
    with pytest.raises(ArchiveRejected):  # listing refuses as well
        inspect_archive(path, LIMITS)


def test_zip_name_with_nul_byte(tmp_path):
    """zipfile silently truncates names at NUL; the raw name is checked."""
    path = write_raw_zip(tmp_path / "nul.zip", [*good_raw_entries(), stored(b"my_model/1/model.py\x00.txt", b"x")])
    error = rejected(path, "BAD_PATH")
    assert "NUL" in error.message


def test_tar_pax_path_with_nul_byte(tmp_path):
    record = b"path=my_model/1/a\x00b.py\n"
    length = len(record) + 3
    pax = b"%d " % length + record
    assert len(pax) == length
    stream = io.BytesIO()
    with tarfile.open(fileobj=stream, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in model_entries().items():
            if data is not None:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    body = stream.getvalue().rstrip(b"\x00")
    body += b"\x00" * (-len(body) % 512)
    hostile = ustar_header(b"PaxHeader", len(pax), b"x") + pax + b"\x00" * (-len(pax) % 512)
    hostile += ustar_header(b"placeholder", 1) + b"x" + b"\x00" * 511
    path = tmp_path / "nul.tar"
    path.write_bytes(body + hostile + b"\x00" * 1024)
    assert rejected(path, "BAD_PATH").entry == "my_model/1/a\x00b.py"


def test_tar_name_that_is_not_utf8(tmp_path):
    config = classification_config().encode()
    data = ustar_header(b"my_model/config.pbtxt", len(config)) + config + b"\x00" * (-len(config) % 512)
    data += ustar_header(b"my_model/1/caf\xe9.py", 0) + b"\x00" * 1024
    path = tmp_path / "latin1.tar"
    path.write_bytes(data)
    assert "UTF-8" in rejected(path, "BAD_PATH").message


def special(name: str, kind: bytes, linkname: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3
    return info


@pytest.mark.parametrize(
    ("info", "code", "words"),
    [
        (special("my_model/1/weights.bin", tarfile.SYMTYPE, "/etc/shadow"), "LINK", "symlink"),
        (special("my_model/1/weights.bin", tarfile.LNKTYPE, "my_model/1/model.py"), "LINK", "hardlink"),
        (special("my_model/1/null", tarfile.CHRTYPE), "DEVICE", "character device"),
        (special("my_model/1/disk", tarfile.BLKTYPE), "DEVICE", "block device"),
        (special("my_model/1/pipe", tarfile.FIFOTYPE), "DEVICE", "fifo"),
    ],
    ids=["symlink", "hardlink", "char-device", "block-device", "fifo"],
)
def test_tar_links_and_devices(tmp_path, info, code, words):
    path = tmp_path / "special.tgz"
    with tarfile.open(path, "w:gz") as tar:
        for name, data in model_entries().items():
            entry = tarfile.TarInfo(name)
            if data is None:
                entry.type = tarfile.DIRTYPE
                tar.addfile(entry)
            else:
                entry.size = len(data)
                tar.addfile(entry, io.BytesIO(data))
        tar.addfile(info)
    error = rejected(path, code)
    assert words in error.message and info.name in error.message


@pytest.mark.parametrize(
    ("mode", "code"),
    [(stat.S_IFLNK | 0o777, "LINK"), (stat.S_IFCHR | 0o644, "DEVICE"), (stat.S_IFIFO | 0o644, "DEVICE")],
    ids=["symlink", "char-device", "fifo"],
)
def test_zip_links_and_devices(tmp_path, mode, code):
    path = write_raw_zip(
        tmp_path / "special.zip", [*good_raw_entries(), stored("my_model/1/w.bin", b"/etc/passwd", attr=mode << 16)]
    )
    assert rejected(path, code).entry == "my_model/1/w.bin"


def test_zip_unsupported_entries(tmp_path):
    encrypted = write_raw_zip(tmp_path / "enc.zip", [*good_raw_entries(), stored("my_model/1/secret.bin", b"x", flags=1)])
    assert "encrypted" in rejected(encrypted, "UNSUPPORTED_ENTRY").message

    path = tmp_path / "bz.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as zf:
        for name, data in model_entries().items():
            if data is not None:
                zf.writestr(name, data)
    assert "deflate" in rejected(path, "UNSUPPORTED_ENTRY").message


def test_duplicates_and_file_folder_conflicts(tmp_path):
    twice = [*good_raw_entries(), stored("my_model/1/model.py", b"print('second copy')")]
    assert rejected(write_raw_zip(tmp_path / "dup.zip", twice), "DUPLICATE_PATH").entry == "my_model/1/model.py"

    path = tmp_path / "conflict.tgz"
    with tarfile.open(path, "w:gz") as tar:
        for name, data in [
            ("my_model/config.pbtxt", classification_config().encode()),
            ("my_model/1", b"file"),
            ("my_model/1/model.py", MODEL_PY),
        ]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    assert "both a file and a folder" in rejected(path, "DUPLICATE_PATH").message


def test_tar_sparse_entries_are_refused(tmp_path):
    entries = model_entries()
    path = tmp_path / "sparse.tar"
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in entries.items():
            if data is not None:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        info = tarfile.TarInfo("my_model/1/big.bin")
        info.pax_headers = {"GNU.sparse.major": "1", "GNU.sparse.minor": "0", "GNU.sparse.realsize": str(GiB)}
        tar.addfile(info)
    assert "sparse" in rejected(path, "UNSUPPORTED_ENTRY").message
