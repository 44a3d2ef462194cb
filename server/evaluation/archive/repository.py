"""Reading the uploaded Triton model repository: layout and config.pbtxt checks, giving a :class:`ModelRepository`
(writing a checked one to disk is in :mod:`server.evaluation.archive.write`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from google.protobuf import json_format, text_format

from server.core.i18n import tr, trn
from server.evaluation.archive.limits import CONFIG_MAX, MODEL_NAME, VERSION, ArchiveLimits, ArchiveRejected, _size
from server.evaluation.archive.scan import _scan


@dataclass
class ModelRepository:
    name: str
    config_text: str
    # ModelConfig via json_format.MessageToDict(preserving_proto_field_name=True), as Triton loads it: "name"
    # always set, instance groups without a kind (or none at all) made KIND_CPU (config_text stays as uploaded)
    config: dict
    files: dict[str, bytes]  # paths relative to the model directory ("1/model.py"), config.pbtxt excluded
    versions: list[int]
    backend: str

    @property
    def total_bytes(self) -> int:
        return sum(len(data) for data in self.files.values())

    def triton_files(self) -> dict[str, bytes]:
        """The ``files`` argument of Triton's load API (``load_model(name, config=..., files=...)``)."""
        return {f"file:{path}": data for path, data in self.files.items()}

    def triton_config_json(self) -> str:
        """The ``config`` argument of Triton's load API."""
        return json.dumps(self.config)


# --------------------------------------------------------------------------------------------
# The model repository
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _pb2() -> Any:
    from tritonclient.grpc import model_config_pb2  # ships Triton's model_config.proto (lazy: slow import)

    return model_config_pb2


PLATFORM_BACKENDS = {
    "onnxruntime_onnx": "onnxruntime",
    "pytorch_libtorch": "pytorch",
    "tensorflow_graphdef": "tensorflow",
    "tensorflow_savedmodel": "tensorflow",
    "tensorrt_plan": "tensorrt",
    "ensemble": "ensemble",
}


