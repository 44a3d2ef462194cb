"""Builders shared by the uploaded-model-archive tests (tests/unit/test_archive*.py): good model configs and
repositories, tar and zip writers (zipfile's and a hand-written one for names and headers zipfile would not write),
a raw ustar header, the default limits and ``rejected`` (read an archive, expect a refusal with a given code)."""

from __future__ import annotations

import io
import json
import stat
import struct
import tarfile
import zipfile
import zlib
from pathlib import Path

import pytest

from server.evaluation.archive import ArchiveLimits, ArchiveRejected, read_model_repository

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
