"""A real OpenAI-compatible server for the LLM endpoint tests: `transformers serve` (transformers' own server, the
`serving` extra) over a local model directory, on 127.0.0.1 and a free port, started and stopped by the tests.

The model: the built-in generative demo's Hugging Face directory when the test model cache holds one
(server/modelbuild/generative.py), else a tiny GPT-2 with random weights built here in a fraction of a second (a
byte-level BPE vocabulary trained by `tokenizers` on a few sentences, and a chat template): it writes gibberish, and
writes it until max_tokens, which is what the tests of long streams need."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from server.runtime import free_port

CHAT_TEMPLATE = (
    "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}{% if add_generation_prompt %}assistant:{% endif %}"
)
SENTENCES = [
    "Hello there, how are you today? I am a small model that answers questions about bridges and rivers.",
    "The bridge opened in 1932 and carries four lanes of traffic over the river.",
    "User: what is the weather like? Assistant: it is sunny and warm, with a light wind from the west.",
]


def build_tiny_chat_model(out: Path) -> Path:
    """A 2-layer GPT-2 (random weights) with a BPE tokenizer and a chat template, saved with save_pretrained."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    if (out / "config.json").is_file():
        return out
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tokenizer.train_from_iterator(SENTENCES * 20, trainer)
    eos = "<|endoftext|>"
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token=eos, bos_token=eos, unk_token=eos, pad_token=eos)
    fast.chat_template = CHAT_TEMPLATE
    torch.manual_seed(0)
    config = GPT2Config(
        vocab_size=len(fast),
        n_positions=2048,
        n_embd=32,
        n_layer=2,
        n_head=2,
        bos_token_id=fast.eos_token_id,
        eos_token_id=fast.eos_token_id,
    )
    out.mkdir(parents=True, exist_ok=True)
    GPT2LMHeadModel(config).save_pretrained(out)
    fast.save_pretrained(out)
    return out


def demo_model_directory() -> Path | None:
    """The built-in generative demo's HF directory in the test model cache, when it was built there."""
    try:
        from server.modelbuild.generative import hf_directory
        from tests.conftest import MODEL_CACHE

        return hf_directory(MODEL_CACHE)
    except (ImportError, FileNotFoundError):
        return None


@dataclass
class LlmServer:
    model_dir: Path
    log_path: Path
    port: int = 0
    process: subprocess.Popen | None = None
    started_in_s: float = 0.0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        return str(self.model_dir)

    def start(self, timeout_s: float = 180.0) -> LlmServer:
        self.port = self.port or free_port()
        command = [str(Path(sys.executable).parent / "transformers"), "serve", str(self.model_dir)]
        command += ["--host", "127.0.0.1", "--port", str(self.port), "--device", "cpu"]
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
        started = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        while time.monotonic() - started < timeout_s:
            if self.process.poll() is not None:
                raise RuntimeError(f"transformers serve exited: {self.log_path.read_text(errors='replace')[-3000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2).status_code == 200:
                    self.started_in_s = time.monotonic() - started
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"transformers serve not ready in {timeout_s} s: {self.log_path.read_text(errors='replace')[-3000:]}")

    def kill(self) -> None:
        """SIGKILL, as a crash would: no goodbye on open connections."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
