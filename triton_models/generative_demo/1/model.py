"""Triton python-backend model: a causal LM streamed token by token (decoupled), the built-in generative DEMO.

The weights (``<version dir>/weights/``, a Hugging Face directory loaded with AutoModelForCausalLM/AutoTokenizer) are
written by ``dynabench build-models`` (server/modelbuild/generative.py): a tiny GPT-2-style model trained in minutes
on generated dialogues, or a causal LM given with ``--base-model`` and copied as it is.

The contract (triton_models/README.md "Generative tasks"; the same names as Triton's vLLM backend):

- ``text_input`` BYTES [1]: the prompt, already rendered (the plain chat format ends with ``Assistant:``);
- ``sampling_parameters`` BYTES [1], optional: a JSON object, ``max_tokens`` (default 128, at most 1024),
  ``temperature`` (default 0.7; 0 = greedy), ``top_p`` (default 1), ``seed`` (same seed and settings: same text),
  ``stop`` (strings; the text ends before the first one found, which is not sent), ``min_tokens`` (default 0: no
  end of text nor stop string before that many tokens);
- ``stream`` BOOL [1], optional (default true): false sends one response with the whole text.

Each response's ``text_output`` BYTES [1] is only the text generated since the previous response (a multibyte
character is never split; a possible start of a stop string is held back until it is known), then the final flag
(the last response may be empty). Generation ends at the end-of-text token, ``max_tokens``, a stop string (this
model always stops at ``default_stop``, the plain format's next-turn marker, besides the request's), or when the
client cancels the request. A prompt longer than the context window keeps its end; when the window is full the
model re-reads its last half (a sliding window), so any ``max_tokens`` up to the cap works.
"""

import json
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np

try:
    import triton_python_backend_utils as pb_utils  # only inside Triton's python-backend stub
except ImportError:  # imported outside Triton (tests)
    pb_utils = None

HARD_MAX_TOKENS = 1024
DEFAULTS = {"max_tokens": 128, "min_tokens": 0, "temperature": 0.7, "top_p": 1.0, "seed": None, "stop": []}


def _param(config, key, default=None):
    value = config.get("parameters", {}).get(key)
    return value.get("string_value", default) if isinstance(value, dict) else default


def parse_sampling(text, default_stop):
    """The request's sampling parameters, checked and completed with the defaults (ValueError when malformed)."""
    given = json.loads(text) if text and text.strip() else {}
    if not isinstance(given, dict):
        raise ValueError("sampling_parameters must be a JSON object")
    params = {**DEFAULTS, **{k: v for k, v in given.items() if v is not None}}
    stop = params["stop"]
    if isinstance(stop, str):
        stop = [stop]
    if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop):
        raise ValueError("stop must be a string or a list of strings")
    try:
        max_tokens = max(1, min(HARD_MAX_TOKENS, int(params["max_tokens"])))
        min_tokens = max(0, min(max_tokens, int(params["min_tokens"])))
        temperature = max(0.0, float(params["temperature"]))
        top_p = min(1.0, max(1e-6, float(params["top_p"])))
        seed = None if params["seed"] is None else int(params["seed"])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"malformed sampling_parameters: {exc}") from None
    stops = [s for s in dict.fromkeys([*stop, *([default_stop] if default_stop else [])]) if s]
    return {
        "max_tokens": max_tokens,
        "min_tokens": min_tokens,
        "temperature": temperature,
        "top_p": top_p,
        "seed": seed,
        "stop": stops,
    }


class DeltaText:
    """Turns the growing decoded text into deltas: never past a trailing replacement character (an incomplete
    UTF-8 sequence) nor into a possible beginning of a stop string; ``done`` once a stop string appears."""

    def __init__(self, stops):
        self.stops = stops
        self.sent = 0
        self.done = False

    def update(self, text, final=False, stops=True):
        """``stops`` False: a stop string does not end the text yet (``min_tokens`` not reached)."""
        for stop in self.stops if stops else ():
            at = text.find(stop, max(0, self.sent - len(stop)))
            if at >= 0:
                text, final, self.done = text[:at], True, True
        end = len(text)
        if not final:
            while end > self.sent and text[end - 1] == "\ufffd":
                end -= 1
            hold = 0
            for stop in self.stops:
                for k in range(min(len(stop) - 1, end - self.sent), hold, -1):
                    if text.endswith(stop[:k], 0, end):
                        hold = k
                        break
            end -= hold
        end = max(end, self.sent)
        delta, self.sent = text[self.sent : end], end
        return delta


