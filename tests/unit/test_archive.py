"""Uploaded model archives (server/evaluation/archive/).

Every archive is built at runtime in tmp_path; the hostile ones (bombs, 100,000 entries) are
written as streams so the tests themselves stay memory-bounded. Nothing asserts wall-clock time:
"refused early" is checked by counting how many bytes were decompressed or whether the zip
central directory was parsed at all.
"""

from __future__ import annotations

import bz2
import gzip
import io
import itertools
import json
import random
import stat
import struct
import tarfile
import tempfile
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.evaluation import archive as archive_module
from server.evaluation.archive import (
    ArchiveLimits,
    ArchiveRejected,
    ModelRepository,
    check_contract,
    inspect_archive,
    read_model_repository,
    write_model_repository,
)
from server.modelbuild.repository import model_py_template
from server.modelbuild.tasks import get_task
from server.tasks.builtin import BUILTIN_TASKS

ROOT = Path(__file__).resolve().parents[2]
MiB = 1024**2
GiB = 1024**3
LIMITS = ArchiveLimits()
MODEL_PY = b"import json\n\n\nclass TritonPythonModel:\n    def execute(self, requests):\n        return []\n"

SENTIMENT_LABELS = ["negative", "positive", "neutral"]


def classification_config(
    name: str | None = "my_model",
    inputs: tuple[str, ...] = ("statement",),
    labels: list[str] | None = SENTIMENT_LABELS,
    probs_dims: int | None = None,
    backend: str = 'backend: "python"',
    max_batch_size: int = 8,
    extra_outputs: str = "",
    label_param: str | None = None,
    input_type: str = "TYPE_STRING",
) -> str:
    labels = labels or []
    probs_dims = len(labels) if probs_dims is None else probs_dims
    input_block = ",\n".join(f'  {{ name: "{n}" data_type: {input_type} dims: [ 1 ] }}' for n in inputs)
    label_json = json.dumps(labels) if label_param is None else label_param
    name_line = f'name: "{name}"\n' if name else ""
    return (
        f"{name_line}{backend}\nmax_batch_size: {max_batch_size}\n"
        f"input [\n{input_block}\n]\n"
        "output [\n"
        '  { name: "label" data_type: TYPE_STRING dims: [ 1 ] },\n'
        f'  {{ name: "probs" data_type: TYPE_FP32 dims: [ {probs_dims} ] }}{extra_outputs}\n'
        "]\n"
        'parameters { key: "task" value: { string_value: "sentiment" } }\n'
        f'parameters {{ key: "labels" value: {{ string_value: {json.dumps(label_json)} }} }}\n'
    )


def qa_config(name: str = "my_qa", outputs: list[tuple[str, str]] | None = None) -> str:
    outputs = outputs or [
        ("answer", "TYPE_STRING"),
        ("start", "TYPE_INT32"),
        ("end", "TYPE_INT32"),
        ("confidence", "TYPE_FP32"),
    ]
    output_block = ",\n".join(f'  {{ name: "{n}" data_type: {t} dims: [ 1 ] }}' for n, t in outputs)
    return (
        f'name: "{name}"\nbackend: "python"\nmax_batch_size: 4\n'
        "input [\n"
        '  { name: "context" data_type: TYPE_STRING dims: [ 1 ] },\n'
        '  { name: "question" data_type: TYPE_STRING dims: [ 1 ] }\n'
        "]\n"
        f"output [\n{output_block}\n]\n"
        'parameters { key: "labels" value: { string_value: "[]" } }\n'
    )


def model_entries(name: str = "my_model", config: str | None = None, nested: bool = True) -> dict[str, bytes | None]:
    """A good model repository: {path: bytes} (None = folder entry)."""
    config = classification_config(name) if config is None else config
    prefix = f"{name}/" if nested else ""
    entries: dict[str, bytes | None] = {}
    if nested:
        entries[f"{name}/"] = None
    entries[f"{prefix}config.pbtxt"] = config.encode()
    entries[f"{prefix}1/"] = None
    entries[f"{prefix}1/model.py"] = MODEL_PY
    entries[f"{prefix}1/weights/head.json"] = b'{"labels": ["negative", "positive", "neutral"]}'
    return entries