def _parse_config(data: bytes, where: str) -> tuple[str, Any]:
    if len(data) > CONFIG_MAX:
        raise ArchiveRejected(
            "BAD_CONFIG", tr("{where} is {size}; a model config should be a small text file", where=where, size=_size(len(data)))
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ArchiveRejected(
            "BAD_CONFIG", tr("{where} is not UTF-8 text ({error})", where=where, error=str(exc)), entry=where
        ) from None
    message = _pb2().ModelConfig()
    try:
        text_format.Parse(text.removeprefix("\ufeff"), message)
    except text_format.ParseError as exc:
        detail: str = str(exc)
        line, column = exc.GetLine(), exc.GetColumn()
        if line is not None:
            detail = re.sub(r"^\d+:\d+ : ", "", detail)
            detail = tr("line {line}, column {column}: {detail}", line=line, column=column, detail=detail)
        raise ArchiveRejected(
            "BAD_CONFIG", tr("{where} is not a valid Triton model config: {detail}", where=where, detail=detail), entry=where
        ) from None
    except Exception as exc:  # noqa: BLE001 — the text parser has no other documented failure; be safe
        raise ArchiveRejected(
            "BAD_CONFIG", tr("{where} is not a valid Triton model config: {detail}", where=where, detail=str(exc)), entry=where
        ) from None
    return text, message


def read_model_repository(
    path: Path,
    limits: ArchiveLimits,
    supported_backends: Iterable[str] = frozenset({"python"}),
    contents: bool = True,
) -> ModelRepository:
    """Read and validate an uploaded archive holding exactly one Triton model.

    Layouts: ``<name>/config.pbtxt`` + ``<name>/<version>/...``, or the same at the top level
    (then the name comes from config.pbtxt's ``name``). OS junk (``__MACOSX/``, ``.DS_Store``,
    ``._*``) is dropped silently. Does not check the task's I/O contract: see :func:`check_contract`.
    ``contents=False``: the same checks, but only config.pbtxt is kept in memory (``files`` maps each path to b""), for a
    question about the layout (does the newest version hold a train.py?) asked of a stored archive of up to gigabytes.
    """
    supported = set(supported_backends)

    def wanted(member) -> bool:
        return not member.ignored and not member.is_dir and (contents or member.path.rsplit("/", 1)[-1] == "config.pbtxt")

    members, data = _scan(path, limits, want=wanted)
    real = [m for m in members if not m.ignored]
    if not real:
        raise ArchiveRejected("NO_CONFIG", tr("the archive holds no files (apart from OS metadata); expected config.pbtxt"))
    files = {m.path for m in real if not m.is_dir}
    top = sorted({m.path.split("/", 1)[0] for m in real})

    # 1. Where is the model directory?
    dir_name: str | None
    if "config.pbtxt" in files:
        dir_name, prefix = None, ""
    else:
        candidates = [t for t in top if f"{t}/config.pbtxt" in files]
        if len(candidates) > 1:
            raise ArchiveRejected(
                "LAYOUT",
                tr(
                    "the archive holds {count} models ({names}); upload one model per archive",
                    count=len(candidates),
                    names=", ".join(candidates),
                ),
            )
        if not candidates:
            deeper = sorted(p for p in files if p.rsplit("/", 1)[-1] == "config.pbtxt")
            if deeper:
                raise ArchiveRejected(
                    "NO_CONFIG",
                    tr(
                        "no config.pbtxt: expected <model_name>/config.pbtxt or config.pbtxt at the top of the archive; "
                        "found {found!r}: archive the model directory itself (e.g. `tar czf model.tar.gz -C {parent} {folder}`)",
                        found=deeper[0],
                        parent=deeper[0].rsplit("/", 2)[0],
                        folder=deeper[0].rsplit("/", 2)[-2],
                    ),
                )
            raise ArchiveRejected(
                "NO_CONFIG",
                tr("no config.pbtxt: expected <model_name>/config.pbtxt or config.pbtxt at the top of the archive"),
            )
        dir_name = candidates[0]
        strays = [t for t in top if t != dir_name]
        if strays:
            folders = {m.path.split("/", 1)[0] for m in real if m.is_dir or "/" in m.path}
            described = ", ".join(f"'{t}/'" if t in folders else f"'{t}'" for t in strays)
            raise ArchiveRejected(
                "LAYOUT",
                tr(
                    "stray entries next to the model folder '{folder}/': {entries}; the archive must hold only "
                    "the one model directory (Triton fails to load a repository with stray folders)",
                    folder=dir_name,
                    entries=described,
                ),
                entry=strays[0],
            )
        prefix = dir_name + "/"
    config_path = prefix + "config.pbtxt"

    # 2. config.pbtxt
    config_text, config = _parse_config(data[config_path], config_path)
    if dir_name is not None:
        if not MODEL_NAME.match(dir_name):
            raise ArchiveRejected(
                "LAYOUT",
                tr(
                    "model folder name {name!r} is not a valid model name: use letters, digits, '_', '-' and '.' "
                    "(at most 128 characters, not starting with '.' or '-')",
                    name=dir_name,
                ),
                entry=dir_name,
            )
        if config.name and config.name != dir_name:
            raise ArchiveRejected(
                "BAD_CONFIG",
                tr(
                    "config.pbtxt says name: \"{name}\" but the model folder is '{folder}/'; Triton requires them to be equal",
                    name=config.name,
                    folder=dir_name,
                ),
                entry=config_path,
            )
        name = dir_name
    else:
        if not config.name:
            raise ArchiveRejected(
                "BAD_CONFIG",
                tr(
                    'config.pbtxt is at the top of the archive, so it must set the model\'s name (name: "my_model"), '
                    "or put the model in a folder named like the model"
                ),
                entry=config_path,
            )
        name = config.name
    if not MODEL_NAME.match(name):
        raise ArchiveRejected(
            "BAD_CONFIG",
            tr(
                "model name {name!r} is not valid: use letters, digits, '_', '-' and '.' (at most 128 characters, "
                "not starting with '.' or '-')",
                name=name,
            ),
            entry=config_path,
        )
    config.name = name

    # 3. The model directory holds config.pbtxt, numbered version folders and label files.
    label_files = {t.label_filename for t in config.output if t.label_filename}
    versions: set[int] = set()
    model_files: dict[str, bytes] = {}
    for member in real:
        rel = member.path[len(prefix) :] if prefix else member.path
        if rel == "":
            continue  # the model folder itself
        first, sep, _rest = rel.partition("/")
        if rel == "config.pbtxt":
            continue
        if sep or member.is_dir:
            if VERSION.match(first):
                versions.add(int(first))
            elif first.isdigit():
                raise ArchiveRejected(
                    "LAYOUT",
                    tr(
                        "version folder '{folder}/' must be a positive integer without leading zeros (1/, 2/, ...)",
                        folder=prefix + first,
                    ),
                    entry=member.raw_name,
                )
            else:
                second_model = f"{prefix}{first}/config.pbtxt" in files
                why = tr(" (it holds a config.pbtxt: upload one model per archive)") if second_model else ""
                raise ArchiveRejected(
                    "LAYOUT",
                    tr(
                        "stray folder '{folder}/' next to config.pbtxt{why}: a Triton model directory holds "
                        "only config.pbtxt and numbered version folders (1/, 2/, ...); move it into a version folder "
                        "(e.g. 1/{name}/) or remove it",
                        folder=prefix + first,
                        why=why,
                        name=first,
                    ),
                    entry=member.raw_name,
                )
        elif first not in label_files:
            raise ArchiveRejected(
                "LAYOUT",
                tr(
                    "stray file '{file}' next to config.pbtxt: a Triton model directory holds only "
                    "config.pbtxt and numbered version folders; move it into a version folder (e.g. 1/{name}) or "
                    "remove it",
                    file=prefix + first,
                    name=first,
                ),
                entry=member.raw_name,
            )
        if not member.is_dir:
            model_files[rel] = data[member.path] if contents else b""
    for label_file in sorted(label_files):
        if label_file not in model_files:
            raise ArchiveRejected(
                "LAYOUT",
                tr(
                    "config.pbtxt names label_filename \"{name}\" but '{path}' is not in the archive",
                    name=label_file,
                    path=prefix + label_file,
                ),
                entry=config_path,
            )
    if not versions:
        raise ArchiveRejected(
            "LAYOUT",
            tr("no version folder: put the model's files in '{folder}/' (e.g. {folder}/model.py)", folder=prefix + "1"),
        )
    if config.HasField("version_policy") and config.version_policy.HasField("specific"):
        missing = sorted(set(config.version_policy.specific.versions) - versions)
        if missing:
            raise ArchiveRejected(
                "LAYOUT",
                tr(
                    "config.pbtxt's version_policy asks for version(s) {missing} but the archive has only {versions}",
                    missing=missing,
                    versions=sorted(versions),
                ),
                entry=config_path,
            )

    # 4. Backend
    backend = config.backend or PLATFORM_BACKENDS.get(config.platform, config.platform)
    if not backend:
        raise ArchiveRejected(
            "BACKEND",
            tr('config.pbtxt names no backend; add backend: "python" (with the model code in 1/model.py)'),
            entry=config_path,
        )
    if backend not in supported:
        asked = (
            tr("the '{backend}' backend (platform \"{platform}\")", backend=backend, platform=config.platform)
            if config.platform
            else tr("the '{backend}' backend", backend=backend)
        )
        if supported == {"python"}:
            refusal = tr(
                "the submissions Triton here runs only the python backend; this model asks for {asked}: wrap the model "
                'in a python-backend model (backend: "python" and 1/model.py, which can run onnxruntime, torch or '
                "transformers inside)",
                asked=asked,
            )
        else:
            refusal = tr(
                "the submissions Triton here runs only the {backends} backends; this model asks for {asked}: use one of those",
                backends=", ".join(sorted(supported)),
                asked=asked,
            )
        raise ArchiveRejected("BACKEND", refusal, entry=config_path)
    if backend == "python":
        entry_file = config.default_model_filename or "model.py"
        if "/" in entry_file or entry_file in ("", ".", ".."):
            raise ArchiveRejected(
                "BAD_CONFIG", tr("default_model_filename {name!r} must be a plain file name", name=entry_file), entry=config_path
            )
        for version in sorted(versions):
            if f"{version}/{entry_file}" not in model_files:
                raise ArchiveRejected(
                    "LAYOUT",
                    tr(
                        "version folder '{folder}/' has no {file}: the python backend runs <version>/{file} ({folders} in "
                        "the archive)",
                        folder=f"{prefix}{version}",
                        file=entry_file,
                        folders=trn("{count} version folder", "{count} version folders", count=len(versions)),
                    ),
                    entry=f"{prefix}{version}/",
                )

    # 5. Devices: a model runs on CPU unless its config names a device kind itself.
    _default_to_cpu(config, config_text)

    return ModelRepository(
        name=name,
        config_text=config_text,
        config=json_format.MessageToDict(config, preserving_proto_field_name=True),
        files=dict(sorted(model_files.items())),
        versions=sorted(versions),
        backend=backend,
    )


def explicit_kind_auto(config_text: str) -> bool:
    """Whether config.pbtxt writes ``KIND_AUTO`` (the parsed proto3 message cannot tell it from no kind)."""
    tokenizer = text_format.Tokenizer(config_text.removeprefix("\ufeff").splitlines())
    while not tokenizer.AtEnd():
        if tokenizer.token == "KIND_AUTO":  # an identifier token: only ModelInstanceGroup.Kind has this value
            return True
        tokenizer.NextToken()
    return False


def _default_to_cpu(config: Any, config_text: str) -> None:
    """No instance_group: one KIND_CPU instance; a group without a kind: KIND_CPU. Triton's own default
    (KIND_AUTO) would place the instances on a GPU when the server has one. A written ``KIND_AUTO`` is kept
    (the upload's config limits refuse it unless GPUs are allowed)."""
    group_type = _pb2().ModelInstanceGroup
    if not config.instance_group:
        config.instance_group.add(count=1, kind=group_type.KIND_CPU)
        return
    if explicit_kind_auto(config_text):
        return
    for group in config.instance_group:
        if group.kind == group_type.KIND_AUTO:
            group.kind = group_type.KIND_CPU
