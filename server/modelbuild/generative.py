"""The built-in generative demo (`chat_demo`, Triton model `generative_demo`): a tiny GPT-2-style causal LM trained
here in minutes on generated dialogues in the plain chat format (generative_data.py), with a byte-level BPE tokenizer
trained on the same text. It writes plausible-looking but mostly meaningless replies: an easy first-round target.

`1/weights/` is a complete Hugging Face model directory (`save_pretrained` of the model and of a
`PreTrainedTokenizerFast` with eos/pad tokens and a chat template rendering the plain format), so
`HF_HUB_OFFLINE=1 transformers serve DIR` serves it too: `hf_directory(repository)` returns it.

With `--base-model DIR` naming a local causal LM (a config AutoModelForCausalLM knows), that model is copied as it is,
not fine-tuned: a few CPU minutes on the toy dialogues would only damage a real model. A chat template is added when
its tokenizer has none (the plain format), so that `transformers serve` can still chat with it.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from server.core.settings import torch_threads

MODEL_NAME = "generative_demo"
EOS = "<|endoftext|>"
DEFAULT_STOP = "\nUser:"
MODEL_KIND = "demo: a tiny GPT-2-style model trained here in minutes; it writes plausible-looking but mostly meaningless text"
COPIED_KIND = "causal LM copied as it is from --base-model (not trained here)"
# The plain chat format (server/generation/prompt.py renders the same for Triton): system text and a blank line, then
# `User: …` / `Assistant: …` lines, ending with `Assistant:` when a reply is asked for. Content may be a string or a
# list of text parts.
CHAT_TEMPLATE = (
    "{%- set ns = namespace(system='', body='') -%}"
    "{%- for message in messages -%}"
    "{%- if message['content'] is string -%}{%- set text = message['content'] -%}"
    "{%- else -%}{%- set text = message['content'] | selectattr('type', 'equalto', 'text')"
    " | map(attribute='text') | join(' ') -%}{%- endif -%}"
    "{%- if message['role'] == 'system' -%}"
    "{%- set ns.system = ns.system ~ ('\\n\\n' if ns.system else '') ~ text -%}"
    "{%- else -%}"
    "{%- set ns.body = ns.body ~ ('\\n' if ns.body else '')"
    " ~ ('User' if message['role'] == 'user' else 'Assistant') ~ ': ' ~ (text | trim) -%}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{%- set ns.body = ns.body ~ ('\\n' if ns.body else '') ~ 'Assistant:' -%}{%- endif -%}"
    "{{- (ns.system ~ '\\n\\n' ~ ns.body) if ns.system else ns.body -}}"
)


@dataclass(frozen=True)
class GenerativeConfig:
    steps: int
    batch_size: int
    seq_len: int  # tokens per training row (the context the model learns; model.py slides a window this long)
    n_layer: int
    n_embd: int
    vocab_size: int
    n_dialogues: int
    n_heldout: int = 300
    n_head: int = 4
    n_positions: int = 1024
    lr: float = 3e-3
    warmup: float = 0.05
    weight_decay: float = 0.01
    time_budget: float | None = None  # stop training after this many seconds (a busy machine)
    threads: int | None = None  # torch threads (None: torch_threads(), every core unless TORCH_THREADS says)
    seed: int = 13


# "fast" (tests): about a minute on an idle 2-core machine, on one thread: its weights do not depend on the core count,
# and on a busy machine one thread runs several times faster than two that wait on each other (measured 0.5 vs 2.6 s a
# step). "full" (`dynabench up`): a few minutes on every core. The time budget caps training on a busy machine
# (metadata records the steps actually run).
GENERATIVE_PROFILES = {
    "fast": GenerativeConfig(
        steps=300,
        batch_size=16,
        seq_len=128,
        n_layer=2,
        n_embd=160,
        vocab_size=2048,
        n_dialogues=6000,
        n_heldout=200,
        lr=5e-3,
        time_budget=150,
        threads=1,
    ),
    "full": GenerativeConfig(
        steps=700, batch_size=8, seq_len=256, n_layer=3, n_embd=256, vocab_size=3072, n_dialogues=20000, time_budget=300
    ),
}


def hf_directory(repository: Path, model_name: str = MODEL_NAME) -> Path:
    """The Hugging Face directory (model + tokenizer + chat template) of the newest built version of the generative
    model in a built Triton repository: what `transformers serve` or `AutoModelForCausalLM.from_pretrained` reads."""
    model_dir = Path(repository) / model_name
    versions = sorted((int(p.name) for p in model_dir.glob("*") if p.is_dir() and p.name.isdigit()), reverse=True)
    for version in versions:
        weights = model_dir / str(version) / "weights"
        if (weights / "config.json").is_file():
            return weights
    raise FileNotFoundError(f"{model_dir} holds no built version with weights/config.json (run dynabench build-models)")


def is_causal_lm(path: Path) -> bool:
    """Whether a local Hugging Face directory holds a causal LM: a model type AutoModelForCausalLM knows, saved as a
    causal LM (BERT's model type is in that mapping too, but an encoder such as MiniLM is saved as `BertModel`)."""
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    try:
        config = json.loads((Path(path) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    architectures = config.get("architectures") or []
    heads = any(str(a).endswith(("ForCausalLM", "LMHeadModel")) for a in architectures)
    return config.get("model_type") in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and heads


def copy_base_model(base: Path, out_dir: Path) -> dict:
    """Copy a local causal LM directory as it is; the plain-format chat template is added when it has none."""
    from transformers import AutoTokenizer

    shutil.copytree(base, out_dir, ignore=shutil.ignore_patterns(".git", ".cache", "__pycache__"))
    tokenizer = AutoTokenizer.from_pretrained(out_dir, local_files_only=True)
    added = not tokenizer.chat_template
    if added:
        (out_dir / "chat_template.jinja").write_text(CHAT_TEMPLATE, encoding="utf-8")
    return {"model_kind": COPIED_KIND, "chat_template_added": added, "parameters": _count_parameters(out_dir)}


def _count_parameters(weights: Path) -> int | None:
    from safetensors import safe_open

    total = 0
    files = sorted(weights.glob("*.safetensors"))
    for path in files:
        with safe_open(str(path), framework="pt") as fh:
            for name in fh.keys():  # noqa: SIM118 (safe_open has no __iter__)
                total += math.prod(fh.get_slice(name).get_shape())
    return total if files else None


def _tokenizer(texts: list[str], cfg: GenerativeConfig):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=cfg.vocab_size,
        special_tokens=[EOS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    raw.train_from_iterator(texts, trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw, eos_token=EOS, bos_token=EOS, pad_token=EOS, model_max_length=cfg.n_positions
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def _stream(tokenizer, texts: list[str]) -> list[int]:
    """The dialogues' token ids, each followed by the end-of-text token."""
    ids: list[int] = []
    for row in tokenizer(texts, add_special_tokens=False)["input_ids"]:
        ids += [*row, tokenizer.eos_token_id]
    return ids


def heldout_perplexity(model, ids: list[int], seq_len: int) -> float | None:
    """exp(mean next-token loss) over the held-out dialogues cut into rows of seq_len tokens."""
    import torch

    usable = (len(ids) - 1) // seq_len * seq_len  # whole rows only (one batch shape)
    if usable == 0:
        return None
    rows = torch.tensor(ids[: usable + 1])
    inputs, targets = rows[:-1].view(-1, seq_len), rows[1:].view(-1, seq_len)
    total = 0.0
    with torch.inference_mode():
        for start in range(0, len(inputs), 16):
            logits = model(input_ids=inputs[start : start + 16]).logits
            total += float(
                torch.nn.functional.cross_entropy(logits.flatten(0, 1), targets[start : start + 16].flatten(), reduction="sum")
            )
    return math.exp(total / targets.numel())


def train_generative(
    train: list[str],
    heldout: list[str],
    out_dir: Path,
    cfg: GenerativeConfig,
    progress: Callable[[int, int, float], None] | None = None,
) -> dict:
    """Train the tokenizer and the model on `train`, score it on `heldout`, save both to `out_dir`."""
    import torch
    import transformers
    from transformers import GPT2Config, GPT2LMHeadModel

    transformers.logging.set_verbosity_error()
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads or torch_threads())
    rng = random.Random(cfg.seed)
    tokenizer = _tokenizer(train, cfg)
    data = torch.tensor(_stream(tokenizer, train))
    if len(data) <= cfg.seq_len + 1:
        raise ValueError(f"too little training text ({len(data)} tokens) for rows of {cfg.seq_len}")
    eos = tokenizer.eos_token_id
    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=cfg.n_positions,
        n_embd=cfg.n_embd,
        n_layer=cfg.n_layer,
        n_head=cfg.n_head,
        bos_token_id=eos,
        eos_token_id=eos,
        pad_token_id=eos,
    )
    model = GPT2LMHeadModel(config)
    decay = [p for p in model.parameters() if p.ndim >= 2]
    no_decay = [p for p in model.parameters() if p.ndim < 2]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}], lr=cfg.lr
    )
    warmup = max(1, int(cfg.steps * cfg.warmup))
    started = time.monotonic()

    def lr_lambda(step: int) -> float:  # linear warm-up, then cosine decay over the steps (or the time budget)
        if step < warmup:
            return (step + 1) / warmup
        done = (step - warmup) / max(1, cfg.steps - warmup)
        if cfg.time_budget:
            done = max(done, (time.monotonic() - started) / cfg.time_budget)
        return max(0.02, 0.5 * (1 + math.cos(math.pi * min(1.0, done))))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    model.train()
    loss_ema, step = math.nan, 0
    for step in range(1, cfg.steps + 1):
        starts = [rng.randrange(0, len(data) - cfg.seq_len - 1) for _ in range(cfg.batch_size)]
        batch = torch.stack([data[s : s + cfg.seq_len] for s in starts])
        loss = model(input_ids=batch, labels=batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        value = float(loss.detach())
        loss_ema = value if math.isnan(loss_ema) else 0.9 * loss_ema + 0.1 * value
        if progress:
            progress(step, cfg.steps, loss_ema)
        if cfg.time_budget and time.monotonic() - started > cfg.time_budget:
            break
    train_seconds = time.monotonic() - started
    model.eval()
    perplexity = heldout_perplexity(model, _stream(tokenizer, heldout), cfg.seq_len)
    model.generation_config.pad_token_id = eos
    model.generation_config.eos_token_id = eos
    model.generation_config.stop_strings = [DEFAULT_STOP]  # transformers serve: end a reply at the next turn
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    return {
        "model_kind": MODEL_KIND,
        "parameters": sum(p.numel() for p in model.parameters()),
        "architecture": {"n_layer": cfg.n_layer, "n_embd": cfg.n_embd, "n_head": cfg.n_head, "vocab_size": len(tokenizer)},
        "context_window": cfg.seq_len,
        "n_train_tokens": len(data),
        "heldout_metric": "perplexity",
        "heldout_perplexity": None if perplexity is None else round(perplexity, 3),
        "train_steps": step,
        "train_steps_planned": cfg.steps,
        "train_seconds": round(train_seconds, 1),
        "final_train_loss": round(loss_ema, 4),
    }


def greedy_reply(weights: Path, prompt: str, max_new_tokens: int = 40) -> str:
    """The saved model's greedy continuation of `prompt` up to the first stop (recorded in metadata as a sample)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(weights, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(weights, local_files_only=True).eval()
    ids = tokenizer(prompt, return_tensors="pt", add_special_tokens=False)["input_ids"]
    with torch.inference_mode():
        out = model.generate(ids, max_new_tokens=max_new_tokens, do_sample=False, tokenizer=tokenizer)
    text = str(tokenizer.decode(out[0, ids.shape[1] :], skip_special_tokens=True))  # one sequence: one string
    return text.split(DEFAULT_STOP)[0]