def write_tar(path: Path, entries: dict[str, bytes | None], compression: str = "gz", fmt: int = tarfile.PAX_FORMAT) -> Path:
    mode = {"gz": "w:gz", "": "w"}[compression]
    with tarfile.open(path, mode, format=fmt) as tar:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            else:
                info.size = len(data)
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(data))
    return path


def write_zip(path: Path, entries: dict[str, bytes | None]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            if data is None:
                zf.writestr(name if name.endswith("/") else name + "/", b"")
            else:
                zf.writestr(name, data)
    return path


def write_raw_zip(path: Path, entries, eocd_count: int | None = None) -> Path:
    """A zip written by hand, for names and headers zipfile would not write.

    entries: iterable of dicts with name (bytes), and optionally chunks (iterable of bytes),
    crc, csize, size, method (0 store / 8 deflate / 12 bzip2), flags, attr (external attributes).
    """
    central = []
    with open(path, "wb") as f:
        for entry in entries:
            name = entry["name"]
            method = entry.get("method", 0)
            flags = entry.get("flags", 0)
            crc, csize, size = entry.get("crc", 0), entry.get("csize", 0), entry.get("size", 0)
            offset = f.tell()
            f.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc, csize, size, len(name), 0))
            f.write(name)
            for chunk in entry.get("chunks", ()):
                f.write(chunk)
            central.append(
                struct.pack(
                    "<4s6H3L5H2L",
                    b"PK\x01\x02",
                    0x031E,
                    20,
                    flags,
                    method,
                    0,
                    0x21,
                    crc,
                    csize,
                    size,
                    len(name),
                    0,
                    0,
                    0,
                    0,
                    entry.get("attr", (stat.S_IFREG | 0o644) << 16),
                    offset,
                )
                + name
            )
        cd_offset = f.tell()
        cd = b"".join(central)
        f.write(cd)
        count = len(central) if eocd_count is None else eocd_count
        if count > 0xFFFF:
            z64_offset = f.tell()
            f.write(struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(cd), cd_offset))
            f.write(struct.pack("<4sLQL", b"PK\x06\x07", 0, z64_offset, 1))
            f.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, len(cd), cd_offset, 0))
        else:
            f.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(cd), cd_offset, 0))
    return path


def stored(name: str | bytes, data: bytes, **extra) -> dict:
    name = name.encode() if isinstance(name, str) else name
    return {"name": name, "chunks": [data], "crc": zlib.crc32(data), "csize": len(data), "size": len(data), **extra}


def good_raw_entries(name: str = "my_model") -> list[dict]:
    return [stored(path, data) for path, data in model_entries(name).items() if data is not None]


def ustar_header(name: bytes, size: int = 0, typeflag: bytes = b"0", linkname: bytes = b"") -> bytes:
    header = bytearray(512)
    header[0 : len(name)] = name
    header[100:108] = b"0000644\x00"
    header[108:116] = b"0000000\x00"
    header[116:124] = b"0000000\x00"
    header[124:136] = b"%011o\x00" % size
    header[136:148] = b"00000000000\x00"
    header[148:156] = b" " * 8
    header[156:157] = typeflag
    header[157 : 157 + len(linkname)] = linkname
    header[257:265] = b"ustar\x0000"
    header[148:156] = b"%06o\x00 " % sum(header)
    return bytes(header)


def rejected(path: Path, code: str, limits: ArchiveLimits = LIMITS, **kwargs) -> ArchiveRejected:
    with pytest.raises(ArchiveRejected) as info:
        read_model_repository(path, limits, **kwargs)
    assert info.value.code == code, info.value.message
    assert info.value.message
    return info.value


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


# ---------------------------------------------------------------------------------------------
# Good archives
# ---------------------------------------------------------------------------------------------


def assert_good(repo: ModelRepository, name: str = "my_model") -> None:
    assert repo.name == name
    assert repo.backend == "python"
    assert repo.versions == [1]
    assert repo.files == {"1/model.py": MODEL_PY, "1/weights/head.json": model_entries()["my_model/1/weights/head.json"]}
    assert repo.config["name"] == name
    assert repo.config["max_batch_size"] == 8
    assert repo.config["output"][1]["data_type"] == "TYPE_FP32"
    assert repo.config_text.startswith(f'name: "{name}"')
    assert repo.triton_files() == {"file:1/model.py": MODEL_PY, "file:1/weights/head.json": repo.files["1/weights/head.json"]}
    assert json.loads(repo.triton_config_json())["name"] == name


