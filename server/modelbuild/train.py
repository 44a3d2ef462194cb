"""Fine-tune a MiniLM (BERT) encoder with a mean-pooling linear head as a classifier on CPU.

The head mean-pools the encoder's last hidden states over the attention mask (the pooling that
all-MiniLM-L6-v2 was trained with) and applies dropout + a linear layer. On this data it learns
several times faster than BERT's CLS/pooler head (NLI, 2 layers, 110 steps: 83% vs 55%).

Saved layout (``weights/``): the encoder and tokenizer as ``save_pretrained`` writes them
(loadable with ``AutoModel`` / ``AutoTokenizer``), ``classifier.safetensors`` (``weight``
[num_labels, hidden], ``bias`` [num_labels]) and ``head.json`` (pooling, labels, input fields).

Speed choices for a 2-core CPU: the word-embedding matrix (half of MiniLM's parameters) is
frozen, batches are padded to their longest row only, and bf16 autocast is used where the CPU
supports it. The ``fast`` profile also keeps only the first encoder layers.

Retraining passes the validated examples separately (``validated=``): they are never capped, and each
batch carries a fixed share of them (``server/modelbuild/mixing.py``, docs/design.md §4.8). It may also continue
from a saved classifier (``init_from=``: the current version's ``weights/``), weight the validated rows' loss per
label (``class_weights=``) and keep the best checkpoint on a development split (``selection=``,
``server/modelbuild/continuation.py``).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from server.core.settings import torch_threads
from server.modelbuild.continuation import EarlyStop, selection_score
from server.modelbuild.mixing import BatchMixer, validated_summary
from server.modelbuild.tasks import TaskSpec


@dataclass(frozen=True)
class TrainConfig:
    steps: int
    batch_size: int
    max_length: int
    lr: float  # encoder learning rate
    head_lr: float = 1e-3  # classifier head learning rate
    num_layers: int | None = None  # keep only the first N encoder layers (None: all)
    max_per_class: int | None = None  # cap seed examples per label (balances skewed data; never validated ones)
    time_budget: float | None = None  # stop training after this many seconds (safety cap)
    warmup: float = 0.06
    weight_decay: float = 0.01
    dropout: float = 0.1
    seed: int = 13


# Profiles: per task settings. "fast" builds each model in well under a minute (tests; a fixed
# number of steps, so its accuracy does not depend on machine load). "full" is the
# `dynabench up` first-start build (the four models in a few minutes on 2 cores; time_budget
# caps training when the machine is busy, and metadata records the steps actually run).
PROFILES: dict[str, dict[str, TrainConfig]] = {
    "fast": {
        "sentiment": TrainConfig(steps=100, batch_size=16, max_length=48, lr=1.5e-4, num_layers=2, max_per_class=1500),
        "nli": TrainConfig(steps=110, batch_size=16, max_length=64, lr=1.5e-4, num_layers=2),
        "hate_speech": TrainConfig(steps=80, batch_size=16, max_length=48, lr=1.5e-4, num_layers=2),
    },
    "full": {
        "sentiment": TrainConfig(steps=300, batch_size=32, max_length=64, lr=8e-5, max_per_class=3500, time_budget=150),
        "nli": TrainConfig(steps=260, batch_size=32, max_length=80, lr=8e-5, time_budget=140),
        "hate_speech": TrainConfig(steps=140, batch_size=32, max_length=64, lr=8e-5, time_budget=80),
    },
}


class MeanPoolClassifier:
    """Encoder + masked mean pooling + dropout + linear (a torch.nn.Module built lazily)."""

    @staticmethod
    def create(encoder, num_labels: int, dropout: float):
        import torch

        class _Model(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.encoder = encoder
                self.dropout = torch.nn.Dropout(dropout)
                self.classifier = torch.nn.Linear(encoder.config.hidden_size, num_labels)

            def forward(self, **inputs):  # the tokenizer's output (input_ids, attention_mask, ...)
                hidden = self.encoder(**inputs).last_hidden_state
                mask = inputs["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
                return self.classifier(self.dropout(pooled))

        return _Model()


def cpu_supports_bf16() -> bool:
    try:
        with open("/proc/cpuinfo") as fh:
            flags = fh.read()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def _columns(spec: TaskSpec, rows: list[dict]) -> list[list[str]]:
    return [[r[f] for r in rows] for f in spec.inputs]


@dataclass(frozen=True)
class Selection:
    """Model selection of a retraining run: once every validated example was drawn, the model is scored every
    `every` steps (and at the last) on `dev` (the validated development split) and `seed_dev` (seed rows kept out of
    the pool); the best checkpoint is kept, and `patience` evaluations in a row without a better one end the run."""

    dev: list[dict]
    seed_dev: list[dict]
    every: int
    patience: int


@dataclass
class TrainResult:
    steps: int
    train_seconds: float
    final_loss: float
    n_train_used: int  # seed rows in the pool + validated examples drawn at least once
    n_seed_used: int = 0
    validated: dict | None = None  # mixing.validated_summary of the validated examples (None: none given)
    selection: dict | None = None  # the evaluations, the kept step and why the run ended (with `selection=`)


def _balanced(records: list[dict], cap: int | None, rng: random.Random) -> list[dict]:
    if cap is None:
        return list(records)
    by_label: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_label[r["label"]].append(r)
    out: list[dict] = []
    for label in sorted(by_label):
        rows = by_label[label]
        out.extend(rng.sample(rows, cap) if len(rows) > cap else rows)
    return out


def _load(spec: TaskSpec, base_model: str, cfg: TrainConfig, local_files_only: bool, init_from: Path | None):
    """(tokenizer, encoder, model): the base encoder with a new head, or the classifier saved in `init_from`."""
    from safetensors.torch import load_file
    from transformers import AutoModel, AutoTokenizer

    source, local = (str(init_from), True) if init_from is not None else (base_model, local_files_only)
    tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=local)
    # A saved classifier keeps the layers it was trained with (its config.json); the base is cut to the profile's.
    kwargs = {"num_hidden_layers": cfg.num_layers} if cfg.num_layers and init_from is None else {}
    try:  # BERT-like encoders: skip the unused pooler
        encoder = AutoModel.from_pretrained(source, add_pooling_layer=False, local_files_only=local, **kwargs)
    except TypeError:
        encoder = AutoModel.from_pretrained(source, local_files_only=local, **kwargs)
    model = MeanPoolClassifier.create(encoder, spec.num_labels, cfg.dropout)
    if init_from is not None:
        model.classifier.load_state_dict(load_file(str(init_from / "classifier.safetensors")))
    return tokenizer, encoder, model


def train_classifier(
    spec: TaskSpec,
    train: list[dict],
    base_model: str,
    out_dir: Path,
    cfg: TrainConfig,
    progress: Callable[[int, int, float], None] | None = None,
    local_files_only: bool = False,
    validated: list[dict] | None = None,
    init_from: Path | None = None,
    class_weights: dict[str, float] | None = None,
    selection: Selection | None = None,
):
    """Fine-tune ``base_model`` (or the classifier saved in ``init_from``) on ``train`` (capped per label) plus every
    row of ``validated`` (mixed in at a fixed share, each drawn at least once; its loss weighted by
    ``class_weights`` per label); save encoder, tokenizer and head (of the best checkpoint, with ``selection``) to
    ``out_dir``.

    Returns (model, tokenizer, TrainResult); the model is left in eval mode.
    """
    import torch
    import transformers
    from safetensors.torch import save_file

    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(torch_threads())
    rng = random.Random(cfg.seed)
    label2id = {label: i for i, label in enumerate(spec.labels)}
    rows = _balanced(train, cfg.max_per_class, rng)
    extra = list(validated or [])
    if not rows and not extra:
        raise ValueError(f"no training examples for {spec.name}")
    mixer = BatchMixer(len(rows), len(extra), cfg.batch_size, cfg.steps, rng, cfg.seed)
    total = mixer.steps  # the recipe's steps, or more so that every validated example is drawn
    budget = cfg.time_budget * total / cfg.steps if cfg.time_budget else None

    tokenizer, encoder, model = _load(spec, base_model, cfg, local_files_only, init_from)
    embeddings = getattr(encoder, "embeddings", None)
    if embeddings is not None and hasattr(embeddings, "word_embeddings"):
        embeddings.word_embeddings.weight.requires_grad_(False)

    body = [p for p in encoder.parameters() if p.requires_grad]
    head = list(model.classifier.parameters())
    optimizer = torch.optim.AdamW(
        [
            {"params": [p for p in body if p.ndim >= 2], "lr": cfg.lr, "weight_decay": cfg.weight_decay},
            {"params": [p for p in body if p.ndim < 2], "lr": cfg.lr, "weight_decay": 0.0},
            {"params": head, "lr": cfg.head_lr, "weight_decay": 0.0},
        ]
    )
    params = body + head
    warmup = max(1, int(total * cfg.warmup))

    started = time.monotonic()

    def lr_lambda(step: int) -> float:
        # Linear warm-up, then linear decay over the planned steps, or over the time budget when
        # that runs out first (a busy machine still ends training with a decayed learning rate).
        if step < warmup:
            return (step + 1) / warmup
        done = (step - warmup) / max(1, total - warmup)
        if budget:
            done = max(done, (time.monotonic() - started) / budget)
        return max(0.02, 1.0 - done)

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    use_bf16 = cpu_supports_bf16()

    def dev_scores() -> dict:  # the selection's accuracies, in eval mode (no dropout, no RNG drawn)
        assert selection is not None
        model.eval()
        scores = {
            "dev": accuracy(spec, model, tokenizer, selection.dev),
            "seed": accuracy(spec, model, tokenizer, selection.seed_dev),
        }
        model.train()
        return {**scores, "score": selection_score(scores["dev"], scores["seed"])}

    history: list[dict] = [{"step": 0, **dev_scores()}] if selection else []  # the starting model, not a candidate
    early = EarlyStop(selection.patience) if selection else None
    best: tuple[dict, list[int]] | None = None  # (state, draws) of the best checkpoint
    reason = "planned steps"
    model.train()
    loss_ema = math.nan
    step = 0
    for step in range(1, total + 1):
        seed_idx, extra_idx = mixer.next_batch()
        batch = [rows[i] for i in seed_idx] + [extra[i] for i in extra_idx]
        enc = tokenizer(*_columns(spec, batch), padding=True, truncation=True, max_length=cfg.max_length, return_tensors="pt")
        labels = torch.tensor([label2id[r["label"]] for r in batch])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16):
            logits = model(**enc)
        if class_weights:
            weights = torch.tensor([1.0] * len(seed_idx) + [class_weights.get(extra[i]["label"], 1.0) for i in extra_idx])
            loss = (torch.nn.functional.cross_entropy(logits.float(), labels, reduction="none") * weights).mean()
        else:
            loss = torch.nn.functional.cross_entropy(logits.float(), labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        value = float(loss.detach())
        loss_ema = value if math.isnan(loss_ema) else 0.9 * loss_ema + 0.1 * value
        if progress:
            progress(step, total, loss_ema)
        # The time budget (scaled with the steps) never stops a run before every validated example was drawn.
        out_of_time = budget is not None and time.monotonic() - started > budget and mixer.covered
        if selection and early and mixer.covered and (step % selection.every == 0 or step == total or out_of_time):
            history.append({"step": step, **dev_scores()})
            if early.observe(step, history[-1]["score"]):
                best = ({k: v.detach().clone() for k, v in model.state_dict().items()}, list(mixer.draws))
            if early.stop:
                reason = f"no better development score in {selection.patience} evaluations"
                break
        if out_of_time:
            reason = "time budget"
            break
    train_seconds = time.monotonic() - started
    draws = list(mixer.draws)
    if best is not None:  # the kept checkpoint: what it was trained on is what had been drawn by its step
        model.load_state_dict(best[0])
        draws = best[1]
    model.eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    encoder.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    save_file(
        {
            "weight": model.classifier.weight.detach().float().contiguous(),
            "bias": model.classifier.bias.detach().float().contiguous(),
        },
        str(out_dir / "classifier.safetensors"),
    )
    (out_dir / "head.json").write_text(
        json.dumps(
            {
                "architecture": "mean_pooling_linear",
                "pooling": "mean over attention mask of last_hidden_state",
                "labels": list(spec.labels),
                "inputs": list(spec.inputs),
                "hidden_size": encoder.config.hidden_size,
                "train_max_length": cfg.max_length,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    summary = validated_summary(extra, draws, mixer.share) if validated is not None else None
    chosen = None
    if selection and early:
        rounded = [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in h.items()} for h in history]
        chosen = {"best_step": early.best_step, "stopped_at": step, "stop_reason": reason, "evaluations": rounded}
    result = TrainResult(
        steps=step,
        train_seconds=train_seconds,
        final_loss=loss_ema,
        n_train_used=len(rows) + (summary["trained"] if summary else 0),
        n_seed_used=len(rows),
        validated=summary,
        selection=chosen,
    )
    return model, tokenizer, result


def predict_labels(spec: TaskSpec, model, tokenizer, rows: list[dict], max_length: int = 256, batch_size: int = 64) -> list[str]:
    """Label predictions with the same tokenization as the Triton model.py."""
    import torch

    # Sort by length so batches pad little; restore the order afterwards.
    order = sorted(range(len(rows)), key=lambda i: sum(len(rows[i][f]) for f in spec.inputs))
    out: dict[int, str] = {}
    with torch.inference_mode():
        for s in range(0, len(order), batch_size):
            idx = order[s : s + batch_size]
            enc = tokenizer(
                *_columns(spec, [rows[i] for i in idx]), padding=True, truncation=True, max_length=max_length, return_tensors="pt"
            )
            logits = model(**enc)
            for i, k in zip(idx, logits.argmax(dim=-1).tolist()):
                out[i] = spec.labels[k]
    return [out[i] for i in range(len(rows))]


def accuracy(spec: TaskSpec, model, tokenizer, rows: list[dict]) -> float | None:
    if not rows:
        return None
    preds = predict_labels(spec, model, tokenizer, rows)
    return sum(p == r["label"] for p, r in zip(preds, rows)) / len(rows)
