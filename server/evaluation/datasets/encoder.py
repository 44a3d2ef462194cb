"""Sentence embeddings from a task's own encoder, for the contamination check (docs/design.md §4.9).

The built-in classification targets are transformers encoders: `build-models` and retraining write each
version's fine-tuned encoder and tokenizer to `<target repository>/<model>/<version>/weights/`
(`save_pretrained` layout, server/modelbuild/). An embedding is what the model's head reads: the mean of the
last hidden states over the real tokens. Runs in the worker only (a thread of the contamination job), never
in the API process. A model without such a directory (the QA baseline, a researcher's submission) has no
local encoder: the check then compares n-grams only and says so.
"""

from __future__ import annotations

import functools
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from server.core.settings import torch_threads

BATCH = 64
MAX_LENGTH = 128  # tokens per text: enough to tell near-duplicates apart, and cheap
_lock = threading.Lock()  # one embedding at a time per process: the worker has two cores


@dataclass(frozen=True)
class Encoder:
    model_name: str
    version: str
    path: Path  # the weights directory

    @property
    def label(self) -> str:
        return f"{self.model_name} version {self.version}"


def find_encoder(repository: str | os.PathLike | None, targets: Sequence[tuple[str, str]]) -> Encoder | None:
    """The first of `targets` ((model name, version)) whose version directory in the target repository holds
    a transformers encoder (config.json and a tokenizer next to the weights)."""
    if not repository:
        return None
    root = Path(repository)
    for name, version in targets:
        if not name or not version or "/" in name or "/" in version or name.startswith("."):
            continue
        weights = root / name / version / "weights"
        if (weights / "config.json").is_file() and any((weights / f).is_file() for f in ("tokenizer.json", "vocab.txt")):
            return Encoder(name, version, weights)
    return None


@functools.lru_cache(maxsize=2)
def _load(path: str):
    import torch

    torch.set_num_threads(torch_threads())
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import transformers
    from transformers import AutoModel, AutoTokenizer

    transformers.logging.set_verbosity_error()
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    try:  # BERT-like encoders: skip the unused pooler (as the served model does)
        model = AutoModel.from_pretrained(path, add_pooling_layer=False, local_files_only=True)
    except TypeError:
        model = AutoModel.from_pretrained(path, local_files_only=True)
    model.eval()
    return tokenizer, model


# Vectors this process computed, by (weights directory, text): the checks queued together when a retrained round
# opens (the round's, then each dataset's) embed the same seed and examples with the same encoder. float16 and
# bounded: 50,000 vectors of 384 dimensions are ~40 MB.
CACHE_SIZE = 50_000
_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()


def embed(encoder: Encoder, texts: Sequence[str]) -> np.ndarray:
    """Unit-length mean-pooled embeddings, one row per text (float32). Blocking: call it in a thread."""
    import torch

    path = str(encoder.path)
    with _lock:
        found = {text: _cache[(path, text)] for text in set(texts) if (path, text) in _cache}
        missing = sorted({text for text in texts if text not in found}, key=len)  # similar lengths: less padding
        if missing:
            tokenizer, model = _load(path)
            with torch.inference_mode():
                for start in range(0, len(missing), BATCH):
                    batch = missing[start : start + BATCH]
                    encoded = tokenizer(batch, padding=True, truncation=True, max_length=MAX_LENGTH, return_tensors="pt")
                    hidden = model(**encoded).last_hidden_state
                    mask = encoded["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
                    vectors = torch.nn.functional.normalize(pooled, dim=-1).float().numpy()
                    for text, vector in zip(batch, vectors, strict=True):
                        found[text] = vector.astype(np.float16)
                        _cache[(path, text)] = found[text]
        for text in found:
            _cache.move_to_end((path, text))
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([found[text] for text in texts]).astype(np.float32)