@pytest.mark.parametrize("nested", [True, False], ids=["nested", "top-level"])
@pytest.mark.parametrize("kind", ["tar.gz", "tar", "zip"])
def test_good_archives_both_layouts(tmp_path, kind, nested):
    entries = model_entries(nested=nested)
    path = tmp_path / f"upload.{kind}"
    if kind == "zip":
        write_zip(path, entries)
    else:
        write_tar(path, entries, compression="gz" if kind == "tar.gz" else "")
    repo = read_model_repository(path, LIMITS)
    assert_good(repo)
    check_contract(repo, "classification", ["statement"], SENTIMENT_LABELS)


@pytest.mark.parametrize("fmt", [tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT], ids=["ustar", "gnu", "pax"])
def test_long_names_in_every_tar_format(tmp_path, fmt):
    """Names over 100 characters use the ustar prefix, a GNU long-name record or a pax record."""
    entries = model_entries()
    deep = "my_model/1/" + "/".join(["d" * 20] * 6) + "/vocab.txt"  # 143 characters, 9 levels
    entries[deep] = b"vocab"
    repo = read_model_repository(write_tar(tmp_path / "m.tgz", entries, fmt=fmt), LIMITS)
    assert repo.files[deep.removeprefix("my_model/")] == b"vocab"


def test_format_is_detected_by_content_not_name(tmp_path):
    zip_named_tgz = write_zip(tmp_path / "model.tar.gz", model_entries())
    tgz_named_zip = write_tar(tmp_path / "model.zip", model_entries())
    no_extension = write_tar(tmp_path / "upload", model_entries(), compression="")
    for path in (zip_named_tgz, tgz_named_zip, no_extension):
        assert_good(read_model_repository(path, LIMITS))


def test_os_junk_and_dot_prefix_are_dropped(tmp_path):
    entries = {"./": None, **{f"./{k}": v for k, v in model_entries().items()}}
    entries["./.DS_Store"] = b"\x00\x00\x00\x01Bud1"
    entries["./my_model/._config.pbtxt"] = b"\x00\x05\x16\x07"
    entries["./my_model/1/.DS_Store"] = b"junk"
    tar_path = write_tar(tmp_path / "mac.tgz", entries)
    assert_good(read_model_repository(tar_path, LIMITS))

    zip_entries = dict(model_entries())
    zip_entries["__MACOSX/"] = None
    zip_entries["__MACOSX/my_model/._config.pbtxt"] = b"\x00\x05\x16\x07"
    zip_entries["my_model/.DS_Store"] = b"junk"
    zip_path = write_zip(tmp_path / "mac.zip", zip_entries)
    assert_good(read_model_repository(zip_path, LIMITS))

    members = inspect_archive(zip_path, LIMITS)
    assert {m.path for m in members if m.ignored} == {"__MACOSX", "__MACOSX/my_model/._config.pbtxt", "my_model/.DS_Store"}
    config = next(m for m in members if m.path == "my_model/config.pbtxt")
    assert not config.is_dir and not config.ignored and config.size > 0


def test_inspect_lists_entries_without_the_root(tmp_path):
    entries = {"./": None, **{f"./{k}": v for k, v in model_entries().items()}}
    members = inspect_archive(write_tar(tmp_path / "m.tgz", entries), LIMITS)
    assert [m.path for m in members] == [
        "my_model",
        "my_model/config.pbtxt",
        "my_model/1",
        "my_model/1/model.py",
        "my_model/1/weights/head.json",
    ]
    assert members[3].size == len(MODEL_PY) and members[3].raw_name == "./my_model/1/model.py"


@pytest.mark.parametrize("spec", BUILTIN_TASKS, ids=lambda s: s["code"])
def test_builtin_templates_pass_their_own_contract(tmp_path, spec):
    """The shipped templates (triton_models/) are valid uploads for their tasks."""
    name = spec["target"]
    entries = {f"{name}/config.pbtxt": (ROOT / "triton_models" / name / "config.pbtxt").read_bytes()}
    entries[f"{name}/1/model.py"] = model_py_template(get_task(spec["code"])).read_bytes()
    repo = read_model_repository(write_tar(tmp_path / "m.tgz", entries), LIMITS)
    config = spec["config"]
    check_contract(repo, config["kind"], config["model_inputs"], config.get("labels"))


