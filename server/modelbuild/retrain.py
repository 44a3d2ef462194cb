"""A new version of a built-in target model, trained on the task's seed data plus every validated example (mixed in
at a fixed share, docs/design.md §4.8), written as `<repository>/<model>/<N+1>/` next to the versions Triton already
serves (a version directory appears only once complete). Its metadata.json lists the ids of the validated examples
trained on, of the development split and of the gate's held-out examples.

A classifier continues from the current version's weights (continuation.py: lower learning rate, steps scaled with
the validated examples, class-balanced loss on them, the best checkpoint on a development split); the QA ranker and
`DYNABENCH_RETRAIN_RECIPE=scratch` use `build-models`' recipe from the base."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import random
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from server.modelbuild import continuation
from server.modelbuild.mixing import validated_share
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
from server.modelbuild.seed import SeedData, seed_data
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


def continuable(weights: Path, spec: TaskSpec) -> bool:
    """A classifier saved by train_classifier for this task's labels (a version to continue from)."""
    try:
        head = json.loads((weights / "head.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        head.get("labels") == list(spec.labels)
        and (weights / "classifier.safetensors").is_file()
        and (weights / "config.json").is_file()
    )


def continue_classifier(
    spec: TaskSpec,
    seed: SeedData,
    validated: list[dict],
    profile: str,
    base_model: str | None,
    start: Path | None,
    weights_dir: Path,
    emit: Callable[[BuildEvent], None],
) -> dict:
    """The classifier recipe of continuation.py: from the classifier in `start` (None: the base encoder at the
    profile's learning rate) on the seed pool minus the retention rows plus `validated` minus its development split."""
    from server.modelbuild.train import PROFILES, Selection

    base_cfg, plan = PROFILES[profile][spec.name], continuation.CONTINUE_PROFILES[profile]
    train_rows, dev = continuation.split_dev(validated)
    keep = set(random.Random(f"seed-dev:{spec.name}").sample(range(len(seed.train)), min(plan.seed_dev, len(seed.train) // 10)))
    seed_dev = [row for i, row in enumerate(seed.train) if i in keep] if dev else []
    pool = [row for i, row in enumerate(seed.train) if i not in keep] if dev else list(seed.train)
    n_seed = continuation.capped_size((row["label"] for row in pool), base_cfg.max_per_class)
    steps = continuation.planned_steps(len(train_rows), validated_share(n_seed, len(train_rows)), base_cfg.batch_size, plan)
    cfg = dataclasses.replace(base_cfg, steps=steps)
    if start is not None:
        cfg = dataclasses.replace(cfg, lr=base_cfg.lr * plan.lr_factor, head_lr=plan.head_lr)
    weights = continuation.class_weights([row["label"] for row in train_rows], plan.max_class_weight)
    selection = Selection(dev, seed_dev, continuation.eval_every(steps, plan.evals), plan.patience) if dev else None
    base_ref, local_base, _ = resolve_base_model(base_model) if start is None else (str(start), True, "")
    meta = build_classifier(
        spec,
        dataclasses.replace(seed, train=pool),
        base_ref,
        local_base,
        weights_dir,
        cfg,
        emit,
        train_rows,
        init_from=start,
        class_weights=weights or None,
        selection=selection,
    )
    chosen = meta.pop("selection", None)
    meta["validated"]["available"] = len(validated)  # every row the model can take, the development split's too
    meta["recipe"] = {
        "name": "continue",
        "lr": cfg.lr,
        "head_lr": cfg.head_lr,
        "epochs": plan.epochs,
        "steps_planned": steps,
        "class_weights": weights,
        "dev": len(dev),
        "seed_dev": len(seed_dev),
        "eval_every": selection.every if selection else None,
        "patience": plan.patience,
        **(chosen or {"best_step": None, "stopped_at": meta["train_steps"], "stop_reason": "no development split"}),
    }
    meta["dev_ids"] = sorted(int(row["example_id"]) for row in dev if row.get("example_id") is not None)
    return meta


def build_next_version(
    spec: TaskSpec,
    repository: Path,
    validated: list[dict],
    profile: str,
    base_model: str | None,
    progress: Callable[[BuildEvent], None] | None = None,
    version: int | None = None,
    held_out: Sequence[int] = (),
    current_version: str | None = None,
) -> tuple[int, dict]:
    """Train and write version `version` (default: one above the newest) of spec's model on the seed data plus
    every row of `validated` (`training_rows`) outside the development split; returns it and its metadata, whose
    "validated" entry is the training code's own count of what it trained on (`mixing.validated_summary`).
    `held_out` are the ids of the retraining gate's examples (server/training/gate.py): never trained on, listed as
    `validated.held_out_ids`. A classifier continues from `current_version`'s weights when it has them and no
    other `base_model` is named."""
    from server.modelbuild.train import PROFILES

    recipe = continuation.recipe_name(os.environ.get(continuation.RECIPE_ENV))
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
        if spec.kind == "classification" and recipe == "continue":
            start = model_dir / str(current_version) / "weights" if current_version and base_model is None else None
            start = start if start is not None and continuable(start, spec) else None
            meta = continue_classifier(spec, seed, validated, profile, base_model, start, staging / "weights", emit)
            meta["base_model"] = f"version {current_version} of {spec.model_name}" if start else resolve_base_model(base_model)[0]
            meta["started_from"] = f"version {current_version}" if start else "base encoder"
        elif spec.kind == "classification":
            base_ref, local_base, _ = resolve_base_model(base_model)
            meta = build_classifier(
                spec, seed, base_ref, local_base, staging / "weights", PROFILES[profile][spec.name], emit, validated
            )
            meta["base_model"] = base_ref
            meta["started_from"] = "base encoder"
            meta["recipe"] = {"name": "scratch"}
        else:
            from server.modelbuild.qa import QA_PROFILES

            meta = build_qa(spec, seed, staging / "model.py", staging / "weights", QA_PROFILES[profile], emit, validated)
            meta["base_model"] = "none (not a neural model)"
        if spec.kind == "classification":
            emit(BuildEvent(spec.name, spec.model_name, "offline", message="ONNX int8 export"))
            offline = export_offline(staging, spec, config_max_length(model_dir))
            meta["offline_export"] = {"seconds": offline["export_seconds"], "bytes": offline["files"]["model.onnx"]["bytes"]}
        dev_ids = meta.pop("dev_ids", [])
        meta = {
            "task": spec.name,
            "model_name": spec.model_name,
            "version": version,
            "profile": profile,
            **meta,
            "training_data": f"{seed.source} + {meta['validated']['trained']} validated examples",
            "validated": {**meta["validated"], "held_out_ids": kept_out, "dev_ids": dev_ids},
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
