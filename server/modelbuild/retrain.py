"""A new version of a built-in target model: the same recipe as `build-models`, trained on the task's
seed data plus every validated example (mixed in at a fixed share, docs/design.md §4.8), written as
`<repository>/<model>/<N+1>/` next to the versions Triton already serves (a version directory appears
only once complete). Its metadata.json lists the ids of the validated examples trained on."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from server.modelbuild.offline import config_max_length, export_offline
from server.modelbuild.progress import BuildError, BuildEvent
from server.modelbuild.recipes import (
    MAX_EVAL,
    build_classifier,
    build_qa,
    library_versions,
    limit_eval,
    resolve_base_model,
    score_text,
)
from server.modelbuild.repository import make_readable, model_py_template
from server.modelbuild.seed import seed_data
from server.modelbuild.tasks import TASKS, TaskSpec


def spec_for_model(model_name: str) -> TaskSpec | None:
    return next((spec for spec in TASKS.values() if spec.model_name == model_name), None)


def existing_versions(model_dir: Path) -> list[int]:
    return sorted(int(p.name) for p in model_dir.iterdir() if p.is_dir() and p.name.isdigit()) if model_dir.is_dir() else []


def training_rows(spec: TaskSpec, examples: list[dict]) -> list[dict]:
    """Validated examples → training records in the seed data's shape (model inputs + label/answer), each with
    its `example_id`; an example the model cannot take (a missing input, an unknown label) is left out."""
    rows = []
    for example in examples:
        record = {name: example["fields"].get(name) for name in spec.inputs}
        if any(not isinstance(value, str) or not value for value in record.values()):
            continue
        if spec.kind == "classification":
            if example.get("label") not in spec.labels:
                continue
            record["label"] = example["label"]
        else:
            answer, start = example.get("answer"), example.get("answer_start")
            if not answer or start is None:
                continue
            record.update({"answer": answer, "answer_start": int(start)})
        rows.append({**record, "example_id": example.get("id")})
    return rows


def build_next_version(
    spec: TaskSpec,
    repository: Path,
    validated: list[dict],
    profile: str,
    base_model: str | None,
    progress: Callable[[BuildEvent], None] | None = None,
    version: int | None = None,
    held_out: Sequence[int] = (),
) -> tuple[int, dict]:
    """Train and write version `version` (default: one above the newest) of spec's model on the seed data plus
    every row of `validated` (`training_rows`); returns it and its metadata, whose "validated" entry is the
    training code's own count of what it trained on (`mixing.validated_summary`). `held_out` are the ids of the
    retraining gate's examples (server/training/gate.py): never trained on, listed as `validated.held_out_ids`."""
    from server.modelbuild.train import PROFILES

    emit = progress or (lambda event: None)
    model_dir = Path(repository) / spec.model_name
    if not (model_dir / "config.pbtxt").is_file():
        raise BuildError(f"{model_dir} is not a model of the target repository (no config.pbtxt)")
    kept_out = sorted(set(held_out))
    if set(kept_out) & {row.get("example_id") for row in validated}:
        raise BuildError("a held-out gate example is among the training rows")
    version = version or (max(existing_versions(model_dir), default=0) + 1)
    started = time.monotonic()
    # Held-out data stays the seed's: v1 and v2 are scored on the same examples.
    seed = limit_eval(seed_data(spec.name), MAX_EVAL[profile], spec.name)
    staging = model_dir.parent / f".{spec.model_name}.{version}.building"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir(parents=True)
        shutil.copyfile(model_py_template(spec), staging / "model.py")
        emit(
            BuildEvent(
                spec.name,
                spec.model_name,
                "data",
                message=f"{len(seed.train)} seed + {len(validated)} validated train / {len(seed.heldout)} held out",
            )
        )
        if spec.kind == "classification":
            base_ref, local_base, _ = resolve_base_model(base_model)
            meta = build_classifier(
                spec, seed, base_ref, local_base, staging / "weights", PROFILES[profile][spec.name], emit, validated
            )
            meta["base_model"] = base_ref
            emit(BuildEvent(spec.name, spec.model_name, "offline", message="ONNX int8 export"))
            offline = export_offline(staging, spec, config_max_length(model_dir))
            meta["offline_export"] = {"seconds": offline["export_seconds"], "bytes": offline["files"]["model.onnx"]["bytes"]}
        else:
            from server.modelbuild.qa import QA_PROFILES

            meta = build_qa(spec, seed, staging / "model.py", staging / "weights", QA_PROFILES[profile], emit, validated)
            meta["base_model"] = "none (not a neural model)"
        meta = {
            "task": spec.name,
            "model_name": spec.model_name,
            "version": version,
            "profile": profile,
            **meta,
            "training_data": f"{seed.source} + {meta['validated']['trained']} validated examples",
            "validated": {**meta["validated"], "held_out_ids": kept_out},
            "n_validated_examples": meta["validated"]["trained"],
            "n_heldout": len(seed.heldout),
            "build_seconds": round(time.monotonic() - started, 1),
            "built_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "versions": library_versions(),
        }
        emit(BuildEvent(spec.name, spec.model_name, "save"))
        (staging / "metadata.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        shutil.rmtree(staging / "__pycache__", ignore_errors=True)
        make_readable(staging)
        target = model_dir / str(version)
        if target.exists():
            shutil.rmtree(target)  # a leftover of an attempt that crashed after the move: rebuilt above
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    emit(BuildEvent(spec.name, spec.model_name, "done", message=score_text(meta)))
    return version, meta