def test_label_file_next_to_config_and_several_versions(tmp_path):
    config = classification_config().replace(
        'name: "probs" data_type: TYPE_FP32 dims: [ 3 ] }',
        'name: "probs" data_type: TYPE_FP32 dims: [ 3 ] label_filename: "labels.txt" }',
    )
    entries = model_entries(config=config)
    entries["my_model/labels.txt"] = b"negative\npositive\nneutral\n"
    entries["my_model/2/model.py"] = MODEL_PY
    repo = read_model_repository(write_zip(tmp_path / "m.zip", entries), LIMITS)
    assert repo.versions == [1, 2]
    assert repo.files["labels.txt"].startswith(b"negative")

    del entries["my_model/labels.txt"]
    error = rejected(write_zip(tmp_path / "n.zip", entries), "LAYOUT")
    assert "labels.txt" in error.message


def test_write_model_repository(tmp_path):
    repo = read_model_repository(write_tar(tmp_path / "m.tgz", model_entries()), LIMITS)
    destination = tmp_path / "repository"
    target = write_model_repository(repo, destination)
    assert target == destination / "my_model"
    assert (target / "config.pbtxt").read_text() == repo.config_text
    assert (target / "1" / "model.py").read_bytes() == MODEL_PY
    assert stat.S_IMODE((target / "1" / "model.py").stat().st_mode) == 0o644
    assert stat.S_IMODE((target / "1").stat().st_mode) == 0o755
    assert sorted(p.name for p in destination.iterdir()) == ["my_model"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".my_model")]  # staging removed
    with pytest.raises(FileExistsError):
        write_model_repository(repo, destination)


# ---------------------------------------------------------------------------------------------
# Hostile entries
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Counts, sizes and bombs
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Corrupt, truncated and foreign files
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Layout and config
# ---------------------------------------------------------------------------------------------


def test_no_config(tmp_path):
    entries = model_entries()
    del entries["my_model/config.pbtxt"]
    rejected(write_zip(tmp_path / "m.zip", entries), "NO_CONFIG")
    deeper = {f"models/{k}": v for k, v in model_entries().items()}
    error = rejected(write_tar(tmp_path / "deep.tgz", deeper), "NO_CONFIG")
    assert "models/my_model/config.pbtxt" in error.message
    rejected(write_zip(tmp_path / "junk-only.zip", {"__MACOSX/.DS_Store": b"x"}), "NO_CONFIG")


def test_unparsable_config_reports_line_and_column(tmp_path):
    config = classification_config() + "instance_group [ { count: 1 kind: KIND_GPUU } ]\n"
    error = rejected(write_tar(tmp_path / "m.tgz", model_entries(config=config)), "BAD_CONFIG")
    line = config.count("\n")
    assert f"line {line}, column" in error.message and "KIND_GPUU" in error.message
    error = rejected(write_tar(tmp_path / "n.tgz", model_entries(config="name: my_model\n")), "BAD_CONFIG")
    assert "line 1" in error.message
    latin1 = model_entries()
    latin1["my_model/config.pbtxt"] = classification_config().encode() + b"# caf\xe9\n"
    assert "UTF-8" in rejected(write_tar(tmp_path / "o.tgz", latin1), "BAD_CONFIG").message


def test_config_name_rules(tmp_path):
    mismatch = model_entries(config=classification_config(name="other_name"))
    error = rejected(write_tar(tmp_path / "a.tgz", mismatch), "BAD_CONFIG")
    assert "other_name" in error.message and "my_model" in error.message

    unnamed_nested = model_entries(config=classification_config(name=None))
    assert read_model_repository(write_tar(tmp_path / "b.tgz", unnamed_nested), LIMITS).config["name"] == "my_model"

    unnamed_top = model_entries(config=classification_config(name=None), nested=False)
    assert "name" in rejected(write_tar(tmp_path / "c.tgz", unnamed_top), "BAD_CONFIG").message

    bad_folder = {k.replace("my_model", "my model"): v for k, v in model_entries(config=classification_config(name=None)).items()}
    rejected(write_tar(tmp_path / "d.tgz", bad_folder), "LAYOUT")