class Generator:
    """Token-by-token sampling with a KV cache and a sliding context window (also used by tests)."""

    def __init__(self, weights, window=None):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(weights, local_files_only=True)
        self.model = AutoModelForCausalLM.from_pretrained(weights, local_files_only=True).eval()
        config = self.model.config
        positions = getattr(config, "n_positions", None) or getattr(config, "max_position_embeddings", None) or 2048
        self.window = max(8, min(int(window or positions), int(positions)))
        eos = self.tokenizer.eos_token_id
        self.eos = {eos} if isinstance(eos, int) else set(eos or [])

    def _next_logits(self, context, state):
        torch = self.torch
        if state["past"] is not None and state["cached"] < self.window:
            inputs, past = context[-1:], state["past"]
        else:  # first step, or the window is full: read the last (half) window again
            keep = self.window if state["past"] is None else self.window // 2
            inputs, past = context[-keep:], None
            state["cached"] = 0
        out = self.model(input_ids=torch.tensor([inputs]), cache=past, use_cache=True, logits_to_keep=1)
        state["past"], state["cached"] = out.cache, state["cached"] + len(inputs)
        return out.logits[0, -1].float()

    def _pick(self, logits, params, generator):
        torch = self.torch
        if params["temperature"] == 0:
            return int(torch.argmax(logits))
        probs = torch.softmax(logits / params["temperature"], dim=-1)
        if params["top_p"] < 1.0:
            sorted_probs, order = torch.sort(probs, descending=True)
            keep = torch.cumsum(sorted_probs, dim=-1) - sorted_probs < params["top_p"]
            probs = torch.zeros_like(probs).scatter(0, order[keep], sorted_probs[keep])
        return int(torch.multinomial(probs, 1, generator=generator))

    def deltas(self, prompt, params, cancelled=lambda: False):
        """Yields the text deltas of one generation (see DeltaText), until a stop, eos, max_tokens or cancellation."""
        torch = self.torch
        generator = torch.Generator()
        seed = params["seed"] if params["seed"] is not None else int.from_bytes(os.urandom(8), "little")
        generator.manual_seed(seed % (1 << 63))
        context = self.tokenizer(prompt, add_special_tokens=False)["input_ids"] or [next(iter(self.eos), 0)]
        generated, state, text = [], {"past": None, "cached": 0}, DeltaText(params["stop"])
        with torch.inference_mode():
            for _ in range(params["max_tokens"]):
                if cancelled():
                    return
                logits = self._next_logits(context, state)
                short = len(generated) < params["min_tokens"]
                if short and self.eos:  # vLLM's min_tokens: no end of text before that many tokens
                    logits[list(self.eos)] = float("-inf")
                token = self._pick(logits, params, generator)
                if token in self.eos:
                    break
                context.append(token)
                generated.append(token)
                delta = text.update(self.tokenizer.decode(generated, skip_special_tokens=True), stops=not short)
                if delta:
                    yield delta
                if text.done:
                    return
        delta = text.update(self.tokenizer.decode(generated, skip_special_tokens=True), final=True)
        if delta:
            yield delta


class TritonPythonModel:
    def initialize(self, args):
        import torch

        config = json.loads(args["model_config"])
        torch.set_num_threads(int(_param(config, "num_threads", "1") or 1))
        weights = os.path.join(args["model_repository"], args["model_version"], "weights")
        self.default_stop = _param(config, "default_stop", "")
        self.generator = Generator(weights, int(_param(config, "context_window", "0") or 0) or None)

    def _respond(self, text):
        array = np.array([text.encode("utf-8")], dtype=np.object_)
        return pb_utils.InferenceResponse(output_tensors=[pb_utils.Tensor("text_output", array)])

    def execute(self, requests):
        final = pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL
        for request in requests:
            sender = request.get_response_sender()
            try:
                prompt = _text(request, "text_input")
                params = parse_sampling(_text(request, "sampling_parameters"), self.default_stop)
                stream = pb_utils.get_input_tensor_by_name(request, "stream")
                streaming = True if stream is None else bool(stream.as_numpy().reshape(-1)[0])
            except (ValueError, UnicodeDecodeError) as exc:
                sender.send(pb_utils.InferenceResponse(error=pb_utils.TritonError(str(exc))), flags=final)
                continue
            sent, whole, stopped = 0, [], []

            def cancelled(sender=sender, stopped=stopped):
                if sender.is_cancelled():
                    stopped.append(True)  # the generation stops here, before its end
                return bool(stopped)

            try:
                for delta in self.generator.deltas(prompt, params, cancelled):
                    if streaming:
                        sender.send(self._respond(delta))
                        sent += 1
                    else:
                        whole.append(delta)
            except Exception as exc:  # noqa: BLE001 (the client gets the error instead of a stream that never ends)
                sender.send(pb_utils.InferenceResponse(error=pb_utils.TritonError(f"generation failed: {exc}")), flags=final)
                continue
            if sender.is_cancelled():
                name, when = request.request_id(), "stopped generating" if stopped else "after the text had ended"
                pb_utils.Logger.log_info(f"generative request {name!r} cancelled by the client after {sent} responses, {when}")
            if sender.is_cancelled() or (streaming and sent):  # the last delta went out already (or nobody listens)
                sender.send(flags=final)
            else:
                sender.send(self._respond("".join(whole)), flags=final)
        return None


def _text(request, name):
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        if name == "text_input":
            raise ValueError("text_input is required")
        return ""
    value = tensor.as_numpy().reshape(-1)[0]
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