@pytest.mark.parametrize(
    ("backend", "asked"),
    [
        ('platform: "onnxruntime_onnx"', "onnxruntime"),
        ('backend: "onnxruntime"', "onnxruntime"),
        ('platform: "tensorrt_plan"', "tensorrt"),
        ('platform: "ensemble"', "ensemble"),
    ],
)
def test_wrong_backend(tmp_path, backend, asked):
    entries = model_entries(config=classification_config(backend=backend))
    path = write_tar(tmp_path / "m.tgz", entries)
    error = rejected(path, "BACKEND")
    assert "runs only the python backend" in error.message and asked in error.message
    if asked == "onnxruntime":
        del entries["my_model/1/model.py"]
        entries["my_model/1/model.onnx"] = b"onnx"
        repo = read_model_repository(write_tar(tmp_path / "n.tgz", entries), LIMITS, supported_backends={"python", "onnxruntime"})
        assert repo.backend == "onnxruntime"


def test_no_backend(tmp_path):
    entries = model_entries(config=classification_config(backend=""))
    assert 'backend: "python"' in rejected(write_tar(tmp_path / "m.tgz", entries), "BACKEND").message


def test_two_models_in_one_archive(tmp_path):
    entries = {**model_entries("first"), **model_entries("second", config=classification_config("second"))}
    error = rejected(write_zip(tmp_path / "two.zip", entries), "LAYOUT")
    assert "2 models" in error.message and "first" in error.message and "second" in error.message
    top_and_nested = {**model_entries(nested=False), **model_entries("second", config=classification_config("second"))}
    error = rejected(write_tar(tmp_path / "two.tgz", top_and_nested), "LAYOUT")
    assert "second/" in error.message and "one model per archive" in error.message


def test_stray_entries(tmp_path):
    top_level_folder = {**model_entries(), "notes/readme.txt": b"hi"}
    error = rejected(write_tar(tmp_path / "a.tgz", top_level_folder), "LAYOUT")
    assert "'notes/'" in error.message

    top_level_file = {**model_entries(), "README.md": b"hi"}
    assert "'README.md'" in rejected(write_zip(tmp_path / "b.zip", top_level_file), "LAYOUT").message

    folder_in_model = {**model_entries(), "my_model/weights/encoder.bin": b"w"}
    error = rejected(write_tar(tmp_path / "c.tgz", folder_in_model), "LAYOUT")
    assert "'my_model/weights/'" in error.message and "1/weights/" in error.message

    file_next_to_config = {**model_entries(nested=False), "README.md": b"hi"}
    assert "README.md" in rejected(write_tar(tmp_path / "d.tgz", file_next_to_config), "LAYOUT").message


@pytest.mark.parametrize("version", ["0", "01", "v1", "latest"])
def test_bad_version_folders(tmp_path, version):
    entries = {k.replace("/1/", f"/{version}/"): v for k, v in model_entries().items()}
    error = rejected(write_tar(tmp_path / "m.tgz", entries), "LAYOUT")
    assert f"my_model/{version}/" in error.message


def test_no_version_folder(tmp_path):
    entries = {"my_model/config.pbtxt": classification_config().encode()}
    assert "my_model/1/" in rejected(write_tar(tmp_path / "m.tgz", entries), "LAYOUT").message


def test_missing_model_py(tmp_path):
    entries = model_entries()
    del entries["my_model/1/model.py"]
    entries["my_model/1/model_py.txt"] = MODEL_PY
    error = rejected(write_tar(tmp_path / "m.tgz", entries), "LAYOUT")
    assert "'my_model/1/' has no model.py" in error.message

    second = model_entries()
    second["my_model/2/weights.bin"] = b"w"
    assert "'my_model/2/'" in rejected(write_zip(tmp_path / "n.zip", second), "LAYOUT").message

    renamed = model_entries(config=classification_config() + 'default_model_filename: "serve.py"\n')
    assert "serve.py" in rejected(write_tar(tmp_path / "o.tgz", renamed), "LAYOUT").message


# ---------------------------------------------------------------------------------------------
# The I/O contract
# ---------------------------------------------------------------------------------------------


def repo_for(tmp_path: Path, config: str, name: str = "my_model") -> ModelRepository:
    return read_model_repository(write_tar(tmp_path / f"{name}.tgz", model_entries(name, config=config)), LIMITS)


def contract_error(repo, kind, inputs, labels) -> ArchiveRejected:
    with pytest.raises(ArchiveRejected) as info:
        check_contract(repo, kind, inputs, labels)
    assert info.value.code == "CONTRACT"
    return info.value


def test_contract_accepts_extra_outputs(tmp_path):
    extra = ',\n  { name: "logits" data_type: TYPE_FP32 dims: [ 3 ] }'
    repo = repo_for(tmp_path, classification_config(extra_outputs=extra))
    check_contract(repo, "classification", ["statement"], SENTIMENT_LABELS)
    nli = repo_for(
        tmp_path,
        classification_config("nli_model", inputs=("hypothesis", "context"), labels=["entailment", "neutral", "contradiction"]),
        "nli_model",
    )
    check_contract(nli, "classification", ["context", "hypothesis"], ["entailment", "neutral", "contradiction"])
    qa = repo_for(tmp_path, qa_config(), "my_qa")
    check_contract(qa, "extractive_qa", ["context", "question"], None)
    check_contract(qa, "qa", ["context", "question"], [])


def test_contract_optional_embedding_output(tmp_path):
    good = ',\n  { name: "embedding" data_type: TYPE_FP32 dims: [ -1 ] }'
    check_contract(
        repo_for(tmp_path, classification_config(extra_outputs=good)), "classification", ["statement"], SENTIMENT_LABELS
    )
    bad = ',\n  { name: "embedding" data_type: TYPE_STRING dims: [ 4, 4 ] }'
    (tmp_path / "bad").mkdir()
    error = contract_error(
        repo_for(tmp_path / "bad", classification_config(extra_outputs=bad)),
        "classification",
        ["statement"],
        SENTIMENT_LABELS,
    )
    assert "output 'embedding' (optional" in error.message and "expected TYPE_FP32 dims [-1] or [D]" in error.message


def test_contract_wrong_input_name(tmp_path):
    repo = repo_for(tmp_path, classification_config(inputs=("text",)))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "input 'statement' is missing" in error.message and "input 'text'" in error.message
    assert len(error.details) == 2


def test_contract_wrong_input_type(tmp_path):
    repo = repo_for(tmp_path, classification_config(input_type="TYPE_FP32"))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "input 'statement' is TYPE_FP32, expected TYPE_STRING" in error.message


def test_contract_probs_with_wrong_dims(tmp_path):
    repo = repo_for(tmp_path, classification_config(probs_dims=2, label_param=json.dumps(SENTIMENT_LABELS)))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "output 'probs' has dims [2], expected [3]" in error.message
    assert "negative, positive, neutral" in error.message


def test_contract_qa_missing_start(tmp_path):
    outputs = [("answer", "TYPE_STRING"), ("end", "TYPE_INT32"), ("confidence", "TYPE_FP32")]
    repo = repo_for(tmp_path, qa_config(outputs=outputs), "my_qa")
    error = contract_error(repo, "extractive_qa", ["context", "question"], None)
    assert error.details == ["output 'start' is missing: expected start TYPE_INT32 dims [1]"]

    int64 = [("answer", "TYPE_STRING"), ("start", "TYPE_INT64"), ("end", "TYPE_INT32"), ("confidence", "TYPE_FP32")]
    repo = repo_for(tmp_path, qa_config("qa_two", outputs=int64), "qa_two")
    error = contract_error(repo, "extractive_qa", ["context", "question"], None)
    assert "output 'start' is TYPE_INT64, expected TYPE_INT32" in error.message


def test_contract_labels_parameter_in_wrong_order(tmp_path):
    wrong_order = json.dumps(["positive", "negative", "neutral"])
    repo = repo_for(tmp_path, classification_config(label_param=wrong_order))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert "parameter 'labels'" in error.message and "in that order" in error.message

    not_json = repo_for(tmp_path, classification_config("other", label_param="negative,positive,neutral"), "other")
    assert "JSON list" in contract_error(not_json, "classification", ["statement"], SENTIMENT_LABELS).message


def test_contract_unbatched_model_and_several_problems(tmp_path):
    repo = repo_for(tmp_path, classification_config(max_batch_size=0, probs_dims=5, inputs=("statement", "extra")))
    error = contract_error(repo, "classification", ["statement"], SENTIMENT_LABELS)
    assert len(error.details) == 3
    assert "max_batch_size" in error.details[0]
    assert "(1)" in error.message and "(3)" in error.message


def test_contract_bad_task_kind(tmp_path):
    repo = repo_for(tmp_path, classification_config())
    with pytest.raises(ValueError):
        check_contract(repo, "translation", ["statement"], None)
    with pytest.raises(ValueError):
        check_contract(repo, "classification", ["statement"], None)
